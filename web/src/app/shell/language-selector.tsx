import { setLanguageRequest } from '@scriptorium/common/api/base';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../../api/client';
import { showToast } from '../../components/toast/toast';
import { clearCaches } from '../cache/clear-caches';

export const SET_LANGUAGE_URL = '/api/i18n/setlang/';

/**
 * Spec 7: POST the language, clear every cache so no text of the old language survives, reload.
 * `reload` is a parameter so tests can observe it (jsdom cannot reload).
 */
export async function changeLanguage(
  language: Language,
  reload: () => void = () => window.location.reload(),
) {
  await apiPost(SET_LANGUAGE_URL, setLanguageRequest.parse({ language }));
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
