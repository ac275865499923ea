import type { HTMLInputTypeAttribute } from 'react';

export interface LabelledInputProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  maxLength?: number;
  type?: HTMLInputTypeAttribute;
  /** The field's class: 'form-field' in dialogs, 'plugin-field' in the plugins' editors. */
  className?: string;
}

/** A plain input under its label, for fields without validation messages (see TextField for those). */
export function LabelledInput({
  id,
  label,
  value,
  onChange,
  maxLength,
  type,
  className = 'form-field',
}: LabelledInputProps) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
