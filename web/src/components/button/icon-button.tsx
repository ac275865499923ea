import type { LucideIcon } from 'lucide-react';
import { Button, Tooltip, TooltipTrigger } from 'react-aria-components';
import './icon-button.css';

export interface IconButtonProps {
  /** The button's accessible name, also shown as its tooltip on hover and keyboard focus. */
  label: string;
  icon: LucideIcon;
  onPress(): void;
  className?: string;
  isDisabled?: boolean;
  /**
   * The tooltip shows on keyboard focus only, not on hover: for buttons that move under a resting
   * pointer (a toast's close button as toasts come and go), where a tooltip would open unasked and
   * take the next Escape, meant for the dialog the user is in.
   */
  tooltipOnFocusOnly?: boolean;
}

/** How long the pointer rests on an icon button before its tooltip shows. */
const TOOLTIP_DELAY_MS = 600;

/**
 * A button drawn as an icon (react-aria's Button): the icon is decoration, the label names the
 * button and appears as a tooltip, for the mouse after a moment and at once for the keyboard.
 */
export function IconButton({
  label,
  icon: Icon,
  onPress,
  className,
  isDisabled,
  tooltipOnFocusOnly = false,
}: IconButtonProps) {
  return (
    <TooltipTrigger
      delay={TOOLTIP_DELAY_MS}
      closeDelay={0}
      trigger={tooltipOnFocusOnly ? 'focus' : undefined}
    >
      <Button
        className={className ? `icon-button ${className}` : 'icon-button'}
        aria-label={label}
        onPress={onPress}
        isDisabled={isDisabled}
      >
        <Icon aria-hidden="true" />
      </Button>
      <Tooltip className="tooltip" offset={6}>
        {label}
      </Tooltip>
    </TooltipTrigger>
  );
}
