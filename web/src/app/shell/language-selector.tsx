import { i18nApi } from '@scriptorium/common/api/endpoints/base';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { showToast } from '../../components/toast/toast';
import { clearCaches } from '../cache/clear-caches';

/**
 * Spec 7: POST the language, clear every cache so no text of the old language survives, reload.
 * `reload` is a parameter so tests can observe it (jsdom cannot reload).
 */
export async function changeLanguage(
  language: Language,
  reload: () => void = () => window.location.reload(),
) {
  await call(i18nApi.setLanguage, { language });
  await clearCaches();
  reload();
}

export function LanguageSelector({ reload }: { reload?: () => void }) {
  const { t, i18n } = useTranslation('web');
  const id = useId();
  const [busy, setBusy] = useState(false);
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';

  async function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const language = event.target.value;
    if (!isLanguage(language) || language === current) return;
    setBusy(true);
    try {
      await changeLanguage(language, reload);
    } catch {
      showToast(t('language.failed'), 'error');
      setBusy(false);
    }
  }

  return (
    <div className="language-selector">
      <label htmlFor={id}>{t('language.label')}</label>
      <select id={id} value={current} onChange={onChange} disabled={busy}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
