import { describe, expect, it } from 'vitest';
import {
  deleteImagesRequest,
  fileTypeLabel,
  normaliseCategoryEdits,
  saveCategoriesRequest,
  saveImageFields,
} from './usermedia';

describe('normaliseCategoryEdits', () => {
  it('trims titles, drops empty ones and keeps id 0 as new', () => {
    expect(normaliseCategoryEdits([4, 0, 7, 0], ['  Maps ', '   ', 'Plots', ' New one'])).toEqual([
      { id: 4, title: 'Maps' },
      { id: 7, title: 'Plots' },
      { id: 0, title: 'New one' },
    ]);
  });

  it('treats a missing id as new and keeps only the first of a repeated id', () => {
    expect(normaliseCategoryEdits([3, 3], ['a', 'b', 'c'])).toEqual([
      { id: 3, title: 'a' },
      { id: 0, title: 'c' },
    ]);
  });
});

describe('fileTypeLabel', () => {
  it('shows the subtype in upper case', () => {
    expect(fileTypeLabel('image/png')).toBe('PNG');
    expect(fileTypeLabel('image/svg+xml')).toBe('SVG+XML');
    expect(fileTypeLabel('jpeg')).toBe('JPEG');
  });
});

describe('request schemas', () => {
  it('reads the multipart fields of a save', () => {
    expect(
      saveImageFields.parse({
        id: '5',
        title: ' Fig 1 ',
        cats: '[1,2]',
        copyright: '{"holder":"Ann","licence":"CC0-1.0"}',
      }),
    ).toEqual({ id: 5, title: 'Fig 1', cats: [1, 2], copyright: { holder: 'Ann', licence: 'CC0-1.0' } });
    expect(saveImageFields.parse({})).toEqual({
      id: 0,
      title: '',
      cats: [],
      copyright: { holder: '', licence: '' },
    });
    expect(saveImageFields.safeParse({ cats: 'nope' }).success).toBe(false);
    expect(saveImageFields.safeParse({ copyright: '{"licence":"made-up"}' }).success).toBe(false);
  });

  it('needs parallel id and title lists for categories', () => {
    expect(saveCategoriesRequest.parse({ ids: ['0', '3'], titles: ['a', 'b'] })).toEqual({
      ids: [0, 3],
      titles: ['a', 'b'],
    });
    expect(saveCategoriesRequest.parse({})).toEqual({ ids: [], titles: [] });
    expect(saveCategoriesRequest.safeParse({ ids: ['1'], titles: [] }).success).toBe(false);
  });

  it('needs at least one positive id to delete', () => {
    expect(deleteImagesRequest.parse({ ids: ['2', '9'] })).toEqual({ ids: [2, 9] });
    expect(deleteImagesRequest.safeParse({ ids: [] }).success).toBe(false);
    expect(deleteImagesRequest.safeParse({ ids: ['0'] }).success).toBe(false);
  });
});
