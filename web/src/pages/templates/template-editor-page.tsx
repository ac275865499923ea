import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page/page';

export interface TemplateEditorPageProps {
  /** The template id: the third segment of /templates/{id}/. */
  id: string;
}

/** Template editor (plugin, spec 2.1). */
export function TemplateEditorPage(_props: TemplateEditorPageProps) {
  const { t } = useTranslation('templates');
  return <Page heading={t('editorTitle')} title={t('editorTitle')} />;
}
