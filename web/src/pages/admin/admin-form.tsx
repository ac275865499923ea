import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldErrors } from '../../components/form/field-errors';
import { showToast } from '../../components/toast/toast';
import { errorMessageOf, formErrorsOf } from '../account/account-api';

export { FormErrorList } from '../../components/form/field-errors';

/** A labelled text input with its server-side errors. */
export function AdminField({
  label,
  value,
  onChange,
  errors,
  type = 'text',
  required = false,
  autoFocus = false,
  hint,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  errors?: string[];
  type?: 'text' | 'email';
  required?: boolean;
  autoFocus?: boolean;
  hint?: ReactNode;
}) {
  const id = useId();
  const invalid = (errors?.length ?? 0) > 0;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        required={required}
        // biome-ignore lint/a11y/noAutofocus: the first field of a dialog the user just opened
        autoFocus={autoFocus}
        aria-invalid={invalid}
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

export function AdminCheckbox({
  label,
  checked,
  onChange,
  errors,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  errors?: string[];
}) {
  const id = useId();
  return (
    <div className="form-field form-field-inline">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </div>
  );
}

/**
 * Runs a call and keeps its refusal for the form: field errors beside their fields, general ones
 * above, anything else as a toast. Resolves true on success.
 */
export function useAdminSubmit() {
  const { t } = useTranslation('admin');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<string[]>([]);

  const submit = async (run: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setFields({});
    setGeneral([]);
    try {
      await run();
      return true;
    } catch (error) {
      const form = formErrorsOf(error);
      if (form) {
        setFields(form.fields);
        setGeneral(form.general);
      } else {
        showToast(errorMessageOf(error) ?? t('failed'), 'error');
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { busy, fields, general, submit };
}
