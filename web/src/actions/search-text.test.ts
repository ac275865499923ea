import { describe, expect, it } from 'vitest';
import { matchesSearch } from './search-text';

describe('palette search', () => {
  it('ignores accents and case, in the rules of the language', () => {
    expect(matchesSearch('Kategorie: Übersichtskarten', 'ubersichtskarten', 'de')).toBe(true);
    expect(matchesSearch('Ausgewählte löschen', 'AUSGEWAHLTE LOSCH', 'de')).toBe(true);
    expect(matchesSearch('Éditeur de modèles', 'editeur', 'fr')).toBe(true);
    expect(matchesSearch('Редактор на шаблони', 'шабл', 'bg')).toBe(true);
  });

  it('wants every word, in any order', () => {
    expect(matchesSearch('Kategorien bearbeiten', 'bearb kat', 'de')).toBe(true);
    expect(matchesSearch('Kategorien bearbeiten', 'kat löschen', 'de')).toBe(false);
    expect(matchesSearch('Invite contact', '', 'en')).toBe(true);
  });
});
