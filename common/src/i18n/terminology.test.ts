import { describe, expect, it } from 'vitest';
import { readLocale } from './locale-files';

// docs/terminology.md: a citation (a reference to a source) and a quotation (quoted text) are
// different things and must not share a word; each has one word in every namespace.
const TERMS = {
  de: { citation: 'Literaturverweis', quotation: 'Zitat', insert: 'Literaturverweis einfügen' },
  bg: {
    citation: 'Библиографско позоваване',
    quotation: 'Цитат',
    insert: 'Вмъкване на библиографско позоваване',
  },
  es: { citation: 'Cita bibliográfica', quotation: 'Cita en bloque', insert: 'Insertar cita bibliográfica' },
  fr: {
    citation: 'Référence bibliographique',
    quotation: 'Citation longue',
    insert: 'Insérer une référence bibliographique',
  },
  it: {
    citation: 'Citazione bibliografica',
    quotation: 'Citazione',
    insert: 'Inserisci citazione bibliografica',
  },
  'pt-br': {
    citation: 'Citação bibliográfica',
    quotation: 'Citação em bloco',
    insert: 'Inserir citação bibliográfica',
  },
} as const;

describe('terminology', () => {
  for (const [language, terms] of Object.entries(TERMS)) {
    it(`${language} names citations "${terms.citation}" and quotations "${terms.quotation}" everywhere`, () => {
      const editor = readLocale(language, 'editor');
      expect(editor.get('action.blockquote')).toBe(terms.quotation);
      expect(editor.get('academic.action.citation')).toBe(terms.citation);
      expect(editor.get('academic.citation.title')).toBe(terms.insert);
      expect(readLocale(language, 'bibliography').get('citation')).toBe(terms.citation);
      const templates = readLocale(language, 'templates');
      expect(templates.get('elements.blockquote')).toBe(terms.quotation);
      expect(templates.get('elements.citation')).toBe(terms.citation);
      expect(readLocale(language, 'import').get('notes.citation_unreadable')?.toLowerCase()).toContain(
        terms.citation.toLowerCase(),
      );
    });
  }
});
