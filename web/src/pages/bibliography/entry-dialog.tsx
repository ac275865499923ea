import { safeEntryKey } from '@scriptorium/common/bibliography/entry-key';
import type { BibLabels } from '@scriptorium/common/bibliography/labels';
import type {
  BibCategory,
  BibEntry,
  EntryData,
  FieldValue,
  RichText,
} from '@scriptorium/common/bibliography/types';
import {
  checkFieldValue,
  fieldOptions,
  fieldTypeOf,
  isEmptyValue,
  missingRequired,
} from '@scriptorium/common/bibliography/validate';
import { BibTypes } from 'biblatex-csl-converter';
import { Minus } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CategoryChecks } from '../../components/categories-dialog/category-checks';
import { Dialog } from '../../components/dialog/dialog';
import { Form } from '../../components/form/form';
import { MultiSelect, Select } from '../../components/form/select';
import { RichTextField } from '../../components/rich-text-field/rich-text-field';
import { describeEdtf } from './edtf-description';
import { emptyName, type FormValue, fromForm, isRichTextType, type NameForm, toForm } from './entry-form';
import { useBibLabels } from './use-bib-labels';

export interface EntryDialogProps {
  /** null: a new entry. */
  entry: BibEntry | null;
  categories: BibCategory[];
  onClose(): void;
  /** Saves; resolves when done, rejects (with the dialog kept open) on failure. */
  onSave(data: EntryData, id: number | null): Promise<void>;
}

// The model requires a language for every type; a new entry starts in the interface language.
const LANGID_OF_LANGUAGE: Record<string, string> = {
  bg: 'bulgarian',
  de: 'german',
  en: 'usenglish',
  es: 'spanish',
  fr: 'french',
  it: 'italian',
  'pt-br': 'brportuguese',
};

/** The types in the converter's order (article first), as a reference manager lists them. */
export const TYPE_IDS = Object.keys(BibTypes).sort((a, b) => BibTypes[a].order - BibTypes[b].order);

function fieldsOf(type: string): { required: string[]; eitheror: string[]; optional: string[] } {
  const bibType = BibTypes[type];
  return { required: bibType.required, eitheror: bibType.eitheror, optional: bibType.optional };
}

