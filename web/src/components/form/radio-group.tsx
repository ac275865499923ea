import type { ReactNode } from 'react';
import { Radio as AriaRadio, RadioGroup as AriaRadioGroup, Label } from 'react-aria-components';
import './radio-group.css';

export interface RadioOption<Value extends string> {
  value: Value;
  label: ReactNode;
  disabled?: boolean;
}

export interface RadioGroupProps<Value extends string> {
  label: string;
  value: Value | null;
  options: readonly RadioOption<NoInfer<Value>>[];
  onChange(value: NoInfer<Value>): void;
  /** The label is read, not shown. */
  hideLabel?: boolean;
  name?: string;
  className?: string;
}

/**
 * One choice among a few, all in view (react-aria's RadioGroup): arrow keys move the choice, Tab
 * leaves the group; each radio is a large touch target with a drawn circle.
 */
export function RadioGroup<Value extends string>({
  label,
  value,
  options,
  onChange,
  hideLabel = false,
  name,
  className,
}: RadioGroupProps<Value>) {
  return (
    <AriaRadioGroup
      className={`radio-group${className ? ` ${className}` : ''}`}
      value={value}
      onChange={(next) => onChange(next as Value)}
      name={name}
      aria-label={hideLabel ? label : undefined}
    >
      {hideLabel ? null : <Label className="radio-group-label">{label}</Label>}
      {options.map((option) => (
        <Radio key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </Radio>
      ))}
    </AriaRadioGroup>
  );
}

/** One radio of a RadioGroup; usable alone inside one (e.g. a radio per table row). */
export function Radio({
  value,
  disabled,
  label,
  children,
}: {
  value: string;
  disabled?: boolean;
  /** The radio's name when it shows no text (aria-label). */
  label?: string;
  children?: ReactNode;
}) {
  return (
    <AriaRadio className="radio" value={value} isDisabled={disabled} aria-label={label}>
      <span className="radio-mark" aria-hidden="true" />
      {children}
    </AriaRadio>
  );
}

export { AriaRadioGroup as RadioGroupFrame };
