import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';

/** Document templates overview (plugin, spec 2.1). */
export function TemplatesPage() {
  const { t } = useTranslation('templates');
  const title = t('title');
  usePageTitle(title);
  return (
    <section className="page" aria-labelledby="page-heading">
      <h1 id="page-heading">{title}</h1>
    </section>
  );
}
