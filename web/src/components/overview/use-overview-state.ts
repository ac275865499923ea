import { type Dispatch, type SetStateAction, useCallback, useState } from 'react';
import type { SortState } from '../data-table/data-table';
import { useOnline } from '../online/use-online';

/** The filter value that shows every row ('All categories'). */
export const ALL_ROWS = 'all';

/** Sort orders that outlive the screen (spec 2.5: the images' sort is remembered across updates). */
const rememberedSorts = new Map<string, SortState | null>();

export interface OverviewStateOptions {
  /** Remember the sort under this key while the app runs (e.g. 'usermedia'). */
  rememberSort?: string;
}

/**
 * The state every overview screen (images, bibliography, contacts, documents) keeps around its
 * table: whether the list has arrived, whether it is an older copy (the server could not be
 * asked), online, the category filter, the search text, the sort and the selected rows' keys.
 */
export interface OverviewState {
  /** Nothing to show yet: the first load is under way. */
  loading: boolean;
  /** The list on screen is not the server's current one (the last load failed). */
  stale: boolean;
  online: boolean;
  /** Marks the end of a load; `ok` false keeps what is shown and marks it stale. */
  finishLoad(ok: boolean): void;
  filter: string;
  setFilter(filter: string): void;
  /** The filter in force: one naming a category that no longer exists falls back to all rows. */
  activeFilter(exists: (filter: string) => boolean): string;
  search: string;
  setSearch(search: string): void;
  sort: SortState | null;
  setSort(sort: SortState): void;
  selected: Set<string>;
  setSelected: Dispatch<SetStateAction<Set<string>>>;
  /** Drops the selection of rows that are gone (after a reload or a delete). */
  keepSelected(exists: (key: string) => boolean): void;
  clearSelection(): void;
}

export function useOverviewState(options: OverviewStateOptions = {}): OverviewState {
  const { rememberSort } = options;
  const online = useOnline();
  const [loading, setLoading] = useState(true);
  const [stale, setStale] = useState(false);
  const [filter, setFilter] = useState(ALL_ROWS);
  const [search, setSearch] = useState('');
  const [sort, setSortState] = useState<SortState | null>(() =>
    rememberSort ? (rememberedSorts.get(rememberSort) ?? null) : null,
  );
  const [selected, setSelected] = useState<Set<string>>(() => new Set());

  const finishLoad = useCallback((ok: boolean) => {
    setLoading(false);
    setStale(!ok);
  }, []);
  const setSort = useCallback(
    (next: SortState) => {
      if (rememberSort) rememberedSorts.set(rememberSort, next);
      setSortState(next);
    },
    [rememberSort],
  );
  const keepSelected = useCallback((exists: (key: string) => boolean) => {
    setSelected((current) => {
      const kept = [...current].filter(exists);
      return kept.length === current.size ? current : new Set(kept);
    });
  }, []);
  const clearSelection = useCallback(() => setSelected(new Set()), []);

  return {
    loading,
    stale,
    online,
    finishLoad,
    filter,
    setFilter,
    activeFilter: (exists) => (filter === ALL_ROWS || exists(filter) ? filter : ALL_ROWS),
    search,
    setSearch,
    sort,
    setSort,
    selected,
    setSelected,
    keepSelected,
    clearSelection,
  };
}
