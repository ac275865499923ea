import { zipSync } from 'fflate';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import type { CslItem } from '../bibliography/export';
import { exportCslItems } from '../bibliography/export';
import { renderLatex } from '../editor/academic-math';
import { documentLabel } from '../editor/academic-numbering';
import { citationKeys } from './citation-keys';
import { imageFiles } from './images';
import { elementCitation } from './jats-references';
import { type Contributor, isEquationFigure, type PreparedDocument } from './model';
import { escapeXml, htmlToText } from './text';
import { figureSources, NodeWriter } from './writer';

/**
 * The DTD the export declares and is validated against (server/test/export-validation.test.ts):
 * JATS 1.2 Archiving and Interchange with MathML3, the newest one we can supply (docs/export-import.md).
 */
export const JATS_DOCTYPE =
  '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD with MathML3 v1.2 20190208//EN" "JATS-archivearticle1-mathml3.dtd">';

/**
 * JATS 1.2 (Archiving and Interchange) export: article XML with MathML (and the LaTeX source as
 * tex-math), sections nested by heading level, figures with their graphics, notes (`fn`), and the
 * references as element-citation; a zip with the images. Suggestions are exported accepted.
 */

const MML = 'http://www.w3.org/1998/Math/MathML';

/** Temml's MathML with the mml: prefix JATS uses. */
function jatsMath(latex: string, display: boolean): string {
  const result = renderLatex(latex, display);
  const tex = `<tex-math><![CDATA[${latex.replace(/]]>/g, ']]]]><![CDATA[>')}]]></tex-math>`;
  if (!result.ok) return tex;
  const mathml = result.mathml
    .replace(/<(\/?)([a-zA-Z]+)/g, '<$1mml:$2')
    .replace(/ (class|style)="[^"]*"/g, '')
    .replace(/&nbsp;/g, '&#160;');
  return `<alternatives>${mathml}${tex}</alternatives>`;
}

const MARKS: Record<string, string> = {
  em: 'italic',
  strong: 'bold',
  underline: 'underline',
  sup: 'sup',
  sub: 'sub',
  code: 'monospace',
  smallcaps: 'sc',
};

class JatsWriter extends NodeWriter {
  /** JATS carries the text as it reads once the suggestions are accepted. */
  protected readonly accepted = true;
  readonly notes: string[] = [];
  readonly images: ReturnType<typeof imageFiles>;
  readonly refIds: Map<string, string>;
  /** The ids of the headings (each written on its sec or p): targets of internal links. */
  private readonly headingIds = new Set<string>();

  constructor(private readonly prepared: PreparedDocument) {
    super();
    this.refIds = refIds(prepared);
    prepared.doc.descendants((node) => {
      if (node.type.name === 'heading' && node.attrs.id) this.headingIds.add(String(node.attrs.id));
    });
    this.images = imageFiles(figureSources(prepared.doc), prepared.images, (image) =>
      ['image/png', 'image/jpeg', 'image/gif'].includes(image.type),
    );
  }

  protected wrapMarks(content: string, own: readonly Mark[]): string | null {
    return this.acceptedMarks(
      content,
      own,
      (out, name) => (MARKS[name] ? `<${MARKS[name]}>${out}</${MARKS[name]}>` : out),
      (out, href) =>
        href.startsWith('#')
          ? // A link to a heading that is gone keeps its text (an xref must name an id of the article).
            this.prepared.numbering.byId.has(href.slice(1)) || this.headingIds.has(href.slice(1))
            ? `<xref rid="${escapeXml(href.slice(1))}">${out}</xref>`
            : out
          : `<ext-link ext-link-type="uri" xlink:href="${escapeXml(href)}">${out}</ext-link>`,
    );
  }

  protected text(text: string): string {
    return escapeXml(text);
  }

  /** JATS has <break/> in titles and table cells only: in a paragraph a line break is a newline. */
  private breaks = false;

  protected get hardBreak(): string {
    return this.breaks ? '<break/>' : '\n';
  }

  /** Inline content where <break/> may stand (or, `breaks` false, may not). */
  breaking(node: PMNode, breaks = true): string {
    const outer = this.breaks;
    this.breaks = breaks;
    try {
      return this.inlineContent(node);
    } finally {
      this.breaks = outer;
    }
  }

  note(node: PMNode): string {
    const n = this.notes.length + 1;
    const outer = this.breaks;
    this.breaks = false;
    const paragraphs = this.noteParagraphs(node).map((paragraph) => `<p>${paragraph}</p>`);
    this.breaks = outer;
    this.notes.push(`<fn id="fn${n}"><label>${n}</label>${paragraphs.join('')}</fn>`);
    return `<xref ref-type="fn" rid="fn${n}">${n}</xref>`;
  }

  protected equation(latex: string): string {
    return `<inline-formula>${jatsMath(latex, false)}</inline-formula>`;
  }

