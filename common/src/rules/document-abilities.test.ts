import { describe, expect, it } from 'vitest';
import { ACCESS_RIGHTS, type AccessRight } from '../api/documents';
import { abilities, reviewPermissions } from './document-abilities';

// The whole table, written out: a change of what a right may do shows here first.
const TABLE: Record<AccessRight, [string, boolean][]> = {
  read: [
    ['read', true],
    ['seeComments', true],
    ['comment', false],
    ['edit', false],
    ['suggest', false],
    ['suggestOnly', false],
    ['editFreely', false],
    ['decideSuggestions', false],
    ['export', true],
  ],
  'read-without-comments': [
    ['read', true],
    ['seeComments', false],
    ['comment', false],
    ['edit', false],
    ['suggest', false],
    ['suggestOnly', false],
    ['editFreely', false],
    ['decideSuggestions', false],
    ['export', true],
  ],
  comment: [
    ['read', true],
    ['seeComments', true],
    ['comment', true],
    ['edit', false],
    ['suggest', false],
    ['suggestOnly', false],
    ['editFreely', false],
    ['decideSuggestions', false],
    ['export', true],
  ],
  review: [
    ['read', true],
    ['seeComments', true],
    ['comment', true],
    ['edit', true],
    ['suggest', true],
    ['suggestOnly', true],
    ['editFreely', false],
    ['decideSuggestions', false],
    ['export', true],
  ],
  'write-tracked': [
    ['read', true],
    ['seeComments', true],
    ['comment', true],
    ['edit', true],
    ['suggest', true],
    ['suggestOnly', true],
    ['editFreely', false],
    ['decideSuggestions', false],
    ['export', true],
  ],
  write: [
    ['read', true],
    ['seeComments', true],
    ['comment', true],
    ['edit', true],
    ['suggest', true],
    ['suggestOnly', false],
    ['editFreely', true],
    ['decideSuggestions', true],
    ['export', true],
  ],
};

describe('document abilities', () => {
  it('covers every access right with the table above', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...ACCESS_RIGHTS].sort());
  });

  for (const right of ACCESS_RIGHTS) {
    it(`gives ${right} exactly its row`, () => {
      const can = abilities(right);
      expect(Object.entries(can).filter(([name]) => name !== 'manage')).toEqual(TABLE[right]);
      expect(can.manage).toBe(false);
      expect(abilities(right, { owner: true }).manage).toBe(true);
      // The review rule sees the same right: comments and suggestions as the table says.
      expect(reviewPermissions(right)).toEqual({ comments: can.comment, suggestions: can.suggest });
    });
  }

  it('keeps the order of the rights: each one may do at least what the one before it may', () => {
    const order = ['read-without-comments', 'read', 'comment', 'review', 'write-tracked', 'write'] as const;
    for (let i = 1; i < order.length; i += 1) {
      const before = abilities(order[i - 1]);
      const after = abilities(order[i]);
      for (const name of ['read', 'seeComments', 'comment', 'edit', 'suggest', 'editFreely'] as const) {
        if (before[name]) expect(after[name], `${order[i]} ${name}`).toBe(true);
      }
    }
  });
});
