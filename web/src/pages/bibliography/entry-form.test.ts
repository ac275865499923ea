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
    expect(fromForm('title', [{ type: 'text', text: '  ' }], undefined)).toBeUndefined();
    expect(fromForm('title', [], undefined)).toBeUndefined();
    expect(fromForm('keywords', 'a, b; c', undefined)).toEqual(['a', 'b', 'c']);
    expect(fromForm('date', '2020-05/2021', undefined)).toBe('2020-05/2021');
  });

  it('edits titles and literals as rich text, keeping every mark and macro', () => {
    const title = [
      { type: 'text' as const, text: 'On ' },
      { type: 'text' as const, text: 'H', marks: [{ type: 'em' }] },
      { type: 'text' as const, text: '2', marks: [{ type: 'em' }, { type: 'sub' }] },
      { type: 'variable' as const, attrs: { variable: 'pami' } },
    ];
    expect(toForm('title', title)).toEqual(title);
    expect(fromForm('title', toForm('title', title), title)).toEqual(title);
    expect(toForm('title', undefined)).toEqual([]);
    expect(toForm('journaltitle', undefined)).toEqual([]);
    expect(toForm('abstract', undefined)).toEqual([]);
  });

  it('stores rich text canonical and without spaces at its ends', () => {
    expect(
      fromForm(
        'title',
        [
          { type: 'text', text: '  ', marks: [{ type: 'em' }] },
          { type: 'text', text: ' A ' },
          { type: 'text', text: 'b', marks: [{ type: 'strong' }] },
          { type: 'text', text: ' c ' },
          { type: 'text', text: ' ', marks: [{ type: 'sup' }] },
        ],
        undefined,
      ),
    ).toEqual([
      { type: 'text', text: 'A ' },
      { type: 'text', text: 'b', marks: [{ type: 'strong' }] },
      { type: 'text', text: ' c' },
    ]);
  });

  it('edits literal lists as one rich text per item and drops empty items', () => {
    const location = [
      [{ type: 'text' as const, text: 'Berlin' }],
      [{ type: 'text' as const, text: 'Paris', marks: [{ type: 'smallcaps' }] }],
    ];
    expect(toForm('location', location)).toEqual(location);
    expect(toForm('location', undefined)).toEqual([]);
    expect(
      fromForm('location', [location[0], [], [{ type: 'text', text: ' ' }], location[1]], location),
    ).toEqual(location);
    expect(fromForm('location', [[]], undefined)).toBeUndefined();
  });
});
