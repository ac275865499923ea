import { BUILTIN_TEMPLATES, type BuiltinTemplate } from '@scriptorium/common/plugins/builtin-templates';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/toast/toast-emitter';
import { createTemplate } from './templates-api';

/**
 * The journal templates Scriptorium ships (issue 53), listed under the user's own: each can be
 * copied into the user's templates to be customised (New document offers them as they are).
 */
export function BuiltinTemplates({ online, onCopied }: { online: boolean; onCopied(): void }) {
  const { t } = useTranslation('templates');
  const id = useId();
  const copy = async (template: BuiltinTemplate) => {
    const title = t(`builtin.names.${template.id}`, { defaultValue: template.title });
    try {
      await createTemplate(title, template.definition);
      showToast(t('builtin.copied', { title }), 'success');
      onCopied();
    } catch {
      showToast(t('copyFailed'), 'error');
    }
  };
  return (
    <section className="plugin-section builtin-templates" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('builtin.heading')}</h2>
      <p className="plugin-muted">{t('builtin.help')}</p>
      <ul>
        {BUILTIN_TEMPLATES.map((template) => {
          const name = t(`builtin.names.${template.id}`, { defaultValue: template.title });
          return (
            <li key={template.id} className="wrap-row" data-template={template.id}>
              <span>{name}</span>
              <button
                type="button"
                className="button"
                disabled={!online}
                aria-label={t('builtin.copyNamed', { name })}
                onClick={() => void copy(template)}
              >
                {t('builtin.copy')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
