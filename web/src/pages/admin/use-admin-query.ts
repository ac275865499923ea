import { useCallback, useEffect, useRef, useState } from 'react';
import { showToast } from '../../components/toast/toast';

/**
 * Loads what `load` answers for the current inputs (search, filter, page), keeps the last answer
 * on screen while the next one loads, and ignores answers that arrive after a newer request.
 */
export function useAdminQuery<T>(load: () => Promise<T>, failureMessage: string) {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const current = ++generation.current;
    setLoading(true);
    try {
      const answer = await load();
      if (current === generation.current) setData(answer);
    } catch {
      if (current === generation.current) showToast(failureMessage, 'error');
    } finally {
      if (current === generation.current) setLoading(false);
    }
  }, [load, failureMessage]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, setData, loading, reload };
}
