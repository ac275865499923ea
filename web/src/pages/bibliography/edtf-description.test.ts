import { describe, expect, it } from 'vitest';
import { describeEdtf } from './edtf-description';

const texts = { approximate: (d: string) => `circa ${d}`, uncertain: (d: string) => `${d} (uncertain)` };

describe('describeEdtf', () => {
  it('reads days, months, years and ranges in the user language', () => {
    expect(describeEdtf('1997-11-15', 'en', texts)).toBe('November 15, 1997');
    expect(describeEdtf('1997-11', 'de', texts)).toBe('November 1997');
    expect(describeEdtf('1945/1946', 'en', texts)).toBe('1945 – 1946');
    expect(describeEdtf('2020-03-11/2020-04', 'fr', texts)).toBe('11 mars 2020 – avril 2020');
    expect(describeEdtf('0079', 'en', texts)).toBe('79');
  });

  it('says approximate and uncertain dates, and gives nothing for what is no plain date', () => {
    expect(describeEdtf('1850~', 'en', texts)).toBe('circa 1850');
    expect(describeEdtf('2004?', 'en', texts)).toBe('2004 (uncertain)');
    expect(describeEdtf('not a date', 'en', texts)).toBeNull();
    expect(describeEdtf('2020-21', 'en', texts)).toBeNull();
  });
});
