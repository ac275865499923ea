import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { CslJson } from '../bibliography/citation-render';
import { type CompactNode, expandNode } from '../bibliography/csl-compact';
import type { EntryData } from '../bibliography/types';
import { citationKeys, madeUpKey } from './citation-keys';
import { JOURNAL_EMAIL, JOURNAL_ORCID, journalPaper } from './fixture-journal';
import { withWideFloats } from './fixture-wide-floats';
import { exportJats } from './jats';
import { exportLatex } from './latex';
import { latexBibliography } from './latex-bib';
import { BIBLATEX_STYLES } from './latex-citations';
import { type ExportInput, prepareDocument } from './model';

/** Issue 53: LaTeX a journal accepts, JATS a repository ingests. */

// The static assets the browser fetches (web/public/csl), read straight from disk here.
const asset = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'));

function csl(style: string, locale = 'en-US'): ExportInput['csl'] {
  return {
    name: style,
    style: expandNode(asset(`styles/${style}`) as CompactNode) as unknown as CslJson,
    locales: { [locale]: asset(`locale-data/${locale}`) },
    locale,
  };
}

function latexFiles(style: string, language = 'en-US'): { tex: string; bib: string } {
  const input = journalPaper(style, csl(style, language));
  (input.content as { attrs: Record<string, unknown> }).attrs.language = language;
  const files = unzipSync(exportLatex(prepareDocument(input, undefined, { accepted: true })));
  return { tex: strFromU8(files['document.tex']), bib: strFromU8(files['bibliography.bib']) };
}

const entry = (fields: Record<string, unknown>, key = ''): EntryData => ({
  entry_key: key,
  bib_type: 'article',
  fields: fields as EntryData['fields'],
  cats: [],
});
const text = (value: string) => [{ type: 'text', text: value }];

describe('citation keys', () => {
  it('keeps the user’s keys, makes readable ones for entries without, unique in the document', () => {
    const keys = citationKeys(
      new Map([
        [
          '1-1',
          entry({ author: [{ family: text('Noether') }], date: '1991-05', title: text('On the Structure') }),
        ],
        ['1-0', entry({}, 'source0')],
        ['1-2', entry({}, 'Source0')],
        ['1-3', entry({}, 'noether1991structure')],
        ['1-4', entry({ author: [{ literal: text('Ærø Ünïon') }], title: text('A study') }, ' ')],
        ['1-5', entry({}, 'a&b {c}')],
      ]),
    );
    expect([...keys]).toEqual([
      // The user's key noether1991structure was there first: the made-up one steps aside.
      ['1-1', 'noether1991structure_2'],
      ['1-0', 'source0'],
      ['1-2', 'Source0_2'],
      ['1-3', 'noether1991structure'],
      ['1-4', 'aerounionstudy'],
      ['1-5', 'a-b--c-'],
    ]);
    expect(madeUpKey(entry({}))).toBe('entry');
  });
});

describe('.bib as BibTeX needs it', () => {
  it('braces nocase spans and every capital the other formats keep, escapes LaTeX, writes sub/superscripts as math', () => {
    const bib = latexBibliography([
      {
        key: 'k',
        entry: entry({
          title: [
            { type: 'text', text: 'The ' },
            { type: 'text', text: 'DNA', marks: [{ type: 'nocase' }] },
            { type: 'text', text: ' of NASA missions: H' },
            { type: 'text', text: '2', marks: [{ type: 'sub' }] },
            { type: 'text', text: 'O in 50% & #1 of iPhone cases. Results' },
          ],
          journaltitle: text('Journal of A_B'),
          author: [{ literal: text('World Health Organization') }],
        }),
      },
    ]);
    const subscript = '$_{2}$';
    expect(bib).toContain(
      `title = {The {DNA} of {NASA} missions: {H}${subscript}{O} in 50{\\%} {\\&} {\\#}1 of {iPhone} cases. {Results}},`,
    );
    expect(bib).toContain('journaltitle = {Journal of A{\\_}B},');
    // A corporate author keeps its own braces.
    expect(bib).toContain('author = {{World Health Organization}}');
  });
});

