import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_LOCALES } from '@scriptorium/common/i18n/languages';
import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { useTranslation } from 'react-i18next';

/** react-aria's own texts ("Dismiss", "Select all", ...) come in full locales: our languages map onto them. */
export function ariaLocale(language: string | undefined): string {
  const chosen = language ?? DEFAULT_LANGUAGE;
  return isLanguage(chosen) ? LANGUAGE_LOCALES[chosen] : LANGUAGE_LOCALES[DEFAULT_LANGUAGE];
}

/** Gives react-aria the app's language, so its built-in texts follow the user's language. */
export function AriaLocaleProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={ariaLocale(i18n.resolvedLanguage)}>{children}</I18nProvider>;
}
