import type { HTMLInputTypeAttribute, Ref } from 'react';
import { TextField as AriaTextField, Input, Label, Text } from 'react-aria-components';

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
 * A labelled text input with its errors (react-aria's TextField). Validation is the form's own:
 * the field shows aria-invalid and the messages it is given, never the browser's bubbles.
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
  const invalid = errors.length > 0;
  return (
    <AriaTextField
      className="form-field"
      value={value}
      onChange={onChange}
      isInvalid={invalid}
      validationBehavior="aria"
      type={type}
      name={name}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
    >
      <Label>{label}</Label>
      <Input ref={inputRef} placeholder={placeholder} />
      {invalid && (
        <Text slot="errorMessage" elementType="ul" className="field-errors" role="alert">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </Text>
      )}
    </AriaTextField>
  );
}

/** A TextField for an e-mail address: the e-mail keyboard and the browser's address autofill. */
export function EmailField(props: Omit<TextFieldProps, 'type' | 'autoComplete'>) {
  return <TextField {...props} type="email" autoComplete="email" />;
}
