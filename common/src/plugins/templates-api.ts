import { z } from 'zod';
import { PATH_INPUT_MAX } from '../api/documents';
import { formId, text } from '../api/fields';
import { jsonField } from '../api/form';
import { type DocumentTemplate, PART_KINDS, standardArticle } from '../editor/template-data';
import {
  BODY_ELEMENTS,
  FORMAT_MARKS,
  HEADING_NUMBERINGS,
  LATEX_CLASSES,
  PAPER_SIZES,
} from '../editor/vocabulary';
import { itemCreateRequest, itemListFields, itemSaveRequest } from './items-api';

/**
 * The Templates plugin's contract. A stored template is a `TemplateDefinition`: the parts of the
 * editor's DocumentTemplate (common/src/editor/templates.ts) plus what only the template knows
 * (help texts, initial content, the citation styles and languages offered). A document made from
 * it copies the parts into its own nodes, so it never needs the template again.
 */

export const TEMPLATE_TITLE_MAX = 255;
export { PART_KINDS };
/** Export templates: reference documents of the DOCX and ODT exporters (stored and listed here). */
export const EXPORT_FILE_KINDS = ['docx', 'odt'] as const;
export type ExportFileKind = (typeof EXPORT_FILE_KINDS)[number];
export const EXPORT_FILE_MAX = 10 * 1024 * 1024;

export const templatePartDefinition = z.object({
  id: text()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9_-]+$/),
  kind: z.enum(PART_KINDS),
  title: text().trim().min(1).max(255),
  optional: z.boolean(),
  hidden: z.boolean(),
  elements: z.array(z.enum(BODY_ELEMENTS)),
  marks: z.array(z.enum(FORMAT_MARKS)),
  /** Shown to authors beside the part. */
  help: text().max(2000).default(''),
  /** Plain text a new document's part starts with (rich-text and heading parts). */
  initial: text().max(10000).default(''),
});
export type TemplatePartDefinition = z.infer<typeof templatePartDefinition>;

export const templateDefinition = z
  .object({
    parts: z.array(templatePartDefinition).min(1).max(50),
    /** CSL style ids offered in documents of the template (empty: every style). */
    citation_styles: z.array(text().max(100)).max(100).default([]),
    /** Document languages offered (empty: every language). */
    languages: z.array(text().max(20)).max(100).default([]),
    /** How a new document's headings are numbered (authors may change it in its settings). */
    heading_numbering: z.enum(HEADING_NUMBERINGS).default('decimal'),
    /** The LaTeX export's class, preamble and front matter (common/src/export/latex-classes.ts). */
    latex_class: z.enum(LATEX_CLASSES).default('article'),
    /** A new document's paper size: the typeset PDF's and the office formats' page. */
    paper_size: z.enum(PAPER_SIZES).default('A4'),
  })
  .refine((value) => new Set(value.parts.map((part) => part.id)).size === value.parts.length, {
    message: 'Every part needs its own id.',
    path: ['parts'],
  });
export type TemplateDefinition = z.infer<typeof templateDefinition>;

/** The built-in Standard article as a stored definition: the first template of every user. */
export function standardDefinition(): TemplateDefinition {
  return {
    parts: standardArticle.parts.map((part) => ({
      ...part,
      elements: [...part.elements],
      marks: [...part.marks],
      help: '',
      initial: '',
    })),
    citation_styles: [],
    languages: [],
    heading_numbering: 'decimal',
    latex_class: 'article',
    paper_size: 'A4',
  };
}

/** The editor's view of a stored template (what createDocument needs). */
export function editorTemplate(id: string, title: string, definition: TemplateDefinition): DocumentTemplate {
  return {
    id,
    title,
    parts: definition.parts.map(({ initial: _initial, ...part }) => part),
  };
}

export const templateListEntry = z.object({
  ...itemListFields,
  /** A site template (made by staff) is offered to every user; only its owner edits it. */
  site: z.boolean(),
  is_owner: z.boolean(),
});
export type TemplateListEntry = z.infer<typeof templateListEntry>;

/** GET /api/templates/list/: the user's templates and the site's. */
export const templateListResponse = z.object({ templates: z.array(templateListEntry) });
export type TemplateListResponse = z.infer<typeof templateListResponse>;

export const exportFileEntry = z.object({
  id: z.number(),
  kind: z.enum(EXPORT_FILE_KINDS),
  title: z.string(),
  size: z.number(),
  added: z.number(),
});
export type ExportFileEntry = z.infer<typeof exportFileEntry>;

export const templateEntry = templateListEntry.extend({
  definition: templateDefinition,
  files: z.array(exportFileEntry),
});
export type TemplateEntry = z.infer<typeof templateEntry>;

export const templateGetResponse = z.object({ template: templateEntry });

export const templateCreateRequest = itemCreateRequest(TEMPLATE_TITLE_MAX, {
  /** An imported template; without it the new template starts as a copy of the Standard article. */
  definition: z.optional(jsonField(templateDefinition)),
});

export const templateSaveRequest = itemSaveRequest(TEMPLATE_TITLE_MAX, {
  definition: jsonField(templateDefinition),
  /** Staff only: offer it to every user. */
  site: z.enum(['true', 'false']).optional(),
});

export const templateFileUploadFields = z.object({
  id: formId,
  kind: z.enum(EXPORT_FILE_KINDS),
  title: text().trim().min(1).max(255),
});
export const templateFileUploadResponse = z.object({ file: exportFileEntry });
export const templateFileDeleteRequest = z.object({ id: formId, file_id: formId });

/** 'standard-article' or a built-in template's id (builtin-templates.ts), or the id of a stored template. */
export const documentFromTemplateRequest = z.object({
  template: text().max(32),
  path: text().max(PATH_INPUT_MAX).optional().default(''),
});
export const documentFromTemplateResponse = z.object({ id: z.number(), path: z.string() });

/** The file a template is exported to and imported from ("Export" / "Import" in the overview). */
export const templateFile = z.object({
  scriptorium_template: z.literal(1),
  title: z.string().max(TEMPLATE_TITLE_MAX),
  definition: templateDefinition,
});
export type TemplateFile = z.infer<typeof templateFile>;
