import { standardArticle, type TemplatePart } from '../editor/template-data';
import type { TemplateDefinition } from './templates-api';

/**
 * The journal templates the Templates plugin ships besides the Standard article (issue 53): each
 * a document structure, a citation style, a LaTeX layout (class, preamble, front matter:
 * common/src/export/latex-classes.ts), a heading numbering and a paper size. They are read-only;
 * the overview copies one into the user's templates to customise it.
 */

export interface BuiltinTemplate {
  /** The document's `template` attribute and templatesApi.createDocument's `template`. */
  id: string;
  /** Its name (the overview and New document translate `builtin.<id>` of the templates namespace). */
  title: string;
  definition: TemplateDefinition;
}

/** The Standard article's parts, each as a stored definition, changed where a template differs. */
function parts(changes: Record<string, Partial<TemplatePart>> = {}, extra: TemplatePart[] = []) {
  const base = standardArticle.parts.map((part) => ({
    ...part,
    elements: [...part.elements],
    marks: [...part.marks],
    help: '',
    initial: '',
    ...changes[part.id],
  }));
  const body = base.findIndex((part) => part.id === 'body');
  base.splice(body, 0, ...extra.map((part) => ({ ...part, help: '', initial: '' })));
  return base;
}

function definition(
  fields: Pick<TemplateDefinition, 'heading_numbering' | 'latex_class' | 'paper_size'> & {
    style: string;
    parts: TemplateDefinition['parts'];
  },
): TemplateDefinition {
  const { style, ...rest } = fields;
  return { ...rest, citation_styles: [style], languages: [] };
}

export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    id: 'apa7-student',
    title: 'APA 7 student paper',
    definition: definition({
      style: 'apa',
      heading_numbering: 'none',
      latex_class: 'apa7-student',
      paper_size: 'US Letter',
      parts: parts({ abstract: { hidden: true }, keywords: { hidden: true } }),
    }),
  },
  {
    id: 'apa7-professional',
    title: 'APA 7 professional paper',
    definition: definition({
      style: 'apa',
      heading_numbering: 'none',
      latex_class: 'apa7-professional',
      paper_size: 'US Letter',
      parts: parts({ abstract: { optional: false } }),
    }),
  },
  {
    id: 'ieee-conference',
    title: 'IEEE conference paper (IEEEtran)',
    definition: definition({
      style: 'ieee',
      heading_numbering: 'roman',
      latex_class: 'ieee-conference',
      paper_size: 'US Letter',
      parts: parts({ abstract: { optional: false }, keywords: { title: 'Index Terms' } }),
    }),
  },
  {
    id: 'acm-sigconf',
    title: 'ACM conference paper (acmart sigconf)',
    definition: definition({
      style: 'acm-sig-proceedings',
      heading_numbering: 'decimal',
      latex_class: 'acm-sigconf',
      paper_size: 'US Letter',
      parts: parts({ abstract: { optional: false } }),
    }),
  },
  {
    id: 'elsevier',
    title: 'Elsevier journal article (elsarticle)',
    definition: definition({
      style: 'elsevier-harvard',
      heading_numbering: 'decimal',
      latex_class: 'elsevier',
      paper_size: 'A4',
      parts: parts({ abstract: { optional: false } }),
    }),
  },
  {
    id: 'lncs',
    title: 'Springer LNCS paper (llncs)',
    definition: definition({
      style: 'springer-lecture-notes-in-computer-science',
      heading_numbering: 'decimal',
      latex_class: 'lncs',
      paper_size: 'A4',
      parts: parts({ abstract: { optional: false } }),
    }),
  },
  {
    id: 'thesis',
    title: 'Thesis (chapters, contents, list of figures)',
    definition: definition({
      style: 'apa',
      heading_numbering: 'chapter',
      latex_class: 'thesis',
      paper_size: 'A4',
      parts: parts({ subtitle: { hidden: false }, keywords: { hidden: true } }, [
        {
          id: 'contents',
          kind: 'toc_part',
          title: 'Contents',
          optional: true,
          hidden: false,
          elements: [],
          marks: [],
        },
      ]),
    }),
  },
];

export function builtinTemplate(id: string): BuiltinTemplate | undefined {
  return BUILTIN_TEMPLATES.find((template) => template.id === id);
}
