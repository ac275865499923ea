import { Fragment, type Node as PMNode, type Schema } from 'prosemirror-model';
import { createDocument, type NewDocumentOptions } from '../editor/templates';
import { editorTemplate, type TemplateDefinition } from './templates-api';

/** The `template` attribute of a document made from a stored template. */
export function storedTemplateKey(id: number): string {
  return `template-${id}`;
}

/**
 * A new document of a stored template: the editor's createDocument (every part carries its own
 * copy of the allowed elements and marks), then each part's initial text. The document needs the
 * template no more: changing or deleting the template later leaves it as it is.
 */
export function documentFromDefinition(
  schema: Schema,
  key: string,
  title: string,
  definition: TemplateDefinition,
  options: NewDocumentOptions = {},
): PMNode {
  const doc = createDocument(schema, editorTemplate(key, title, definition), {
    language: definition.languages[0],
    ...options,
  });
  const initial = new Map(definition.parts.map((part) => [part.id, part.initial.trim()]));
  const children: PMNode[] = [];
  doc.forEach((node) => {
    const text = initial.get(String(node.attrs.id)) ?? '';
    if (text === '' || node.type.name === 'title') {
      children.push(node);
    } else if (node.type.name === 'heading_part') {
      children.push(node.copy(Fragment.from(schema.text(text))));
    } else if (
      node.type.name === 'richtext_part' &&
      (node.attrs.elements as string[]).includes('paragraph')
    ) {
      const paragraphs = text
        .split(/\n\s*\n/)
        .map((chunk) => schema.nodes.paragraph.create(null, schema.text(chunk.trim())));
      children.push(node.copy(Fragment.from(paragraphs)));
    } else {
      children.push(node);
    }
  });
  const citationstyle = definition.citation_styles[0] ?? doc.attrs.citationstyle;
  const result = doc.type.create(
    {
      ...doc.attrs,
      citationstyle,
      heading_numbering: definition.heading_numbering,
      latex_class: definition.latex_class,
      paper_size: options.paperSize ?? definition.paper_size,
    },
    children,
  );
  result.check();
  return result;
}
