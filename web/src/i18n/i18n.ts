import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  type Language,
  negotiateLanguage,
} from '@scriptorium/common/i18n/languages';
import i18next, { type Resource, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';

// Every JSON file of every language is bundled, so a new namespace file appears without code changes;
// the server's namespace (mails, sample pages) stays out of the browser's first load.
const localeFiles = import.meta.glob<Record<string, unknown>>(
  ['../../../common/src/i18n/locales/*/*.json', '!../../../common/src/i18n/locales/*/server.json'],
  { eager: true, import: 'default' },
);

/** Namespaces that belong to the browser (the server keeps its own). */
const SERVER_ONLY_NAMESPACES = new Set(['server']);

function buildResources(): { resources: Resource; namespaces: string[] } {
  const resources: Record<string, ResourceLanguage> = {};
  const namespaces = new Set<string>();
  for (const [file, content] of Object.entries(localeFiles)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!match) continue;
    const [, language, namespace] = match;
    if (SERVER_ONLY_NAMESPACES.has(namespace)) continue;
    resources[language] ??= {};
    resources[language][namespace] = content;
    namespaces.add(namespace);
  }
  return { resources, namespaces: [...namespaces].sort() };
}

const { resources, namespaces } = buildResources();

/** The namespaces found in common/src/i18n/locales; `web` is the shell's, `components` the widgets'. */
export const NAMESPACES: readonly string[] = namespaces;

/** The language to start with before the configuration names one: the `language` cookie, else the browser's. */
export function detectLanguage(): Language {
  const cookie = /(?:^|;\s*)language=([^;]*)/.exec(document.cookie)?.[1];
  const fromCookie = cookie ? decodeURIComponent(cookie).toLowerCase() : undefined;
  if (isLanguage(fromCookie)) return fromCookie;
  const browser = navigator.languages?.length ? navigator.languages.join(',') : navigator.language;
  return negotiateLanguage(browser);
}

function setDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

/** Initialises the shared i18next instance (synchronously: all resources are bundled). */
export function initI18n(language: Language = detectLanguage()): typeof i18next {
  if (i18next.isInitialized) {
    void applyLanguage(language);
    return i18next;
  }
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    // Our codes are lower-case ("pt-br"); without this i18next would look for "pt-BR".
    lowerCaseLng: true,
    ns: [...NAMESPACES],
    defaultNS: 'web',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  setDocumentLanguage(language);
  return i18next;
}

/** Switches the interface language (e.g. to configuration.language) and sets <html lang>. */
export async function applyLanguage(language: Language): Promise<void> {
  setDocumentLanguage(language);
  if (i18next.resolvedLanguage !== language) await i18next.changeLanguage(language);
}
