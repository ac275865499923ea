import { i18nApi } from '@scriptorium/common/api/endpoints/base';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { clearCaches } from '../../app/cache/clear-caches';
import { DeferredSelect } from '../../components/form/deferred-select';
import { showToast } from '../../components/toast/toast';

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
  const [busy, setBusy] = useState(false);
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';

  async function onChange(language: string) {
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
    <DeferredSelect
      className="language-selector"
      inline
      label={t('language.label')}
      value={current}
      disabled={busy}
      options={LANGUAGES.map((language) => ({
        value: language,
        label: LANGUAGE_NAMES[language],
        lang: language,
      }))}
      onChange={(language) => void onChange(language)}
    />
  );
}
