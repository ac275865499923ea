/** The interface languages of spec section 1, in the order the selector shows them. */
export const LANGUAGES = ['bg', 'de', 'en', 'es', 'fr', 'it', 'pt-br'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language named in itself, for the language selector. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  bg: 'Български',
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  'pt-br': 'Português (Brasil)',
};

/** Each language's full locale (with region), as CSL locales and react-aria's own texts name them. */
export const LANGUAGE_LOCALES: Record<Language, string> = {
  bg: 'bg-BG',
  de: 'de-DE',
  en: 'en-US',
  es: 'es-ES',
  fr: 'fr-FR',
  it: 'it-IT',
  'pt-br': 'pt-BR',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks the best supported language from an Accept-Language header ("de-DE,de;q=0.9,en;q=0.8"). */
export function negotiateLanguage(header: string | undefined): Language {
  return matchLanguage(header) ?? DEFAULT_LANGUAGE;
}

/** The best supported language the header names, if it names any. */
export function matchLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => entry.tag && !Number.isNaN(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (isLanguage(tag)) return tag;
    if (tag.startsWith('pt')) return 'pt-br';
    const primary = tag.split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return undefined;
}