/** Register or edit one source: its type, key, categories and every field of the type. */
export function EntryDialog({ entry, categories, onClose, onSave }: EntryDialogProps) {
  const { t, i18n } = useTranslation('bibliography');
  const labels = useBibLabels();
  const formId = useId();
  const [bibType, setBibType] = useState(entry?.bib_type ?? 'article');
  const [entryKey, setEntryKey] = useState(entry?.entry_key ?? '');
  const [cats, setCats] = useState<number[]>(entry?.cats ?? []);
  const [form, setForm] = useState<Record<string, FormValue>>(() => {
    const values: Record<string, FormValue> = Object.fromEntries(
      Object.entries(entry?.fields ?? {}).map(([name, value]) => [name, toForm(name, value)]),
    );
    // An existing entry without one (most imports) keeps none: guessing would mark an English
    // paper as French for a French user, and styles case titles by the entry's language.
    if (!entry) values.langid ??= LANGID_OF_LANGUAGE[i18n.language] ?? 'usenglish';
    return values;
  });
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);

  const groups = fieldsOf(bibType);
  const fields = useMemo(() => {
    const values: Record<string, FieldValue> = {};
    for (const [name, value] of Object.entries(form)) {
      const stored = fromForm(name, value, entry?.fields[name]);
      if (stored !== undefined) values[name] = stored;
    }
    return values;
  }, [form, entry]);

  // Fields of the entry that the chosen type does not list are kept (and shown) rather than lost.
  const listed = new Set([...groups.required, ...groups.eitheror, ...groups.optional]);
  const extra = Object.keys(form).filter((name) => !listed.has(name) && fieldTypeOf(name) !== null);

  const found = missingRequired({ bib_type: bibType, fields });
  // Saving such an entry must not force a guess either (see the form's initial state).
  const langidOptional = entry !== null && entry.fields.langid === undefined;
  const missing = {
    ...found,
    required: found.required.filter((name) => !(langidOptional && name === 'langid')),
  };
  const invalid = new Map<string, string>();
  for (const [name, value] of Object.entries(fields)) {
    const problem = checkFieldValue(name, value);
    if (problem) invalid.set(name, problem);
  }
  const keyMissing = entryKey.trim() === '';
  const hasErrors = keyMissing || missing.required.length > 0 || missing.eitheror || invalid.size > 0;

  const save = async () => {
    setShowErrors(true);
    if (hasErrors) return;
    setBusy(true);
    try {
      await onSave(
        { entry_key: safeEntryKey(entryKey.trim()), bib_type: bibType, fields, cats },
        entry?.id ?? null,
      );
      onClose();
    } catch {
      setBusy(false);
    }
  };

  const setField = (name: string, value: FormValue) => setForm((current) => ({ ...current, [name]: value }));

  const renderField = (name: string, group: 'required' | 'eitheror' | 'optional' | 'extra') => {
    const problem = invalid.get(name);
    const isMissing =
      (group === 'required' && missing.required.includes(name)) || (group === 'eitheror' && missing.eitheror);
    const error = problem
      ? t(`problem.${problem}`)
      : isMissing
        ? t(group === 'eitheror' ? 'eitherorMissing' : 'required')
        : null;
    return (
      <FieldEditor
        key={name}
        name={name}
        label={t(`field.${name}`, { defaultValue: labels.field(bibType, name) })}
        required={group === 'required' && !(langidOptional && name === 'langid')}
        labels={labels}
        value={form[name] ?? toForm(name, undefined)}
        onChange={(value) => setField(name, value)}
        error={showErrors || (problem && !isEmptyValue(fields[name])) ? error : null}
      />
    );
  };

  return (
    <Dialog
      title={entry ? t('editSource') : t('newSource')}
      onClose={onClose}
      width={760}
      buttons={
        <>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {t('submit')}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </>
      }
    >
      <Form id={formId} className="bib-entry-form" noValidate onSubmit={save}>
        {showErrors && hasErrors ? (
          <p className="bib-form-error" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
        <div className="bib-form-row">
          <Select
            label={t('sourceType')}
            value={bibType}
            options={TYPE_IDS.map((id) => ({
              value: id,
              label: t(`type.${id}`, { defaultValue: labels.type(id) }),
            }))}
            onChange={setBibType}
          />
        </div>
        <div className="bib-form-row">
          <label htmlFor={`${formId}-key`}>{t('entryKey')}</label>
          <input
            id={`${formId}-key`}
            type="text"
            value={entryKey}
            maxLength={200}
            aria-invalid={showErrors && keyMissing}
            onChange={(event) => setEntryKey(event.target.value)}
          />
          {showErrors && keyMissing ? <span className="bib-field-error">{t('required')}</span> : null}
        </div>
        <fieldset className="bib-group">
          <legend>{t('requiredFields')}</legend>
          {groups.required.map((name) => renderField(name, 'required'))}
        </fieldset>
        {groups.eitheror.length > 0 ? (
          <fieldset className="bib-group">
            <legend>{t('eitherorFields')}</legend>
            {groups.eitheror.map((name) => renderField(name, 'eitheror'))}
          </fieldset>
        ) : null}
        <details className="bib-group" open={groups.optional.some((name) => name in form) || undefined}>
          <summary>{t('optionalFields')}</summary>
          {groups.optional.map((name) => renderField(name, 'optional'))}
          {extra.map((name) => renderField(name, 'extra'))}
        </details>
        {categories.length > 0 ? (
          <CategoryChecks
            legend={t('categories')}
            categories={categories}
            checked={cats}
            onChange={setCats}
            className={{ fieldset: 'bib-group bib-cats', label: 'bib-check' }}
          />
        ) : null}
      </Form>
    </Dialog>
  );
}

interface FieldEditorProps {
  name: string;
  label: string;
  required: boolean;
  labels: BibLabels;
  value: FormValue;
  onChange(value: FormValue): void;
  error: string | null;
}

/** One field, with the editor its type needs. */
function FieldEditor({ name, label, required, labels, value, onChange, error }: FieldEditorProps) {
  const { t, i18n } = useTranslation('bibliography');
  const id = useId();
  const type = fieldTypeOf(name);
  // Choices in the user's language, in the order of their names (langid lists some 80 languages).
  const options = useMemo(() => {
    const collator = new Intl.Collator(i18n.language);
    return fieldOptions(name)
      ?.map((option) => ({ option, title: labels.option(name, option) }))
      .sort((a, b) => collator.compare(a.title, b.title));
  }, [name, labels, i18n.language]);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  // A date in words ("November 1997") under its EDTF value, so a typo shows before saving.
  const dateInWords =
    type === 'f_date' && !error && typeof value === 'string' && value.trim() !== ''
      ? describeEdtf(value, i18n.language, {
          approximate: (date) => t('dateApproximate', { date }),
          uncertain: (date) => t('dateUncertain', { date }),
        })
      : null;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : dateInWords ? hintId : undefined,
    'aria-required': required || undefined,
  };

  const labelId = `${id}-label`;
  const rich = isRichTextType(type);
  // A choice (Select) carries its own label: one grid cell for the label, one for the button.
  const choice = {
    label: `${label}${required ? ' *' : ''}`,
    describedBy: common['aria-describedby'],
    invalid: Boolean(error),
    required,
  };
  const chosen = (type === 'l_key' || type === 'f_key') && options !== undefined;

  let editor: React.ReactNode;
  if (type === 'l_literal') {
    editor = (
      <RichTextField
        {...common}
        list
        aria-labelledby={labelId}
        value={value as RichText[]}
        onChange={onChange}
      />
    );
  } else if (rich) {
    editor = (
      <RichTextField
        {...common}
        aria-labelledby={labelId}
        long={type === 'f_long_literal'}
        value={value as RichText}
        onChange={onChange}
      />
    );
  } else if (type === 'l_name') {
    editor = <NameListEditor label={label} names={value as NameForm[]} onChange={onChange} />;
  } else if (type === 'l_key' && options) {
    editor = (
      <MultiSelect
        {...choice}
        value={value as string[]}
        options={options.map(({ option, title }) => ({ value: option, label: title }))}
        placeholder={t('noChoice')}
        onChange={onChange}
      />
    );
  } else if (type === 'f_key' && options) {
    editor = (
      <Select
        {...choice}
        value={value as string}
        options={[
          { value: '', label: t('noChoice') },
          ...options.map(({ option, title }) => ({ value: option, label: title })),
        ]}
        onChange={onChange}
      />
    );
  } else {
    const placeholders: Partial<Record<string, string>> = {
      f_date: t('datePlaceholder'),
      l_range: t('rangePlaceholder'),
      l_tag: t('tagsPlaceholder'),
      f_uri: 'https://',
    };
    editor = (
      <input
        {...common}
        type={type === 'f_uri' ? 'url' : 'text'}
        value={value as string}
        placeholder={type ? placeholders[type] : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <div className={`bib-form-row bib-field-${type ?? 'unknown'}`} data-field={name}>
      {chosen ? null : type === 'l_name' ? (
        <span className="bib-label">
          {label}
          {required ? ' *' : ''}
        </span>
      ) : rich ? (
        // The editor is no form control, so the label names it through aria-labelledby and
        // focuses it on click as a label would.
        // biome-ignore lint/a11y/noLabelWithoutControl: associated by aria-labelledby on the editor
        // biome-ignore lint/a11y/useKeyWithClickEvents: the editor itself is reachable with Tab
        <label id={labelId} onClick={() => document.getElementById(id)?.focus()}>
          {label}
          {required ? ' *' : ''}
        </label>
      ) : (
        <label htmlFor={id}>
          {label}
          {required ? ' *' : ''}
        </label>
      )}
      {editor}
      {error ? (
        <span id={errorId} className="bib-field-error">
          {error}
        </span>
      ) : null}
      {dateInWords ? (
        <span id={hintId} className="bib-field-hint">
          {dateInWords}
        </span>
      ) : null}
    </div>
  );
}

function NameListEditor({
  label,
  names,
  onChange,
}: {
  label: string;
  names: NameForm[];
  onChange(v: NameForm[]): void;
}) {
  const { t } = useTranslation('bibliography');
  const rows = names.length > 0 ? names : [emptyName()];
  const update = (index: number, patch: Partial<NameForm>) =>
    onChange(rows.map((name, i) => (i === index ? { ...name, ...patch } : name)));
  return (
    <fieldset className="form-field bare-fieldset" aria-label={label}>
      {rows.map((name, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: names are edited in place, their order is their identity
        <div className="bib-name" key={index}>
          <Select<NameForm['kind']>
            className="bib-name-kind"
            label={t('nameKind', { index: index + 1 })}
            hideLabel
            value={name.kind}
            options={[
              { value: 'person', label: t('person') },
              { value: 'organisation', label: t('organisation') },
            ]}
            onChange={(kind) => update(index, { kind })}
          />
          {name.kind === 'organisation' ? (
            <input
              type="text"
              aria-label={t('organisationName', { index: index + 1 })}
              placeholder={t('organisationName', { index: index + 1 })}
              value={name.literal}
              onChange={(event) => update(index, { literal: event.target.value })}
            />
          ) : (
            (['prefix', 'given', 'family', 'suffix'] as const).map((part) => (
              <input
                key={part}
                type="text"
                className={`bib-name-${part}`}
                aria-label={t(`namePart.${part}`, { index: index + 1 })}
                placeholder={t(`namePart.${part}`, { index: index + 1 })}
                value={name[part]}
                onChange={(event) => update(index, { [part]: event.target.value })}
              />
            ))
          )}
          <button
            type="button"
            className="icon-button"
            aria-label={t('removeName', { index: index + 1 })}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <Minus aria-hidden="true" />
          </button>
        </div>
      ))}
      <button type="button" className="button bib-add-name" onClick={() => onChange([...rows, emptyName()])}>
        {t('addName')}
      </button>
    </fieldset>
  );
}
