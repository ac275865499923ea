import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page/page';

export interface BooksPageProps {
  /** The address after /books/, e.g. "" or "3/chapters/". */
  path: string;
}

/** Book overview (plugin, spec 2.1). */
export function BooksPage(_props: BooksPageProps) {
  const { t } = useTranslation('books');
  return <Page heading={t('title')} title={t('title')} />;
}
