import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';

export interface TemplateEditorPageProps {
  /** The template id: the third segment of /templates/{id}/. */
  id: string;
}

/** Template editor (plugin, spec 2.1). */
export function TemplateEditorPage(_props: TemplateEditorPageProps) {
  const { t } = useTranslation('templates');
  const title = t('editorTitle');
  usePageTitle(title);
  return (
    <section className="page" aria-labelledby="page-heading">
      <h1 id="page-heading">{title}</h1>
    </section>
  );
}
