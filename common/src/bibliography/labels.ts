import {
  getFieldTitle,
  getLangidTitle,
  getLocale,
  getOtherOptionTitle,
  getTypeTitle,
} from 'biblatex-csl-converter';

/** Our language codes where the converter's locale tag differs. */
const CONVERTER_LOCALE: Record<string, string> = { 'pt-br': 'pt-BR' };

/** Fields whose options are language names (translated by the converter's langid titles). */
const LANGUAGE_FIELDS = new Set(['langid', 'language', 'origlanguage']);

export interface BibLabels {
  /** "Journal article" for article-journal. */
  type(bibType: string): string;
  /** A field's title for the given type: "Director(s)" for the author of a video. */
  field(bibType: string, field: string): string;
  /** A fixed choice of a key field: "German" for langid german, "Ph.D. thesis" for phdthesis. */
  option(field: string, option: string): string;
}

/**
 * The titles of entry types, fields and options in one interface language, from the
 * converter's own translations (all seven of ours are among them), so that the names a user
 * sees match the data model exactly and new types arrive translated with the library.
 */
export function bibLabels(language: string): BibLabels {
  const locale = getLocale(CONVERTER_LOCALE[language] ?? language);
  return {
    type: (bibType) => getTypeTitle(locale, bibType),
    field: (bibType, field) => getFieldTitle(locale, bibType, field),
    option: (field, option) =>
      LANGUAGE_FIELDS.has(field) ? getLangidTitle(locale, option) : getOtherOptionTitle(locale, option),
  };
}