  protected citation(node: PMNode): string {
    const refs = (node.attrs.references as { id: string }[]).filter((ref) =>
      this.prepared.entries.has(ref.id),
    );
    const rendered = this.prepared.citations.get(node);
    const text = escapeXml(rendered ? htmlToText(rendered) : refs.map((ref) => ref.id).join('; '));
    return refs.length
      ? `<xref ref-type="bibr" rid="${refs.map((ref) => this.refIds.get(ref.id)).join(' ')}">${text}</xref>`
      : text;
  }

  protected crossReference(id: string): string {
    const target = this.prepared.numbering.byId.get(id);
    if (!target) return '??';
    const type = { heading: 'sec', figure: 'fig', table: 'table', equation: 'disp-formula' }[target.kind];
    return `<xref ref-type="${type}" rid="${escapeXml(id)}">${escapeXml(target.label)}</xref>`;
  }

  /** Blocks, with sections opened at each heading and closed at the next of its level or above. */
  section(parent: PMNode): string {
    let out = '';
    const open: number[] = [];
    let sections = 0;
    parent.forEach((node) => {
      if (node.type.name === 'heading') {
        const level = Number(node.attrs.level);
        while (open.length && open[open.length - 1] >= level) {
          out += '</sec>';
          open.pop();
        }
        const id = node.attrs.id ? String(node.attrs.id) : `sec-${++sections}`;
        // The document's heading numbering: JATS's own <label> before the title.
        const display = this.prepared.numbers.get(node)?.display;
        const label = display ? `<label>${escapeXml(display)}</label>` : '';
        out += `<sec id="${escapeXml(id)}">${label}<title>${this.breaking(node)}</title>`;
        open.push(level);
      } else out += this.block(node);
    });
    return out + '</sec>'.repeat(open.length);
  }

  /** A list item's blocks: it holds p and lists only, so the others (code, tables, quotes) go in a p. */
  private itemBlocks(item: PMNode): string {
    let out = '';
    for (const child of this.keptChildren(item)) {
      const block = this.withChanges(child, () => this.block(child));
      out += /^<(p|list)[ >]/.test(block) || !block ? block : `<p>${block}</p>`;
    }
    return out;
  }

  block(node: PMNode): string {
    const id = node.attrs.id ? ` id="${escapeXml(String(node.attrs.id))}"` : '';
    switch (node.type.name) {
      case 'paragraph':
        return `<p>${this.breaking(node, false)}</p>`;
      case 'heading':
        // A heading out of the sections (in a list or quote): its id stays a cross-reference target.
        return `<p${id}><bold>${this.breaking(node, false)}</bold></p>`;
      case 'blockquote':
        return `<disp-quote>${this.blocks(node)}</disp-quote>`;
      case 'code_block':
        return `<preformat>${escapeXml(node.textContent)}</preformat>`;
      case 'horizontal_rule':
        return '';
      case 'bullet_list':
      case 'ordered_list': {
        let items = '';
        for (const item of this.keptChildren(node))
          items += `<list-item>${this.withChanges(item, () => this.itemBlocks(item))}</list-item>`;
        if (!items) return '';
        return `<list list-type="${node.type.name === 'bullet_list' ? 'bullet' : 'order'}">${items}</list>`;
      }
      case 'table': {
        let rows = '';
        for (const row of this.keptChildren(node)) {
          let cells = '';
          for (const cell of this.keptChildren(row)) {
            const tag = cell.type.name === 'table_header' ? 'th' : 'td';
            const span = `${cell.attrs.colspan > 1 ? ` colspan="${cell.attrs.colspan}"` : ''}${cell.attrs.rowspan > 1 ? ` rowspan="${cell.attrs.rowspan}"` : ''}`;
            let inner = '';
            if (cell.childCount === 1 && cell.firstChild?.type.name === 'paragraph')
              inner = this.breaking(cell.firstChild);
            // td holds p and list but no table-wrap, fig or disp-quote: those go in a p, which may.
            else
              cell.forEach((child) => {
                const block = this.block(child);
                inner += /^<(p|list)[ >]/.test(block) || !block ? block : `<p>${block}</p>`;
              });
            cells += `<${tag}${span}>${inner}</${tag}>`;
          }
          if (cells) rows += `<tr>${cells}</tr>`;
        }
        const target = this.prepared.numbers.get(node);
        return `<table-wrap${id}>${target ? `<label>${escapeXml(target.label)}</label>` : ''}<caption><p>${escapeXml(String(node.attrs.caption))}</p></caption><table><tbody>${rows}</tbody></table></table-wrap>`;
      }
      case 'figure': {
        const target = this.prepared.numbers.get(node);
        const label = target ? `<label>${escapeXml(target.label)}</label>` : '';
        if (isEquationFigure(node)) {
          const formula = `<disp-formula${id}>${label}${jatsMath(String(node.attrs.equation), true)}</disp-formula>`;
          // disp-formula has no caption: a captioned equation is a fig of the equation kind around it.
          const caption = String(node.attrs.caption);
          return caption
            ? `<p><fig fig-type="equation"><caption><p>${escapeXml(caption)}</p></caption>${formula}</fig></p>`
            : `<p>${formula}</p>`;
        }
        const file = this.images.get(String(node.attrs.src));
        const graphic = file
          ? `<graphic xlink:href="${file.name}" mimetype="image" mime-subtype="${file.name.split('.').pop() === 'jpg' ? 'jpeg' : file.name.split('.').pop()}"/>`
          : '';
        return `<fig${id}>${label}<caption><p>${escapeXml(String(node.attrs.caption))}</p></caption>${graphic}</fig>`;
      }
      default:
        return '';
    }
  }
}

