import { standardArticle } from '@scriptorium/common/editor/template-data';
import { BUILTIN_TEMPLATES } from '@scriptorium/common/plugins/builtin-templates';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface TemplateChoice {
  /** 'standard-article' or a stored template's id, as templatesApi.createDocument takes it. */
  id: string;
  label: string;
}

/**
 * The templates a new document can start from while the Templates plugin is on: the built-in
 * Standard article and the built-in journal templates, then the user's templates and the site's. null while the plugin is off.
 */
export function useTemplateChoices(pluginOn: boolean): TemplateChoice[] | null {
  const { t } = useTranslation('templates');
  const [stored, setStored] = useState<{ id: number; title: string; site: boolean }[]>([]);
  useEffect(() => {
    if (!pluginOn) return;
    let live = true;
    // The templates' API (its request schemas) loads after the overview's first paint.
    import('../../plugins/templates/templates-api')
      .then(({ fetchTemplates }) => fetchTemplates())
      .then(
        (rows) => live && setStored(rows),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [pluginOn]);
  if (!pluginOn) return null;
  return [
    { id: standardArticle.id, label: t('standardArticle') },
    // The journal templates Scriptorium ships.
    ...BUILTIN_TEMPLATES.map((template) => ({
      id: template.id,
      label: t(`builtin.names.${template.id}`, { defaultValue: template.title }),
    })),
    ...stored.map((row) => ({
      id: String(row.id),
      label: row.site ? t('siteChoice', { title: row.title || t('untitled') }) : row.title || t('untitled'),
    })),
  ];
}
