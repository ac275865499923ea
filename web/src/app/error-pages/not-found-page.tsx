import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/page/page';
import { usePageTitle } from '../page-title';

/** The 404 text without the page title, also shown by a flat page that cannot be loaded. */
export function NotFoundContent() {
  const { t } = useTranslation('web');
  return <MessagePage heading={t('pages.notFound.heading')} text={t('pages.notFound.text')} />;
}

/** Spec 2.3: title 'Page not found', heading 'Error 404'. */
export function NotFoundPage() {
  const { t } = useTranslation('web');
  usePageTitle(t('pages.notFound.title'), { exact: true });
  return <NotFoundContent />;
}
