import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  type Language,
  negotiateLanguage,
} from '@scriptorium/common/i18n/languages';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

// One loader per JSON file of every language, each its own small chunk: a page fetches the files
// of its own language (and English, the fallback), not all seven. A new namespace file appears
// without code changes.
const localeFiles = import.meta.glob<Record<string, unknown>>('./*/*.json', {
  base: '../../../common/src/i18n/locales',
  import: 'default',
});

/** Namespaces that belong to the server alone. */
const SERVER_ONLY_NAMESPACES = new Set(['server']);

interface LocaleFile {
  language: string;
  namespace: string;
  load: () => Promise<Record<string, unknown>>;
}

const files: LocaleFile[] = Object.entries(localeFiles).flatMap(([file, load]) => {
  const match = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(file);
  if (!match || SERVER_ONLY_NAMESPACES.has(match[2])) return [];
  return [{ language: match[1], namespace: match[2], load }];
});

/** The namespaces found in common/src/i18n/locales; `web` is the shell's, `components` the widgets'. */
export const NAMESPACES: readonly string[] = [...new Set(files.map((file) => file.namespace))].sort();

/**
 * The namespaces a visitor's screens use (login, sign-up, password reset, e-mail confirmation,
 * invitation, flat pages, the pre-login shell): a visitor's first page loads only these. The
 * logged-in shell loads all of them first (loadAllNamespaces).
 */
export const VISITOR_NAMESPACES: readonly string[] = ['accounts', 'components', 'contacts', 'web'];

/** The namespaces every language that is used needs now: the visitor's, or all once logged in. */
let wanted: readonly string[] = NAMESPACES;
/** The interface language, set before its texts load (loadAllNamespaces loads for it). */
let current: Language = DEFAULT_LANGUAGE;

const loading = new Map<string, Promise<void>>();

/** Adds one namespace of one language to i18next, once; later calls share the first load. */
function loadOne(file: LocaleFile): Promise<void> {
  const key = `${file.language}/${file.namespace}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = file.load().then((texts) => {
      i18next.addResourceBundle(file.language, file.namespace, texts, true, true);
    });
    // A failed load (offline) may be tried again by the next call.
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** Loads a language's wanted locale files and the fallback's, so that no key shows untranslated. */
export async function loadLanguage(language: Language): Promise<void> {
  const languages = new Set([language, DEFAULT_LANGUAGE]);
  await Promise.all(
    files
      .filter((file) => languages.has(file.language as Language) && wanted.includes(file.namespace))
      .map(loadOne),
  );
}

/**
 * These namespaces of the interface language (and the fallback), now and in every language chosen
 * later: what a screen needs before it is drawn.
 */
export async function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  wanted = [...new Set([...wanted, ...namespaces])];
  await loadLanguage(current);
}

/** Every namespace of the interface language (and the fallback): the logged-in screens use them all. */
export async function loadAllNamespaces(): Promise<void> {
  await loadNamespaces(NAMESPACES);
}

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

/**
 * Initialises the shared i18next instance and loads the language's texts; the app renders after
 * this resolves, so the first paint shows texts, never keys.
 */
export async function initI18n(
  language: Language = detectLanguage(),
  namespaces: readonly string[] = NAMESPACES,
): Promise<typeof i18next> {
  wanted = namespaces;
  if (i18next.isInitialized) {
    await applyLanguage(language);
    return i18next;
  }
  void i18next.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    // Our codes are lower-case ("pt-br"); without this i18next would look for "pt-BR".
    lowerCaseLng: true,
    ns: [...NAMESPACES],
    defaultNS: 'web',
    // i18next's defaults, named: when they are not given, every t() first tests whether its key
    // reads like a sentence ("Save: now?") rather than 'ns:key.path', which was 7 ms of the
    // overview's first render of 25 rows here, four times that in Lighthouse's phone (issue 23).
    // Our keys never are sentences.
    nsSeparator: ':',
    keySeparator: '.',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  current = language;
  setDocumentLanguage(language);
  await loadLanguage(language);
  return i18next;
}

/** Switches the interface language (e.g. to configuration.language) and sets <html lang>. */
export async function applyLanguage(language: Language): Promise<void> {
  current = language;
  await loadLanguage(language);
  setDocumentLanguage(language);
  if (i18next.resolvedLanguage !== language) await i18next.changeLanguage(language);
}
