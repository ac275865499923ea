import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

export const MAIN_ID = 'main';

/**
 * "Skip to content": the first stop of Tab on every page, shown only while focused. It moves the
 * focus itself rather than following #main, so the address (and the router) stay as they are.
 */
export function SkipLink() {
  const { t } = useTranslation('web');
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView({ block: 'start' });
  };
  return (
    <a className="skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      {t('skipLink')}
    </a>
  );
}
