import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import bg from '@scriptorium/common/i18n/locales/bg/ws.json';
import de from '@scriptorium/common/i18n/locales/de/ws.json';
import en from '@scriptorium/common/i18n/locales/en/ws.json';
import es from '@scriptorium/common/i18n/locales/es/ws.json';
import fr from '@scriptorium/common/i18n/locales/fr/ws.json';
import it from '@scriptorium/common/i18n/locales/it/ws.json';
import ptBr from '@scriptorium/common/i18n/locales/pt-br/ws.json';
import i18next from 'i18next';

/** The `ws` namespace on the server side (the system-message command of the CLI). */
const resources = { bg, de, en, es, fr, it, 'pt-br': ptBr } satisfies Record<Language, typeof en>;

const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(Object.entries(resources).map(([lng, ws]) => [lng, { ws }])),
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  lowerCaseLng: true,
  ns: ['ws'],
  defaultNS: 'ws',
  initAsync: false,
  interpolation: { escapeValue: false },
});

export function translateWs(
  language: Language,
): (key: keyof typeof en, values?: Record<string, unknown>) => string {
  const fixed = instance.getFixedT(language, 'ws');
  return (key, values) => String(fixed(key, values ?? {}));
}
