import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import bg from '@scriptorium/common/i18n/locales/bg/server.json';
import de from '@scriptorium/common/i18n/locales/de/server.json';
import en from '@scriptorium/common/i18n/locales/en/server.json';
import es from '@scriptorium/common/i18n/locales/es/server.json';
import fr from '@scriptorium/common/i18n/locales/fr/server.json';
import it from '@scriptorium/common/i18n/locales/it/server.json';
import ptBr from '@scriptorium/common/i18n/locales/pt-br/server.json';
import i18next from 'i18next';

/** Translates a key of the `server` namespace; values fill {{placeholders}} and `count` picks plurals. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

const resources = { bg, de, en, es, fr, it, 'pt-br': ptBr } satisfies Record<Language, typeof en>;

const instance = i18next.createInstance();
// initAsync false: resources are bundled, so init finishes synchronously at import time.
void instance.init({
  resources: Object.fromEntries(Object.entries(resources).map(([lng, server]) => [lng, { server }])),
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  // Our codes are lower-case ('pt-br'); without this i18next would look for 'pt-BR'.
  lowerCaseLng: true,
  ns: ['server'],
  defaultNS: 'server',
  initAsync: false,
  // Answers are JSON and mails are plain text or escaped by their templates, never raw HTML.
  interpolation: { escapeValue: false },
  returnNull: false,
});

const cache = new Map<Language, Translate>();

export function translator(language: Language): Translate {
  let translate = cache.get(language);
  if (!translate) {
    const fixed = instance.getFixedT(language, 'server');
    translate = (key, values) => String(fixed(key, values ?? {}));
    cache.set(language, translate);
  }
  return translate;
}
