import { htmlToRuns } from './text';

/**
 * How a LaTeX export cites (issue 53). A CSL style with a matching biblatex style in TeX Live
 * (Debian's texlive-bibtex-extra) is written as \autocite/\textcite with that style loaded, so a
 * journal's editor gets ordinary biblatex; any other style is written as citeproc rendered it, so
 * the compiled PDF cites exactly as the DOCX, ODT, HTML and PDF exports do.
 */

/** The biblatex package line per CSL style id (docs/export-import.md lists them). */
export const BIBLATEX_STYLES: Readonly<Record<string, string>> = {
  apa: '\\usepackage[style=apa,backend=biber]{biblatex}',
  ieee: '\\usepackage[style=ieee,backend=biber]{biblatex}',
  'ieee-with-url': '\\usepackage[style=ieee,backend=biber]{biblatex}',
  'chicago-author-date': '\\usepackage[authordate,backend=biber]{biblatex-chicago}',
  // CSL's "note" Chicago gives short notes from the first citation on: biblatex-chicago's `short`.
  'chicago-note-bibliography': '\\usepackage[notes,short,backend=biber]{biblatex-chicago}',
  'chicago-fullnote-bibliography': '\\usepackage[notes,backend=biber]{biblatex-chicago}',
  nature: '\\usepackage[style=nature,backend=biber]{biblatex}',
  vancouver: '\\usepackage[style=vancouver,backend=biber]{biblatex}',
  'american-chemical-society': '\\usepackage[style=chem-acs,backend=biber]{biblatex}',
};

/** Languages (of the document, BCP 47) a mapped style has no localisation for: biblatex-apa's lbx files. */
const UNSUPPORTED: Readonly<Record<string, RegExp>> = { apa: /^bg\b/i };

/**
 * The biblatex package line for a CSL style in the document's language, or null: citeproc's
 * rendering is written instead.
 */
export function biblatexPackage(cslStyle: string, language = 'en-US'): string | null {
  if (UNSUPPORTED[cslStyle]?.test(language)) return null;
  return BIBLATEX_STYLES[cslStyle] ?? null;
}

/** The package line when nothing was rendered (no style could be loaded): plain author-year. */
export const FALLBACK_BIBLATEX = '\\usepackage[style=authoryear,backend=biber]{biblatex}';

const SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '^': '\\textasciicircum{}',
  _: '\\_',
  '%': '\\%',
  '~': '\\textasciitilde{}',
};

export function escapeLatex(text: string): string {
  return text.replace(/[\\{}$&#^_%~]/g, (char) => SPECIAL[char]);
}

/** citeproc's HTML (a rendered citation or part of an entry) as LaTeX text. */
export function citeprocToLatex(html: string): string {
  // A numeric entry's label and text are two divs: a space between them.
  return htmlToRuns(html.replace(/<\/div>\s*<div[^>]*>/g, ' ').replace(/\s+/g, ' '))
    .map((run) => {
      let out = escapeLatex(run.text);
      if (run.italic) out = `\\emph{${out}}`;
      if (run.bold) out = `\\textbf{${out}}`;
      if (run.smallcaps) out = `\\textsc{${out}}`;
      if (run.sup) out = `\\textsuperscript{${out}}`;
      if (run.sub) out = `\\textsubscript{${out}}`;
      return out;
    })
    .join('')
    .trim();
}

/**
 * citeproc's bibliography as a LaTeX list: an entry with a label in the margin (IEEE's "[1]") has
 * it as the item's label, flush in a column as wide as the widest; others hang by 2em.
 */
export function citeprocBibliography(entries: readonly string[], heading: string): string {
  if (!entries.length) return '';
  const margin = /<div class="csl-left-margin">([\s\S]*?)<\/div>/;
  const labels = entries.map((entry) => margin.exec(entry)?.[1]);
  const labelled = labels.every((label) => label !== undefined);
  const items = entries.map((entry, index) =>
    labelled
      ? `\\item[{${citeprocToLatex(labels[index] as string)}}] ${citeprocToLatex(entry.replace(margin, ''))}`
      : `\\item ${citeprocToLatex(entry)}`,
  );
  const widest = labelled
    ? citeprocToLatex(labels.reduce((a, b) => ((b ?? '').length > (a ?? '').length ? b : a), '') ?? '')
    : '';
  const list = labelled
    ? `\\begin{list}{}{\\settowidth{\\labelwidth}{${widest}}\\setlength{\\leftmargin}{\\dimexpr\\labelwidth+\\labelsep\\relax}\\renewcommand{\\makelabel}[1]{#1\\hfil}}`
    : '\\begin{list}{}{\\setlength{\\leftmargin}{2em}\\setlength{\\itemindent}{-2em}}';
  return `${heading}\n${list}\n${items.join('\n')}\n\\end{list}\n\n`;
}
