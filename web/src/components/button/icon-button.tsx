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
}

/**
 * A button drawn as an icon (react-aria's Button): the icon is decoration, the label names the
 * button and appears as a tooltip, for the mouse after a moment and at once for the keyboard.
 */
export function IconButton({ label, icon: Icon, onPress, className, isDisabled }: IconButtonProps) {
  return (
    <TooltipTrigger delay={600} closeDelay={0}>
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
