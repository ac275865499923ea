import { LabelledInput, type LabelledInputProps } from './labelled-input';

export type TextFieldProps = Omit<LabelledInputProps, 'className' | 'hint' | 'required' | 'maxLength'>;

/**
 * A labelled text input with its errors, as the account forms use it. Validation is the form's
 * own: the field shows aria-invalid and the messages it is given, never the browser's bubbles.
 * A native input (LabelledInput), not react-aria's TextField: it needs none of its behaviour, and
 * the login page, made of such fields, then loads no react-aria field code.
 */
export function TextField(props: TextFieldProps) {
  return <LabelledInput {...props} />;
}

/** A TextField for an e-mail address: the e-mail keyboard and the browser's address autofill. */
export function EmailField(props: Omit<TextFieldProps, 'type' | 'autoComplete'>) {
  return <TextField {...props} type="email" autoComplete="email" />;
}
