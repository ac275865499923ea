import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';

/** Spec 1 and 2.1: sign-up is closed, and this page says so. */
export function SignUpPage() {
  const { t } = useTranslation('web');
  usePageTitle(t('pages.signUp.title'));
  return (
    <section className="page page-message" aria-labelledby="page-heading">
      <h1 id="page-heading">{t('pages.signUp.heading')}</h1>
      <p>{t('pages.signUp.text')}</p>
    </section>
  );
}