/** Each entry's ref id: "ref-" and its citation key (as the LaTeX export's .bib has it), unique. */
function refIds(prepared: PreparedDocument): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const [entry, key] of citationKeys(prepared.entries)) {
    const base = `ref-${key.replace(/[^A-Za-z0-9_.-]/g, '-')}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    ids.set(entry, id);
  }
  return ids;
}

function references(prepared: PreparedDocument, ids: ReadonlyMap<string, string>): string {
  const cited = new Set<string>();
  for (const node of prepared.citations.keys())
    for (const ref of node.attrs.references as { id: string }[])
      if (prepared.entries.has(ref.id)) cited.add(ref.id);
  if (!cited.size) return '';
  const refs = [...cited]
    .map((key) => {
      const entry = prepared.entries.get(key)!;
      let item: CslItem;
      try {
        [item] = exportCslItems([{ ...entry, entry_key: key }]);
      } catch {
        // An entry the converter cannot read still gets its ref (the citations point to it).
        item = { id: key, type: 'document' };
      }
      return `<ref id="${ids.get(key)}">${elementCitation(entry, item)}</ref>`;
    })
    .join('');
  return `<ref-list><title>${escapeXml(documentLabel('bibliography', prepared.language))}</title>${refs}</ref-list>`;
}

/**
 * The authors: ORCID iD as its URI (contrib-id), name, e-mail, and a cross-reference to their
 * affiliation; each affiliation once, after the contributors (JATS4R's recommendation).
 */
function contributorGroup(authors: readonly Contributor[]): string {
  if (!authors.length) return '';
  const affiliations: string[] = [];
  for (const person of authors) {
    const name = person.institution.trim();
    if (name && !affiliations.includes(name)) affiliations.push(name);
  }
  const contributors = authors.map((person) => {
    const orcid = person.orcid.trim();
    const affiliation = affiliations.indexOf(person.institution.trim()) + 1;
    return `<contrib contrib-type="author">${orcid ? `<contrib-id contrib-id-type="orcid">${escapeXml(/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(orcid) ? `https://orcid.org/${orcid}` : orcid)}</contrib-id>` : ''}<name><surname>${escapeXml(person.lastname)}</surname><given-names>${escapeXml(person.firstname)}</given-names></name>${person.email.trim() ? `<email>${escapeXml(person.email.trim())}</email>` : ''}${affiliation ? `<xref ref-type="aff" rid="aff${affiliation}"/>` : ''}</contrib>`;
  });
  return `<contrib-group>${contributors.join('')}${affiliations.map((name, index) => `<aff id="aff${index + 1}">${escapeXml(name)}</aff>`).join('')}</contrib-group>`;
}

export function exportJats(prepared: PreparedDocument): Uint8Array {
  const p = prepared;
  const writer = new JatsWriter(p);
  const body = p.body.map((part) => writer.section(part)).join('');
  const abstract = p.abstract ? `<abstract>${writer.blocks(p.abstract)}</abstract>` : '';
  const title = writer.breaking(p.doc.firstChild as PMNode);
  const contributors = contributorGroup(p.authors);
  const keywords = p.keywords.length
    ? `<kwd-group>${p.keywords.map((keyword) => `<kwd>${escapeXml(keyword)}</kwd>`).join('')}</kwd-group>`
    : '';
  const notes = writer.notes.length ? `<fn-group>${writer.notes.join('')}</fn-group>` : '';
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
${JATS_DOCTYPE}
<article xmlns:mml="${MML}" xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article" dtd-version="1.2" xml:lang="${escapeXml(p.language)}">
<front><article-meta><title-group><article-title>${title}</article-title>${p.subtitle ? `<subtitle>${escapeXml(p.subtitle)}</subtitle>` : ''}</title-group>${contributors}${abstract}${keywords}</article-meta></front>
<body>${body}</body>
<back>${notes}${references(p, writer.refIds)}</back>
</article>
`;
  const files: Record<string, Uint8Array> = { 'article.xml': new TextEncoder().encode(xml) };
  for (const file of writer.images.values()) files[file.name] = file.image.data;
  return zipSync(files, { level: 6 });
}