describe('LaTeX export', () => {
  it('cites with the user’s keys and maps APA, IEEE and Chicago to their biblatex styles', () => {
    const apa = latexFiles('apa');
    expect(apa.tex).toContain('\\usepackage[style=apa,backend=biber]{biblatex}');
    expect(apa.tex).toContain('\\autocite[5]{source0} and \\textcite{noether1991structure}');
    expect(apa.tex).toContain('\\autocite{Source0_2}');
    expect(apa.tex).not.toMatch(/\{1-\d+\}/);
    expect(apa.bib).toMatch(/^@article\{source0,$/m);
    expect(apa.bib).toMatch(/^@article\{noether1991structure,$/m);
    expect(apa.bib).toMatch(/^@article\{Source0_2,$/m);
    expect(apa.bib).toContain(
      'title = {The {DNA} of {NASA} missions {and} {{\\mkbibitalic{E. coli}}} in 50{\\%} {\\&} more of {iPhone} users},',
    );
    expect(apa.tex).toContain('\\printbibliography[title={Bibliography}]');
    expect(latexFiles('ieee').tex).toContain('\\usepackage[style=ieee,backend=biber]{biblatex}');
    const chicago = latexFiles('chicago-note-bibliography');
    expect(chicago.tex).toContain('\\usepackage[notes,short,backend=biber]{biblatex-chicago}');
    // biblatex-chicago prints titles as given; CSL's Chicago title-cases them.
    expect(chicago.bib).toContain(
      'title = {The {DNA} of {NASA} Missions {and} {{\\mkbibitalic{E. coli}}} in 50{\\%} {\\&} More of {iPhone} Users},',
    );
    expect(chicago.bib).toContain('title = {On the Structure of Problem 1},');
    expect(apa.bib).toContain('title = {On the structure of problem 1},');
    expect(latexFiles('chicago-fullnote-bibliography').tex).toContain(
      '\\usepackage[notes,backend=biber]{biblatex-chicago}',
    );
    expect(Object.keys(BIBLATEX_STYLES)).toContain('chicago-author-date');
  });

  it('writes citeproc’s citations and bibliography for a style biblatex has no match for', () => {
    const harvard = latexFiles('harvard-cite-them-right');
    expect(harvard.tex).not.toContain('\\usepackage[style');
    expect(harvard.tex).not.toContain('\\autocite');
    expect(harvard.tex).toContain('with (Lovelace, 1990, p. 5) and Noether (1991) and');
    expect(harvard.tex).toContain('\\section*{Bibliography}\n\\begin{list}{}{\\setlength{\\leftmargin}{2em}');
    expect(harvard.tex).toContain(
      '\\item Hopper, A. (1993) \\emph{On the structure of problem 3}. Berlin: Open Press.',
    );
    // The entries still travel with it, under their keys.
    expect(harvard.bib).toMatch(/^@book\{source3,$/m);
    // A note style: the citations are footnotes, as in the DOCX.
    const notes = latexFiles('chicago-note-bibliography-16th-edition');
    expect(notes.tex).not.toContain('\\usepackage[style');
    expect(notes.tex).toMatch(/\\footnote\{Lovelace/);
    // A numeric style: the labels stand in their own column.
    const ama = latexFiles('american-medical-association');
    expect(ama.tex).toContain('\\item[{1.}] Lovelace A.');
  });

  it('writes citeproc’s text where the mapped style lacks the document’s language, with Cyrillic fonts', () => {
    // biblatex-apa has no Bulgarian: its citations would not compile.
    const { tex } = latexFiles('apa', 'bg-BG');
    expect(tex).not.toContain('\\usepackage[style=apa');
    expect(tex).not.toContain('\\autocite');
    expect(tex).toContain(
      '\\newfontfamily\\cyrillicfont{DejaVu Serif}\n\\newfontfamily\\cyrillicfontsf{DejaVu Sans}',
    );
    expect(latexFiles('ieee', 'bg-BG').tex).toContain('\\usepackage[style=ieee,backend=biber]{biblatex}');
  });

  it('names the authors with affiliations, ORCID iD and e-mail', () => {
    const { tex } = latexFiles('apa');
    expect(tex).toContain(
      `\\author[1]{Ada Lovelace\\,\\orcidlink{${JOURNAL_ORCID}}\\thanks{\\href{mailto:${JOURNAL_EMAIL}}{ada\\_lovelace@example.org}}}`,
    );
    expect(tex).toContain('\\author[2]{Emmy Noether}');
    expect(tex).toContain('\\affil[1]{Analytical Society}\n\\affil[2]{University of Göttingen}');
  });
});

describe('JATS export', () => {
  const xml = () =>
    strFromU8(
      unzipSync(exportJats(prepareDocument(journalPaper('apa', csl('apa')), undefined, { accepted: true })))[
        'article.xml'
      ],
    );

  it('declares the JATS 1.2 Archiving DTD with MathML3, public and system identifier alike', () => {
    expect(xml()).toContain(
      '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD with MathML3 v1.2 20190208//EN" "JATS-archivearticle1-mathml3.dtd">',
    );
    expect(xml()).toContain('dtd-version="1.2"');
  });

  it('writes references as structured element-citations with their titles’ case and markup', () => {
    const out = xml();
    expect(out).toContain(
      '<ref id="ref-source0"><element-citation publication-type="journal"><person-group person-group-type="author"><name><surname>Lovelace</surname><given-names>Ada</given-names></name></person-group><article-title>The DNA of NASA missions and <italic>E. coli</italic> in 50% &amp; more of iPhone users</article-title><source>Journal of Examples</source><year>1990</year><volume>10</volume><issue>3</issue><fpage>1</fpage><lpage>9</lpage><pub-id pub-id-type="doi">10.1000/xyz_1</pub-id></element-citation></ref>',
    );
    expect(out).toContain(
      '<element-citation publication-type="book"><person-group person-group-type="author"><name><surname>Hopper</surname><given-names>Ada</given-names></name></person-group><source>On the structure of problem 3</source><year>1993</year><publisher-loc>Berlin</publisher-loc><publisher-name>Open Press</publisher-name></element-citation>',
    );
    expect(out).toContain('<ref id="ref-noether1991structure">');
    expect(out).toContain('<ref id="ref-Source0_2">');
    expect(out).toContain('<xref ref-type="bibr" rid="ref-source0">(Lovelace, 1990, p. 5)</xref>');
    expect(out).not.toContain('nocase');
    expect(out).not.toContain('&lt;');
  });

  it('names the authors with ORCID iD, e-mail and affiliations', () => {
    expect(xml()).toContain(
      `<contrib-group><contrib contrib-type="author"><contrib-id contrib-id-type="orcid">https://orcid.org/${JOURNAL_ORCID}</contrib-id><name><surname>Lovelace</surname><given-names>Ada</given-names></name><email>${JOURNAL_EMAIL}</email><xref ref-type="aff" rid="aff1"/></contrib><contrib contrib-type="author"><name><surname>Noether</surname><given-names>Emmy</given-names></name><xref ref-type="aff" rid="aff2"/></contrib><aff id="aff1">Analytical Society</aff><aff id="aff2">University of Göttingen</aff></contrib-group>`,
    );
  });
});

describe('floats wider than a column', () => {
  /** The .tex of the journal paper with a wide figure and table, in `layout`. */
  const texOf = (layout: string, widen = true): string => {
    const paper = journalPaper('ieee', csl('ieee'));
    const input = widen ? withWideFloats(paper) : paper;
    (input.content as { attrs: Record<string, unknown> }).attrs.latex_class = layout;
    return strFromU8(unzipSync(exportLatex(prepareDocument(input)))['document.tex']);
  };

  it('span both columns in IEEEtran and acmart sigconf: figure* and table* at the top of a page', () => {
    for (const layout of ['ieee-conference', 'acm-sigconf']) {
      const tex = texOf(layout);
      expect(tex, layout).toMatch(
        /\\begin\{figure\*\}\[tp\]\n\\centering\n\\includegraphics\[width=1\.00\\linewidth\]/,
      );
      expect(tex, layout).toMatch(/\\begin\{table\*\}\[tp\][\s\S]*?Wide values[\s\S]*?\\end\{table\*\}/);
      // The paper's other figures (60 % of the column) and its three-column table stay in their column.
      expect(tex.match(/\\begin\{figure\}\[htbp\]/g)?.length, layout).toBeGreaterThan(0);
      expect(tex.match(/\\begin\{table\}\[htbp\]/g)?.length, layout).toBe(1);
      expect(texOf(layout, false), layout).not.toMatch(/\\begin\{(figure|table)\*\}/);
    }
  });

  it('stay floats of the one column in the other layouts', () => {
    for (const layout of ['article', 'elsevier', 'lncs'])
      expect(texOf(layout), layout).not.toContain('*}[tp]');
  });
});
