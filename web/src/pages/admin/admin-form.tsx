import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldErrors } from '../../components/form/field-errors';
import { Select } from '../../components/form/select';
import { showToast } from '../../components/toast/toast';
import { errorMessageOf, formErrorsOf } from '../account/account-api';

export { FormErrorList } from '../../components/form/field-errors';

/** A paged list's filter and page: choosing another filter starts again at page 1. */
export function useFilteredPages<Filter extends string>(initial: Filter) {
  const [filter, setFilter] = useState<Filter>(initial);
  const [page, setPage] = useState(1);
  const chooseFilter = (next: Filter) => {
    setFilter(next);
    setPage(1);
  };
  return { filter, chooseFilter, page, setPage };
}

/** The toolbar's filter of a list (texts <list>.filter and <list>.filters.<name>). */
export function AdminFilter<Filter extends string>({
  list,
  filters,
  value,
  onChange,
}: {
  list: 'users' | 'feedback';
  filters: readonly Filter[];
  value: Filter;
  onChange(next: Filter): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Select
      className="admin-toolbar-field"
      label={t(`${list}.filter`)}
      value={value}
      options={filters.map((name) => ({ value: name, label: t(`${list}.filters.${name}`) }))}
      onChange={onChange}
    />
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
