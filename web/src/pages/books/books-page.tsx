import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';

export interface BooksPageProps {
  /** The address after /books/, e.g. "" or "3/chapters/". */
  path: string;
}

/** Book overview (plugin, spec 2.1). */
export function BooksPage(_props: BooksPageProps) {
  const { t } = useTranslation('books');
  const title = t('title');
  usePageTitle(title);
  return (
    <section className="page" aria-labelledby="page-heading">
      <h1 id="page-heading">{title}</h1>
    </section>
  );
}
