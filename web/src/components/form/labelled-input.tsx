import { type ReactNode, useId } from 'react';
import { FieldErrors } from './field-errors';

export interface LabelledInputProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Server-side errors, listed under the field; with them the input says whether it is invalid. */
  errors?: string[];
  type?: 'text' | 'email' | 'search';
  required?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
  placeholder?: string;
  hint?: ReactNode;
  /** The field's class: 'form-field' in dialogs and the staff area, 'plugin-field' in the plugins' editors
   * (or a layout of its own, such as the move dialog's path). */
  className?: string;
}

/** A plain input under its label, with its hint and server-side errors (TextField is react-aria's). */
export function LabelledInput({
  label,
  value,
  onChange,
  errors,
  type = 'text',
  required = false,
  autoFocus = false,
  maxLength,
  placeholder,
  hint,
  className = 'form-field',
}: LabelledInputProps) {
  const id = useId();
  const invalid = (errors?.length ?? 0) > 0;
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        required={required}
        maxLength={maxLength}
        placeholder={placeholder}
        // biome-ignore lint/a11y/noAutofocus: the first field of a dialog the user just opened
        autoFocus={autoFocus}
        aria-invalid={errors ? invalid : undefined}
        aria-describedby={invalid ? `${id}-errors` : hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <p id={`${id}-hint`} className="admin-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </div>
  );
}
