import type { Node as PMNode } from 'prosemirror-model';
import { schema } from '../editor/schema';
import { documentFromDefinition } from './template-document';
import { standardDefinition, type TemplateDefinition, templateDefinition } from './templates-api';

/** Test builders for templates with a table-of-contents and a separator part (issue 21). */

/** A custom rich-text part "Summary" that allows paragraphs and emphasis only, with this initial text. */
export function summaryPart(initial: string): TemplateDefinition['parts'][number] {
  return {
    id: 'summary',
    kind: 'richtext_part',
    title: 'Summary',
    optional: false,
    hidden: false,
    elements: ['paragraph'],
    marks: ['em'],
    help: 'Two sentences.',
    initial,
  };
}

/**
 * A template of the Standard article's parts at `before` (by index), then a table of contents
 * ("contents"), a separator ("divider") and the body.
 */
export function contentsDefinition(before: number[] = [], languages: string[] = []): TemplateDefinition {
  const standard = standardDefinition();
  const leaf = (id: string, kind: 'toc_part' | 'separator_part', title: string) => ({
    id,
    kind,
    title,
    optional: false,
    hidden: false,
    elements: [],
    marks: [],
  });
  return templateDefinition.parse({
    parts: [
      ...before.map((index) => standard.parts[index]),
      leaf('contents', 'toc_part', 'Contents'),
      leaf('divider', 'separator_part', 'Divider'),
      standard.parts[4],
    ],
    languages,
  });
}

/** A document of `definition` titled `title`, its body sections of [level, id, heading, paragraph]. */
export function documentWithSections(
  definition: TemplateDefinition,
  title: string,
  sections: [number, string, string, string][],
): PMNode {
  const base = documentFromDefinition(schema, 'template-1', title, definition);
  const s = schema.nodes;
  const parts: PMNode[] = [s.title.create(null, schema.text(title))];
  base.forEach((part) => {
    if (part.type.name === 'title') return;
    parts.push(
      part.attrs.id === 'body'
        ? part.type.create(
            part.attrs,
            sections.flatMap(([level, id, heading, paragraph]) => [
              s.heading.create({ level, id }, schema.text(heading)),
              s.paragraph.create(null, schema.text(paragraph)),
            ]),
          )
        : part,
    );
  });
  return base.type.create(base.attrs, parts);
}
