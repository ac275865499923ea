import { describe, expect, it } from 'vitest';
import { fromForm, toForm } from './entry-form';

describe('entry editor values', () => {
  it('round-trips names, keeping formatting of unchanged parts', () => {
    const stored = [
      {
        family: [{ type: 'text' as const, text: 'Neumann' }],
        given: [{ type: 'text' as const, text: 'John' }],
        prefix: [{ type: 'text' as const, text: 'von' }],
        useprefix: true,
      },
      { literal: [{ type: 'text' as const, text: 'WHO', marks: [{ type: 'smallcaps' }] }] },
    ];
    const form = toForm('author', stored);
    expect(form).toEqual([
      { kind: 'person', family: 'Neumann', given: 'John', prefix: 'von', suffix: '', literal: '' },
      { kind: 'organisation', family: '', given: '', prefix: '', suffix: '', literal: 'WHO' },
    ]);
    expect(fromForm('author', form, stored)).toEqual(stored);
  });

  it('reads page ranges with any dash', () => {
    expect(fromForm('pages', '97--111, 120', undefined)).toEqual([
      [[{ type: 'text', text: '97' }], [{ type: 'text', text: '111' }]],
      [[{ type: 'text', text: '120' }]],
    ]);
    expect(toForm('pages', fromForm('pages', '1–5', undefined))).toBe('1–5');
  });

  it('keeps option keys as keys and empty fields out', () => {
    expect(fromForm('langid', 'german', undefined)).toBe('german');
    expect(fromForm('title', '  ', undefined)).toBeUndefined();
    expect(fromForm('keywords', 'a, b; c', undefined)).toEqual(['a', 'b', 'c']);
    expect(fromForm('date', '2020-05/2021', undefined)).toBe('2020-05/2021');
  });
});
