import type { Node as PMNode } from 'prosemirror-model';
import { TableMap } from 'prosemirror-tables';
import { documentLabel } from '../editor/academic-numbering';
import { LATEX_CLASSES, type LatexClass } from '../editor/vocabulary';
import { imageSize } from './images';
import { escapeLatex } from './latex-citations';
import { authorName, isEquationFigure, type PreparedDocument } from './model';

/**
 * The LaTeX layouts of the journal templates (issue 53): per layout the class and its options,
 * what the class already loads (so the preamble leaves it out), and the front matter the class
 * wants (its own author, affiliation, e-mail, abstract and keyword commands). The classes are in
 * Debian's texlive-publishers (IEEEtran, acmart, elsarticle, llncs, apa7) and texlive-latex-base
 * (report); every layout compiles with LuaLaTeX.
 */

export interface FrontMatter {
  /** The title as LaTeX (the writer's inline content). */
  title: string;
  /** The abstract's blocks as LaTeX ('' for none). */
  abstract: string;
}

export interface LatexLayout {
  documentClass: string;
  /** Class options besides the paper size. */
  options: string[];
  /** Top-level headings are chapters (report class). */
  chapters: boolean;
  /** The class loads hyperref itself (then only \hypersetup). */
  loadsHyperref: boolean;
  /** The class loads its own math fonts (amssymb would clash). */
  ownMath: boolean;
  /** Extra options the class needs when biblatex is loaded (its own natbib off). */
  biblatexOptions: string[];
  /** Lines after the common preamble. */
  preamble: string;
  /** From \begin{document} to the body. */
  front(p: PreparedDocument, matter: FrontMatter): string;
  /** Before \end{document} (after the bibliography). */
  back?: string;
}

/** The document's LaTeX layout (an unknown value reads as the plain article). */
export function latexClassOf(value: unknown): LatexClass {
  return (LATEX_CLASSES as readonly string[]).includes(String(value)) ? (value as LatexClass) : 'article';
}

const ORCID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

function orcidOf(person: PreparedDocument['authors'][number]): string {
  const orcid = person.orcid.trim();
  return ORCID.test(orcid) ? orcid : '';
}

/** The distinct affiliations, in the authors' order. */
function affiliations(p: PreparedDocument): string[] {
  const list: string[] = [];
  for (const person of p.authors) {
    const name = person.institution.trim();
    if (name && !list.includes(name)) list.push(name);
  }
  return list;
}

function mailto(email: string): string {
  return `\\href{mailto:${email.replace(/[%#&\\{}]/g, (c) => `\\${c}`)}}{${escapeLatex(email)}}`;
}

function keywordsLine(p: PreparedDocument, separator = ', '): string {
  return p.keywords.map(escapeLatex).join(separator);
}

/** "Keywords:" in the document's language, and the keywords. */
export function keywordsParagraph(p: PreparedDocument): string {
  return p.keywords.length
    ? `\\noindent\\textbf{${escapeLatex(documentLabel('keywords', p.language))}:} ${keywordsLine(p)}\n\n`
    : '';
}

function abstractEnvironment(matter: FrontMatter): string {
  return matter.abstract ? `\\begin{abstract}\n${matter.abstract}\\end{abstract}\n` : '';
}

function subtitled(p: PreparedDocument, matter: FrontMatter, command = '\\\\ \\large '): string {
  if (!p.subtitle) return matter.title;
  // Without a title there is no line for the subtitle's line break to end.
  return matter.title ? `${matter.title}${command}${escapeLatex(p.subtitle)}` : escapeLatex(p.subtitle);
}

/**
 * The authors with authblk: each name with its ORCID iD (orcidlink) and e-mail (\thanks), the
 * affiliations numbered once each, as \affil.
 */
function authblk(p: PreparedDocument): string {
  const places = affiliations(p);
  const lines = p.authors.map((person) => {
    const orcid = orcidOf(person) ? `\\,\\orcidlink{${orcidOf(person)}}` : '';
    const email = person.email.trim() ? `\\thanks{${mailto(person.email.trim())}}` : '';
    const affiliation = places.indexOf(person.institution.trim()) + 1;
    const mark = places.length ? `[${affiliation || ''}]` : '';
    return `\\author${mark}{${escapeLatex(authorName(person))}${orcid}${email}}\n`;
  });
  return `${lines.join('')}${places.map((name, index) => `\\affil[${index + 1}]{${escapeLatex(name)}}\n`).join('')}`;
}

const plain = (documentClass: string, chapters: boolean): LatexLayout => ({
  documentClass,
  options: [],
  chapters,
  loadsHyperref: false,
  ownMath: false,
  biblatexOptions: [],
  preamble: '\\usepackage{authblk}\n\\usepackage{orcidlink}\n',
  front: (p, matter) =>
    `\\title{${subtitled(p, matter)}}\n${authblk(p)}\\date{}\n\\begin{document}\n\\maketitle\n${abstractEnvironment(matter)}\n${keywordsParagraph(p)}`,
});

