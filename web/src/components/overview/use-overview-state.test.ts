import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ALL_ROWS, useOverviewState } from './use-overview-state';

describe('useOverviewState', () => {
  it('is loading until the first load ends, and stale when a load failed', () => {
    const { result } = renderHook(() => useOverviewState());
    expect([result.current.loading, result.current.stale]).toEqual([true, false]);
    act(() => result.current.finishLoad(false));
    expect([result.current.loading, result.current.stale]).toEqual([false, true]);
    act(() => result.current.finishLoad(true));
    expect(result.current.stale).toBe(false);
  });

  it('falls back to all rows when the filtered category is gone', () => {
    const { result } = renderHook(() => useOverviewState());
    act(() => result.current.setFilter('7'));
    expect(result.current.activeFilter((id) => id === '7')).toBe('7');
    expect(result.current.activeFilter(() => false)).toBe(ALL_ROWS);
  });

  it('keeps only the selection of rows that still exist', () => {
    const { result } = renderHook(() => useOverviewState());
    act(() => result.current.setSelected(new Set(['1', '2', '3'])));
    act(() => result.current.keepSelected((key) => key !== '2'));
    expect([...result.current.selected]).toEqual(['1', '3']);
    act(() => result.current.clearSelection());
    expect(result.current.selected.size).toBe(0);
  });

  it('remembers a sort under its key for the next screen of the same kind', () => {
    const first = renderHook(() => useOverviewState({ rememberSort: 'test-images' }));
    act(() => first.result.current.setSort({ columnId: 'size', direction: 'descending' }));
    first.unmount();
    const second = renderHook(() => useOverviewState({ rememberSort: 'test-images' }));
    expect(second.result.current.sort).toEqual({ columnId: 'size', direction: 'descending' });
    expect(renderHook(() => useOverviewState()).result.current.sort).toBeNull();
  });
});
