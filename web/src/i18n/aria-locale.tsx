import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { useTranslation } from 'react-i18next';

/** react-aria's own texts ("Dismiss", "Select all", ...) come in full locales: our languages map onto them. */
const ARIA_LOCALES: Record<string, string> = {
  bg: 'bg-BG',
  de: 'de-DE',
  en: 'en-US',
  es: 'es-ES',
  fr: 'fr-FR',
  it: 'it-IT',
  'pt-br': 'pt-BR',
};

export function ariaLocale(language: string | undefined): string {
  return ARIA_LOCALES[language ?? 'en'] ?? 'en-US';
}

/** Gives react-aria the app's language, so its built-in texts follow the user's language. */
export function AriaLocaleProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={ariaLocale(i18n.resolvedLanguage)}>{children}</I18nProvider>;
}
