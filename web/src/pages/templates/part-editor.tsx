import { BODY_ELEMENTS, FORMAT_MARKS } from '@scriptorium/common/editor/schema';
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
        <div className="plugin-field">
          <label htmlFor={`${id}-help`}>{t('part.help')}</label>
          <textarea
            id={`${id}-help`}
            value={part.help}
            maxLength={2000}
            rows={2}
            onChange={(event) => set({ help: event.target.value })}
          />
        </div>
        {takesText ? (
          <div className="plugin-field">
            <label htmlFor={`${id}-initial`}>{t('part.initial')}</label>
            <textarea
              id={`${id}-initial`}
              value={part.initial}
              maxLength={10000}
              rows={2}
              onChange={(event) => set({ initial: event.target.value })}
            />
          </div>
        ) : null}
        {rich ? (
          <CheckList
            className="plugin-checks"
            legend={t('part.elements')}
            values={BODY_ELEMENTS}
            checked={part.elements}
            onChange={(element, on) => set({ elements: toggle(part.elements, element, on, BODY_ELEMENTS) })}
            label={(element) => t(`elements.${element}`)}
          />
        ) : null}
        {takesText ? (
          <CheckList
            className="plugin-checks"
            legend={t('part.marks')}
            values={FORMAT_MARKS}
            checked={part.marks}
            onChange={(mark, on) => set({ marks: toggle(part.marks, mark, on, FORMAT_MARKS) })}
            label={(mark) => t(`marks.${mark}`)}
          />
        ) : null}
        <div>
          <button type="button" className="button button-danger" onClick={onRemove}>
            {t('part.remove', { name: part.title })}
          </button>
        </div>
      </fieldset>
    </details>
  );
}
