import { useLayoutEffect } from 'react';

export const APP_NAME = 'Scriptorium';

/**
 * Sets document.title while a page is shown: "<title> - Scriptorium", or exactly `title` when
 * `exact`; null leaves the title to an enclosing screen.
 */
export function usePageTitle(title: string | null, options: { exact?: boolean } = {}): void {
  const { exact = false } = options;
  // Layout effect: the title changes in the same commit as the page, never one frame late.
  useLayoutEffect(() => {
    if (title === null) return;
    document.title = exact ? title : `${title} - ${APP_NAME}`;
  }, [title, exact]);
}
