import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page/page';

/** Document templates overview (plugin, spec 2.1). */
export function TemplatesPage() {
  const { t } = useTranslation('templates');
  return <Page heading={t('title')} title={t('title')} />;
}
