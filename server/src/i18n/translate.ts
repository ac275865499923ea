import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@scriptorium/common/i18n/languages';
import i18next from 'i18next';

/** Translates a key of one namespace; values fill {{placeholders}} and `count` picks plurals. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * The locale namespaces (common/src/i18n/locales/<lang>/<namespace>.json) whose texts the server
 * itself writes: answers and CLI output (server), mails and invite errors (contacts), the
 * system-message command (ws), upload refusals (usermedia, under its `server` key), the staff
 * area's refusals and mails (admin: loaded with the admin routes, used as 'admin:<key>'), the
 * overview's heading painted into the app shell (documents).
 */
export type ServerNamespace = 'server' | 'contacts' | 'ws' | 'usermedia' | 'admin' | 'import' | 'documents';

const require = createRequire(import.meta.url);

const instance = i18next.createInstance();
// initAsync false and no resources yet: each namespace of a language is read from its file the
// first time it is asked for, synchronously, so a translator works the moment it is made.
void instance.init({
  resources: {},
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  // Our codes are lower-case ('pt-br'); without this i18next would look for 'pt-BR'.
  lowerCaseLng: true,
  ns: [],
  initAsync: false,
  // Answers are JSON and mails are plain text or escaped by their templates, never raw HTML.
  interpolation: { escapeValue: false },
  returnNull: false,
});

function ensureLoaded(namespace: ServerNamespace, language: Language): void {
  if (instance.hasResourceBundle(language, namespace)) return;
  const file = require.resolve(`@scriptorium/common/i18n/locales/${language}/${namespace}.json`);
  instance.addResourceBundle(language, namespace, JSON.parse(readFileSync(file, 'utf8')));
}

const cache = new Map<string, Translate>();

/** The one server translator: keys of `namespace` in `language` (English where a key is missing). */
export function translator(namespace: ServerNamespace, language: Language): Translate {
  const id = `${namespace}:${language}`;
  let translate = cache.get(id);
  if (!translate) {
    ensureLoaded(namespace, language);
    ensureLoaded(namespace, DEFAULT_LANGUAGE);
    const fixed = instance.getFixedT(language, namespace);
    translate = (key, values) => String(fixed(key, values ?? {}));
    cache.set(id, translate);
  }
  return translate;
}

/** A user's saved language, else the default: mails go out in the recipient's language. */
export function mailLanguage(user: { language: string | null }): Language {
  return isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE;
}
