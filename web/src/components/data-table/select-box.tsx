import { Check, Minus } from 'lucide-react';
import { type KeyboardEvent, type SyntheticEvent, useLayoutEffect, useRef } from 'react';

export interface SelectBoxProps {
  /** The accessible name ('Select {{name}}', 'Select all rows'). */
  label: string;
  isSelected: boolean;
  /** Some rows selected, not all: the header's box. */
  isIndeterminate?: boolean;
  isDisabled?: boolean;
  onChange?(checked: boolean): void;
}

/** A press on the box is the box's: the row under it must not toggle its selection a second time. */
const keepEvent = (event: SyntheticEvent) => event.stopPropagation();
const keepSpace = (event: KeyboardEvent) => {
  if (event.key === ' ') event.stopPropagation();
};

/**
 * The selection checkbox of a table's row or header: a native input lying, invisible, over the box
 * it draws, so that a click or a tap lands on the input itself. A plain input, not react-aria's
 * Checkbox, which hid its input with inline styles the table's CSS had to undo, and whose hooks
 * did nothing here the input does not do itself (about as fast in React's production build).
 */
export function SelectBox({
  label,
  isSelected,
  isIndeterminate = false,
  isDisabled = false,
  onChange,
}: SelectBoxProps) {
  const input = useRef<HTMLInputElement>(null);
  // The mixed state has no attribute: it is the input's property.
  useLayoutEffect(() => {
    if (input.current) input.current.indeterminate = isIndeterminate;
  }, [isIndeterminate]);
  return (
    <label
      className="data-table-checkbox"
      data-selected={isSelected || undefined}
      data-indeterminate={isIndeterminate || undefined}
      data-disabled={isDisabled || undefined}
      onPointerDown={keepEvent}
      onMouseDown={keepEvent}
      onClick={keepEvent}
      onKeyDown={keepSpace}
      onKeyUp={keepSpace}
    >
      <input
        ref={input}
        type="checkbox"
        aria-label={label}
        checked={isSelected}
        disabled={isDisabled}
        onChange={(event) => onChange?.(event.target.checked)}
      />
      <span className="data-table-checkbox-box" aria-hidden="true">
        {isIndeterminate ? <Minus /> : isSelected ? <Check /> : null}
      </span>
    </label>
  );
}
