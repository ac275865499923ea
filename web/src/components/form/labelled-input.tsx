import { type HTMLInputTypeAttribute, type ReactNode, type Ref, useId } from 'react';
import { FieldErrors } from './field-errors';

export interface LabelledInputProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Server-side errors, listed under the field; with them the input says whether it is invalid. */
  errors?: readonly string[];
  type?: HTMLInputTypeAttribute;
  name?: string;
  autoComplete?: string;
  inputRef?: Ref<HTMLInputElement>;
  required?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
  placeholder?: string;
  hint?: ReactNode;
  /** The field's class: 'form-field' in dialogs and the staff area, 'plugin-field' in the plugins' editors
   * (or a layout of its own, such as the move dialog's path). */
  className?: string;
}

/**
 * A native input under its label, with its hint and server-side errors (named by its
 * aria-describedby). TextField is this with the login forms' props.
 */
export function LabelledInput({
  label,
  value,
  onChange,
  errors,
  type = 'text',
  name,
  autoComplete,
  inputRef,
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
        ref={inputRef}
        type={type}
        name={name}
        autoComplete={autoComplete}
        value={value}
        required={required}
        maxLength={maxLength}
        placeholder={placeholder}
        // biome-ignore lint/a11y/noAutofocus: the first field of a dialog the user just opened, or of a login form
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
