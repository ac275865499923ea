import type { ReactNode } from 'react';

export interface CheckListProps<Value extends string> {
  legend: string;
  /** The values offered, in the order shown. */
  values: readonly Value[];
  checked: readonly Value[];
  /** A box was ticked (on) or cleared. */
  onChange(value: Value, on: boolean): void;
  /** The text beside a value's box. */
  label(value: Value): ReactNode;
  className?: string;
  disabled?: boolean;
}

/** A fieldset of checkboxes (class "check-fieldset"), one for each value, each inside its label. */
export function CheckList<Value extends string>({
  legend,
  values,
  checked,
  onChange,
  label,
  className,
  disabled,
}: CheckListProps<Value>) {
  return (
    <fieldset className={className ? `check-fieldset ${className}` : 'check-fieldset'} disabled={disabled}>
      <legend>{legend}</legend>
      {values.map((value) => (
        <label key={value}>
          <input
            type="checkbox"
            checked={checked.includes(value)}
            onChange={(event) => onChange(value, event.target.checked)}
          />
          {label(value)}
        </label>
      ))}
    </fieldset>
  );
}
