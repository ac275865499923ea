import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';
import { MessagePage } from '../../components/page/page';

/** Spec 1 and 2.1: sign-up is closed, and this page says so. */
export function SignUpPage() {
  const { t } = useTranslation('web');
  return (
    <MessagePage
      title={t('pages.signUp.title')}
      heading={t('pages.signUp.heading')}
      text={t('pages.signUp.text')}
    />
  );
}
