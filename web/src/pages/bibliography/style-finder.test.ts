import { describe, expect, it } from 'vitest';
import { matchStyles } from './style-finder';

const styles = [
  { id: 'american-journal-of-neuroradiology', title: 'American Journal of Neuroradiology' },
  { id: 'elsevier-harvard', title: 'Elsevier - Harvard (with titles)' },
  { id: 'harvard-cite-them-right', title: 'Cite Them Right 12th edition - Harvard' },
  { id: 'revue-francaise-de-sociologie', title: 'Revue française de sociologie' },
];

describe('matchStyles', () => {
  it('finds every word in any order, titles that start with the query first', () => {
    expect(matchStyles(styles, 'harvard').map((s) => s.id)).toEqual([
      'elsevier-harvard',
      'harvard-cite-them-right',
    ]);
    expect(matchStyles(styles, 'Harvard Elsevier').map((s) => s.id)).toEqual(['elsevier-harvard']);
    expect(matchStyles(styles, 'cite them').map((s) => s.id)).toEqual(['harvard-cite-them-right']);
  });

  it('ignores accents and case, and lists nothing for an empty query', () => {
    expect(matchStyles(styles, 'FRANCAISE')).toEqual([styles[3]]);
    expect(matchStyles(styles, '   ')).toEqual([]);
  });
});
