import { startTransition, useCallback, useEffect, useState } from 'react';
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
      const fetched = await fetchRows();
      // In a transition: a long list (or react-aria's table mounting with its first rows) is drawn
      // in slices that leave the page responsive, not in one task (issue 23).
      startTransition(() => {
        setRows(fetched);
        finishLoad(true);
      });
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
