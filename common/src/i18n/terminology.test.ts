import { describe, expect, it } from 'vitest';
import { readLocale } from './locale-files';

// docs/terminology.md: a citation (a reference to a source) and a quotation (quoted text) are
// different things and must not share a word.
describe('terminology', () => {
  it('German names citations "Literaturverweis" and quotations "Zitat"', () => {
    const editor = readLocale('de', 'editor');
    expect(editor.get('action.blockquote')).toBe('Zitat');
    expect(editor.get('academic.action.citation')).toBe('Literaturverweis');
    expect(editor.get('academic.citation.title')).toBe('Literaturverweis einfügen');
    expect(readLocale('de', 'bibliography').get('citation')).toBe('Literaturverweis');
    expect(readLocale('de', 'import').get('notes.citation_unreadable')).toContain('Ein Literaturverweis');
  });
});
