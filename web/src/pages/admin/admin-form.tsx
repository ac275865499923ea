import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldErrors } from '../../components/form/field-errors';
import { showToast } from '../../components/toast/toast';
import { errorMessageOf, formErrorsOf } from '../account/account-api';

export { FormErrorList } from '../../components/form/field-errors';

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
