import { type HTMLInputTypeAttribute, type Ref, useId } from 'react';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** The field's errors, listed under it, announced, and named by the input's aria-describedby. */
  errors?: readonly string[];
  type?: HTMLInputTypeAttribute;
  name?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A labelled text input with its errors. Validation is the form's own: the field shows
 * aria-invalid and the messages it is given, never the browser's bubbles. Plain elements, not
 * react-aria's TextField: a native input needs none of its behaviour, and the login page, made of
 * such fields, then loads no react-aria field code (with its autocomplete strings of 34 locales).
 */
export function TextField({
  label,
  value,
  onChange,
  errors = [],
  type = 'text',
  name,
  autoComplete,
  autoFocus,
  placeholder,
  inputRef,
}: TextFieldProps) {
  const id = useId();
  const errorsId = `${id}-errors`;
  const invalid = errors.length > 0;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        type={type}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        // biome-ignore lint/a11y/noAutofocus: the callers ask for it where the page is the form (login, dialogs).
        autoFocus={autoFocus}
        placeholder={placeholder}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorsId : undefined}
      />
      {invalid && (
        <ul id={errorsId} className="field-errors" role="alert">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A TextField for an e-mail address: the e-mail keyboard and the browser's address autofill. */
export function EmailField(props: Omit<TextFieldProps, 'type' | 'autoComplete'>) {
  return <TextField {...props} type="email" autoComplete="email" />;
}
