import { useCallback, useEffect, useState } from 'react';
import { showToast } from '../toast/toast-emitter';

/**
 * The rows of an overview page: fetched when the page opens and on every reload(). A failed load
 * keeps the rows shown (finishLoad marks them stale) and says so in a toast. `fetchRows` must be
 * stable (a module's function), or every render would load again.
 */
export function useOverviewRows<Row>(
  fetchRows: () => Promise<Row[]>,
  finishLoad: (ok: boolean) => void,
  loadFailedText: string,
) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const reload = useCallback(async () => {
    try {
      setRows(await fetchRows());
      finishLoad(true);
    } catch {
      finishLoad(false);
      showToast(loadFailedText, 'error');
    }
  }, [fetchRows, finishLoad, loadFailedText]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { rows, setRows, reload };
}
