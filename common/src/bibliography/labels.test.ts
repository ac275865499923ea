import { BibFieldTypes, BibTypes } from 'biblatex-csl-converter';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';
import { bibLabels } from './labels';

const optionsOf = (field: string): string[] => {
  const options = BibFieldTypes[field].options;
  return Array.isArray(options) ? options : Object.keys(options ?? {});
};

describe('bibliography labels', () => {
  it('gives every type, field and option a title in each interface language', () => {
    for (const language of LANGUAGES) {
      const labels = bibLabels(language);
      for (const type of Object.keys(BibTypes))
        expect(labels.type(type), `${language} ${type}`).not.toBe(type);
      for (const field of Object.keys(BibFieldTypes)) {
        expect(labels.field('misc', field), `${language} ${field}`).not.toBe(field);
        for (const option of optionsOf(field))
          expect(labels.option(field, option), `${language} ${field}=${option}`).not.toBe(option);
      }
    }
  });

  it('translates, and names fields after the type', () => {
    expect(bibLabels('de').option('langid', 'french')).toBe('Französisch');
    expect(bibLabels('pt-br').type('thesis')).toBe('Tese');
    expect(bibLabels('en').option('type', 'phdthesis')).toBe('Ph.D. thesis');
    expect(bibLabels('en').field('video', 'author')).toBe('Director(s)');
    expect(bibLabels('en').field('book', 'author')).toBe('Author(s)');
  });
});