const apa = (mode: 'stu' | 'man'): LatexLayout => ({
  documentClass: 'apa7',
  options: [mode],
  chapters: false,
  // For its ORCID icons.
  loadsHyperref: true,
  ownMath: false,
  biblatexOptions: [],
  preamble: '',
  front: (p, matter) => {
    // APA puts a subtitle after the title and a colon, on the title's line.
    const title = [matter.title, p.subtitle ? escapeLatex(p.subtitle) : ''].filter(Boolean).join(': ');
    // With no named author apa7 gets no author lines at all: empty ones end a line that is not there.
    // An author with no name but an institution is that institution (APA's group author).
    const shown = (person: PreparedDocument['authors'][number]) =>
      authorName(person).trim() || person.institution.trim();
    const named = p.authors.filter(shown);
    const places = affiliations({ ...p, authors: named });
    const authors = named.length
      ? `\\authorsnames${places.length > 1 ? `[${named.map((person) => Math.max(1, places.indexOf(person.institution.trim()) + 1)).join(',')}]` : ''}{${named.map((person) => escapeLatex(shown(person))).join(', ')}}
\\authorsaffiliations{${
          places.length
            ? places
                .map(escapeLatex)
                .map((name) => `{${name}}`)
                .join(', ')
            : '{}'
        }}
`
      : '';
    return `\\title{${title}}
\\shorttitle{${escapeLatex(p.title.slice(0, 50))}}
${authors}${mode === 'stu' ? '% \\course{}, \\professor{} and \\duedate{} for the title page (apa7 shows placeholders).\n' : ''}${matter.abstract ? `\\abstract{${matter.abstract.trim()}}\n` : ''}${p.keywords.length ? `\\keywords{${keywordsLine(p)}}\n` : ''}\\begin{document}
\\maketitle
`;
  },
});

