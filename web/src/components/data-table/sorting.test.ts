import { describe, expect, it } from 'vitest';
import { filterRows, sortRows } from './sorting';

describe('sortRows', () => {
  it('sorts text naturally, ignoring case', () => {
    const rows = ['file 10', 'File 9', 'apple', 'Banana'];
    expect(sortRows(rows, (row) => row, 'ascending')).toEqual(['apple', 'Banana', 'File 9', 'file 10']);
    expect(sortRows(rows, (row) => row, 'descending')).toEqual(['file 10', 'File 9', 'Banana', 'apple']);
  });

  it('sorts numbers and dates by value', () => {
    expect(sortRows([10, 9, 100], (row) => row, 'ascending')).toEqual([9, 10, 100]);
    const dates = [new Date('2024-05-01'), new Date('2023-01-01'), new Date('2025-01-01')];
    expect(sortRows(dates, (row) => row, 'descending').map((date) => date.getFullYear())).toEqual([
      2025, 2024, 2023,
    ]);
  });

  it('keeps empty values last in both directions and is stable', () => {
    const rows = [
      { id: 'a', v: null },
      { id: 'b', v: 2 },
      { id: 'c', v: 1 },
      { id: 'd', v: 2 },
    ];
    expect(sortRows(rows, (row) => row.v, 'ascending').map((row) => row.id)).toEqual(['c', 'b', 'd', 'a']);
    expect(sortRows(rows, (row) => row.v, 'descending').map((row) => row.id)).toEqual(['b', 'd', 'c', 'a']);
  });
});

describe('filterRows', () => {
  const rows = ['Ada Lovelace ada@example.org', 'Alan Turing alan@example.org'];
  it('keeps rows containing every term, ignoring case', () => {
    expect(filterRows(rows, 'ada', (row) => row)).toEqual([rows[0]]);
    expect(filterRows(rows, '  EXAMPLE   turing ', (row) => row)).toEqual([rows[1]]);
    expect(filterRows(rows, 'example', (row) => row)).toEqual(rows);
    expect(filterRows(rows, 'grace', (row) => row)).toEqual([]);
  });
  it('keeps everything for a blank search', () => {
    expect(filterRows(rows, '   ', (row) => row)).toEqual(rows);
  });
});
