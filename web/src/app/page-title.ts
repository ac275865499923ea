import { useLayoutEffect } from 'react';

export const APP_NAME = 'Scriptorium';

/** Sets document.title while a page is shown: "<title> - Scriptorium", or exactly `title` when `exact`. */
export function usePageTitle(title: string, options: { exact?: boolean } = {}): void {
  const { exact = false } = options;
  // Layout effect: the title changes in the same commit as the page, never one frame late.
  useLayoutEffect(() => {
    document.title = exact ? title : `${title} - ${APP_NAME}`;
  }, [title, exact]);
}
