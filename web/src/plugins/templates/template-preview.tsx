import { schema } from '@scriptorium/common/editor/schema';
import { documentFromDefinition } from '@scriptorium/common/plugins/template-document';
import type { TemplateDefinition } from '@scriptorium/common/plugins/templates-api';
import { DOMSerializer } from 'prosemirror-model';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A live preview: the empty document a new document of this template starts as, drawn by the
 * schema's own toDOM (the same parts, titles and initial texts the editor shows).
 */
export function TemplatePreview({ title, definition }: { title: string; definition: TemplateDefinition }) {
  const { t } = useTranslation('templates');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current;
    if (!target) return;
    let doc: ReturnType<typeof documentFromDefinition>;
    try {
      doc = documentFromDefinition(schema, 'preview', title, definition);
    } catch {
      target.textContent = t('preview.invalid');
      return;
    }
    const fragment = DOMSerializer.fromSchema(schema).serializeFragment(doc.content);
    target.replaceChildren(fragment);
    // Help texts where the editor shows them: a muted line above the part that describes it.
    target.querySelectorAll<HTMLElement>('.doc-part[data-help]').forEach((part, index) => {
      const help = document.createElement('div');
      help.className = 'doc-part-help';
      help.id = `template-preview-help-${index}`;
      help.textContent = part.dataset.help ?? '';
      part.setAttribute('aria-describedby', help.id);
      part.before(help);
    });
    // The empty title is an empty heading: the preview names it, as the editor's placeholder does.
    const heading = target.firstElementChild;
    if (heading && heading.textContent === '') {
      heading.textContent = t('preview.title');
      heading.classList.add('plugin-muted');
    }
  }, [title, definition, t]);
  return (
    <section className="template-preview" aria-labelledby="template-preview-heading">
      <h2 id="template-preview-heading">{t('preview.heading')}</h2>
      <div ref={box} className="template-preview-document" data-testid="template-preview" />
    </section>
  );
}
