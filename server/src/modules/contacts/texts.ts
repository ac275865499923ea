import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import bg from '@scriptorium/common/i18n/locales/bg/contacts.json';
import de from '@scriptorium/common/i18n/locales/de/contacts.json';
import en from '@scriptorium/common/i18n/locales/en/contacts.json';
import es from '@scriptorium/common/i18n/locales/es/contacts.json';
import fr from '@scriptorium/common/i18n/locales/fr/contacts.json';
import it from '@scriptorium/common/i18n/locales/it/contacts.json';
import ptBr from '@scriptorium/common/i18n/locales/pt-br/contacts.json';
import i18next from 'i18next';
import type { Translate } from '../../i18n/translate';

const resources = { bg, de, en, es, fr, it, 'pt-br': ptBr } satisfies Record<Language, typeof en>;

// The server's own translator only knows the `server` namespace; mails and the invite error
// texts live with the rest of the contacts texts so that browser and server share one source.
const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(Object.entries(resources).map(([lng, contacts]) => [lng, { contacts }])),
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  lowerCaseLng: true,
  ns: ['contacts'],
  defaultNS: 'contacts',
  initAsync: false,
  // Mails are plain text and answers JSON: nothing is inserted into HTML.
  interpolation: { escapeValue: false },
  returnNull: false,
});

const cache = new Map<Language, Translate>();

/** Translates a key of the `contacts` namespace into `language`. */
export function contactsTranslator(language: Language): Translate {
  let translate = cache.get(language);
  if (!translate) {
    const fixed = instance.getFixedT(language, 'contacts');
    translate = (key, values) => String(fixed(key, values ?? {}));
    cache.set(language, translate);
  }
  return translate;
}

/** A user's saved language, else the default: mails go out in the recipient's language. */
export function languageOf(user: { language: string | null }): Language {
  return isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE;
}
