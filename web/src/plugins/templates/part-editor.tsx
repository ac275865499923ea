import { BODY_ELEMENTS, FORMAT_MARKS } from '@scriptorium/common/editor/vocabulary';
import type { TemplatePartDefinition } from '@scriptorium/common/plugins/templates-api';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckList } from '../../components/form/check-list';

export interface PartEditorProps {
  part: TemplatePartDefinition;
  readOnly: boolean;
  onChange(part: TemplatePartDefinition): void;
  onRemove(): void;
}

function toggle<T>(list: readonly T[], value: T, on: boolean, order: readonly T[]): T[] {
  const set = new Set(list);
  if (on) set.add(value);
  else set.delete(value);
  return order.filter((item) => set.has(item));
}

/** One part of a template: its summary line and, folded out, everything it allows. */
export function PartEditor({ part, readOnly, onChange, onRemove }: PartEditorProps) {
  const { t } = useTranslation('templates');
  const id = useId();
  const rich = part.kind === 'richtext_part';
  const takesText = rich || part.kind === 'heading_part';
  const set = (change: Partial<TemplatePartDefinition>) => onChange({ ...part, ...change });
  /** A text the part offers its writer: the help, or the initial content. */
  const textArea = (name: 'help' | 'initial', maxLength: number) => (
    <div className="plugin-field">
      <label htmlFor={`${id}-${name}`}>{t(`part.${name}`)}</label>
      <textarea
        id={`${id}-${name}`}
        value={part[name]}
        maxLength={maxLength}
        rows={2}
        onChange={(event) => set({ [name]: event.target.value })}
      />
    </div>
  );
  /** What the part allows of a kind (block elements, marks), kept in the order of `values`. */
  const allowed = <Value extends string>(
    name: 'elements' | 'marks',
    values: readonly Value[],
    checked: readonly Value[],
    change: (next: Value[]) => void,
  ) => (
    <CheckList
      className="plugin-checks"
      legend={t(`part.${name}`)}
      values={values}
      checked={checked}
      onChange={(value, on) => change(toggle(checked, value, on, values))}
      label={(value) => t(`${name}.${value}`)}
    />
  );
  return (
    <details className="template-part">
      <summary className="plugin-part-summary">
        <strong>{part.title}</strong>
        <span className="plugin-muted">{t(`kinds.${part.kind}`)}</span>
        {part.optional ? <span className="plugin-muted">{t('part.optional')}</span> : null}
        {part.hidden ? <span className="plugin-muted">{t('part.hidden')}</span> : null}
      </summary>
      <fieldset className="plugin-section" disabled={readOnly}>
        <div className="plugin-fields">
          <div className="plugin-field">
            <label htmlFor={`${id}-title`}>{t('part.title')}</label>
            <input
              id={`${id}-title`}
              value={part.title}
              maxLength={255}
              onChange={(event) => set({ title: event.target.value })}
            />
          </div>
          <div className="plugin-field">
            <span>{t('part.id')}</span>
            <code>{part.id}</code>
          </div>
        </div>
        <div className="wrap-row">
          <label>
            <input
              type="checkbox"
              checked={part.optional}
              onChange={(event) =>
                set({ optional: event.target.checked, hidden: event.target.checked && part.hidden })
              }
            />{' '}
            {t('part.optionalLabel')}
          </label>
          <label>
            <input
              type="checkbox"
              checked={part.hidden}
              disabled={!part.optional}
              onChange={(event) => set({ hidden: event.target.checked })}
            />{' '}
            {t('part.hiddenLabel')}
          </label>
        </div>
        {textArea('help', 2000)}
        {takesText ? textArea('initial', 10000) : null}
        {rich ? allowed('elements', BODY_ELEMENTS, part.elements, (elements) => set({ elements })) : null}
        {takesText ? allowed('marks', FORMAT_MARKS, part.marks, (marks) => set({ marks })) : null}
        <div>
          <button type="button" className="button button-danger" onClick={onRemove}>
            {t('part.remove', { name: part.title })}
          </button>
        </div>
      </fieldset>
    </details>
  );
}