const LAYOUTS: Record<LatexClass, LatexLayout> = {
  article: plain('article', false),
  // Chapters; its contents part writes the table of contents and the lists of figures and tables.
  thesis: {
    ...plain('report', true),
    // Figures, tables and equations numbered through the thesis, as in every other format.
    preamble: `${plain('report', true).preamble}\\counterwithout{figure}{chapter}\n\\counterwithout{table}{chapter}\n\\counterwithout{equation}{chapter}\n`,
  },
  'apa7-student': apa('stu'),
  'apa7-professional': apa('man'),
  'ieee-conference': {
    documentClass: 'IEEEtran',
    options: ['conference'],
    chapters: false,
    loadsHyperref: false,
    ownMath: false,
    biblatexOptions: [],
    // IEEE sets its papers in Times: TeX Gyre Termes (tex-gyre, with texlive-fonts-recommended).
    preamble: '\\setmainfont{TeX Gyre Termes}\n',
    front: (p, matter) => {
      const blocks = p.authors.map((person) => {
        const lines = [person.institution.trim(), person.email.trim()]
          .filter(Boolean)
          .map((line, index) => (index === 1 || line.includes('@') ? mailto(line) : escapeLatex(line)));
        const orcid = orcidOf(person) ? `\\\\ ORCID: ${orcidOf(person)}` : '';
        return `\\IEEEauthorblockN{${escapeLatex(authorName(person))}}\n\\IEEEauthorblockA{${lines.join('\\\\ ')}${orcid}}`;
      });
      return `\\title{${subtitled(p, matter, '\\\\ \\Large ')}}
\\author{${blocks.join('\n\\and\n')}}
\\begin{document}
\\maketitle
${abstractEnvironment(matter)}${p.keywords.length ? `\\begin{IEEEkeywords}\n${keywordsLine(p)}\n\\end{IEEEkeywords}\n` : ''}
`;
    },
  },
  'acm-sigconf': {
    documentClass: 'acmart',
    options: ['sigconf'],
    chapters: false,
    loadsHyperref: true,
    ownMath: true,
    biblatexOptions: ['natbib=false'],
    // No ACM rights block, conference data or ACM reference format: the journal's editor adds them.
    preamble:
      '\\setcopyright{none}\n\\settopmatter{printacmref=false}\n\\renewcommand\\footnotetextcopyrightpermission[1]{}\n\\acmConference{}{}{}\n',
    front: (p, matter) => {
      const authors = p.authors.map((person) => {
        const orcid = orcidOf(person) ? `\\orcid{${orcidOf(person)}}\n` : '';
        const place = person.institution.trim();
        const email = person.email.trim() ? `\\email{${escapeLatex(person.email.trim())}}\n` : '';
        return `\\author{${escapeLatex(authorName(person))}}\n${orcid}\\affiliation{\\institution{${escapeLatex(place || authorName(person))}}\\country{}}\n${email}`;
      });
      return `\\title{${matter.title}}
${p.subtitle ? `\\subtitle{${escapeLatex(p.subtitle)}}\n` : ''}${authors.join('')}${abstractEnvironment(matter)}${p.keywords.length ? `\\keywords{${keywordsLine(p)}}\n` : ''}\\begin{document}
\\maketitle
`;
    },
  },
  elsevier: {
    documentClass: 'elsarticle',
    options: ['preprint', '12pt'],
    chapters: false,
    loadsHyperref: false,
    ownMath: false,
    biblatexOptions: ['nonatbib'],
    preamble: '\\usepackage{orcidlink}\n',
    front: (p, matter) => {
      const places = affiliations(p);
      const authors = p.authors.map((person) => {
        const index = places.indexOf(person.institution.trim()) + 1;
        const orcid = orcidOf(person) ? `\\,\\orcidlink{${orcidOf(person)}}` : '';
        const email = person.email.trim() ? `\\ead{${escapeLatex(person.email.trim())}}\n` : '';
        return `\\author${index ? `[a${index}]` : ''}{${escapeLatex(authorName(person))}${orcid}}\n${email}`;
      });
      return `\\begin{document}
\\begin{frontmatter}
\\title{${subtitled(p, matter, '\\\\ \\large ')}}
${authors.join('')}${places.map((name, index) => `\\affiliation[a${index + 1}]{organization={${escapeLatex(name)}}}\n`).join('')}${abstractEnvironment(matter)}${p.keywords.length ? `\\begin{keyword}\n${keywordsLine(p, ' \\sep ')}\n\\end{keyword}\n` : ''}\\end{frontmatter}
`;
    },
  },
  lncs: {
    documentClass: 'llncs',
    options: [],
    chapters: false,
    loadsHyperref: false,
    ownMath: false,
    biblatexOptions: [],
    preamble: '',
    front: (p, matter) => {
      const places = affiliations(p);
      const authors = p.authors.map((person) => {
        const index = places.indexOf(person.institution.trim()) + 1;
        const orcid = orcidOf(person) ? `\\orcidID{${orcidOf(person)}}` : '';
        return `${escapeLatex(authorName(person))}${index && places.length > 1 ? `\\inst{${index}}` : ''}${orcid}`;
      });
      const emails = (place: string) =>
        p.authors
          .filter((person) => person.institution.trim() === place && person.email.trim())
          .map((person) => `\\email{${escapeLatex(person.email.trim())}}`)
          .join(', ');
      return `\\title{${matter.title}}
${p.subtitle ? `\\subtitle{${escapeLatex(p.subtitle)}}\n` : ''}\\author{${authors.join(' \\and ')}}
\\institute{${places.length ? places.map((place) => `${escapeLatex(place)}${emails(place) ? `\\\\ ${emails(place)}` : ''}`).join(' \\and ') : ''}}
\\begin{document}
\\maketitle
${abstractEnvironment(matter)}${p.keywords.length ? `\\keywords{${keywordsLine(p, ' \\and ')}}\n` : ''}
`;
    },
  },
};

export function latexLayout(latexClass: LatexClass): LatexLayout {
  return LAYOUTS[latexClass];
}

/** The layouts whose class sets the text in two columns. */
export const TWO_COLUMN_CLASSES: ReadonlySet<LatexClass> = new Set<LatexClass>([
  'ieee-conference',
  'acm-sigconf',
]);

/** An image at least this many times as wide as high is a wide figure. */
const WIDE_ASPECT = 2;
/** A table of at least this many columns is a wide table. */
const WIDE_COLUMNS = 5;

/**
 * A figure or table wider than a column: in a two-column layout it spans both, at the top of a
 * page (LaTeX's figure* and table*, the typeset PDF's column-span). A figure's width setting is a
 * share of its column (at most all of it), so it cannot ask for more: a figure at its full width
 * whose image is at least twice as wide as high spans, one set narrower stays in its column. A
 * table spans from five columns on.
 */
export function spansColumns(node: PMNode, images: PreparedDocument['images']): boolean {
  if (node.type.name === 'table') return TableMap.get(node).width >= WIDE_COLUMNS;
  if (node.type.name !== 'figure' || isEquationFigure(node)) return false;
  if ((Number(node.attrs.width) || 100) < 100) return false;
  const image = images[String(node.attrs.src)];
  const size = image ? imageSize(image) : null;
  return size !== null && size.height > 0 && size.width >= WIDE_ASPECT * size.height;
}

/** Whether the document is set in two columns (its LaTeX layout's class). */
export function twoColumns(p: PreparedDocument): boolean {
  return TWO_COLUMN_CLASSES.has(latexClassOf(p.doc.attrs.latex_class));
}
