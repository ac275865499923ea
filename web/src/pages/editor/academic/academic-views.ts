import { BIBLIOGRAPHY_LAYOUT_CSS, bibliographyBody } from '@scriptorium/common/bibliography/layout';
import { renderLatex } from '@scriptorium/common/editor/academic-math';
import { type CitationReference, crossReferenceForm } from '@scriptorium/common/editor/academic-nodes';
import { crossReferencePieces, PAGE_PLACEHOLDER } from '@scriptorium/common/editor/academic-numbering';
import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection } from 'prosemirror-state';
import type { Decoration, EditorView, NodeView, NodeViewConstructor } from 'prosemirror-view';
import { sanitizeHtml } from '../../flatpage/sanitize-html';
import './academic.css';
import type { BibliographyDecoration, CitationDecoration } from './academic-plugin';

/**
 * Node views of the academic nodes: equations drawn as MathML (Temml), figures with their number
 * and caption, citations and cross-references with the texts the academic plugin computed (node
 * decorations), and the bibliography section at the end. LaTeX errors, missing entries, targets
 * and images are drawn as such, in red, and never stop the document from opening.
 */

export interface AcademicViewContext {
  t(key: string, options?: Record<string, unknown>): string;
  /** Opens the dialog that edits the node at pos (the math field, the figure or citation picker). */
  edit(kind: 'math' | 'figure' | 'citation', pos: number): void;
}

function parseMath(target: HTMLElement, latex: string, display: boolean, t: AcademicViewContext['t']): void {
  const result = renderLatex(latex, display);
  target.classList.toggle('doc-math-error', !result.ok);
  if (result.ok) {
    // Temml's MathML of our own rendering; the LaTeX is untrusted but Temml escapes text and
    // refuses \href and friends (trust: false).
    target.innerHTML = result.mathml;
    target.removeAttribute('title');
  } else {
    target.textContent = latex || t('academic.emptyEquation');
    target.title = result.error === 'empty' ? t('academic.emptyEquation') : result.error;
  }
}

/**
 * Citeproc's HTML, with everything but formatting removed (entry texts are user data). A long
 * paper repeats the same citations: each distinct text is cleaned once and copied after that.
 */
const cleaned = new Map<string, DocumentFragment>();
export function safeHtml(html: string): DocumentFragment {
  let fragment = cleaned.get(html);
  if (!fragment) {
    if (cleaned.size > 5000) cleaned.clear();
    // citeproc's layout classes (csl-entry, csl-left-margin, ...) stay: the layout rules read them.
    fragment = sanitizeHtml(html, document, (value) => /^csl-[a-z-]+$/.test(value));
    cleaned.set(html, fragment);
  }
  return fragment.cloneNode(true) as DocumentFragment;
}

function decorationSpec<T>(decorations: readonly Decoration[], key: string): T | undefined {
  for (const decoration of decorations) {
    const spec = (decoration as unknown as { spec: Record<string, unknown> }).spec;
    if (spec && key in spec) return spec[key] as T;
  }
  return undefined;
}

/** Sets a view's own classes, keeping ProseMirror's mark of a selected node (a figure renumbered while selected stays highlighted). */
function setClasses(dom: HTMLElement, classes: string): void {
  const selected = dom.classList.contains('ProseMirror-selectednode');
  dom.className = classes;
  if (selected) dom.classList.add('ProseMirror-selectednode');
}

/** What ProseMirror hands every atom's view, with the plugin's context. */
interface AtomArgs {
  node: PMNode;
  view: EditorView;
  getPos: () => number | undefined;
  context: AcademicViewContext;
}

abstract class AtomView implements NodeView {
  dom: HTMLElement;
  protected node: PMNode;
  protected readonly view: EditorView;
  protected readonly getPos: () => number | undefined;
  protected readonly context: AcademicViewContext;
  constructor({ node, view, getPos, context }: AtomArgs, tag: string) {
    this.node = node;
    this.view = view;
    this.getPos = getPos;
    this.context = context;
    this.dom = document.createElement(tag);
    this.dom.addEventListener('dblclick', (event) => {
      const pos = this.getPos();
      if (pos === undefined || !this.view.editable) return;
      event.preventDefault();
      this.view.dispatch(this.view.state.tr.setSelection(NodeSelection.create(this.view.state.doc, pos)));
      this.onEdit(pos);
    });
  }
  protected abstract onEdit(pos: number): void;
  /** Draws the node; cheap when nothing it shows changed (each view keeps a key of what it drew). */
  protected abstract render(node: PMNode, decorations: readonly Decoration[]): void;
  update(node: PMNode, decorations: readonly Decoration[]): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render(node, decorations);
    return true;
  }
  ignoreMutation(): boolean {
    return true;
  }
  stopEvent(): boolean {
    return false;
  }
}

class EquationView extends AtomView {
  private latex: string | null = null;
  constructor(atom: AtomArgs) {
    super(atom, 'span');
    this.dom.className = 'doc-equation';
    this.render(atom.node);
  }
  protected render(node: PMNode) {
    if (node.attrs.equation === this.latex) return;
    this.latex = String(node.attrs.equation);
    this.dom.setAttribute('data-equation', this.latex);
    parseMath(this.dom, this.latex, false, this.context.t);
  }
  protected onEdit(pos: number) {
    this.context.edit('math', pos);
  }
}

class FigureView extends AtomView {
  private key = '';
  constructor(atom: AtomArgs, decorations: readonly Decoration[]) {
    super(atom, 'figure');
    this.dom.contentEditable = 'false';
    this.render(atom.node, decorations);
  }
  protected render(node: PMNode, decorations: readonly Decoration[]) {
    const label = decorationSpec<string>(decorations, 'label') ?? '';
    const key = JSON.stringify([node.attrs, label]);
    if (key === this.key) return;
    this.key = key;
    const { category, src, equation, caption, aligned, width } = node.attrs;
    setClasses(this.dom, `doc-figure doc-figure-${aligned}`);
    this.dom.setAttribute('data-category', String(category));
    this.dom.id = String(node.attrs.id);
    this.dom.replaceChildren();
    if (category === 'equation') {
      const math = this.dom.appendChild(document.createElement('div'));
      math.className = 'doc-display-equation';
      parseMath(math, String(equation), true, this.context.t);
      const number = this.dom.appendChild(document.createElement('span'));
      number.className = 'doc-equation-number';
      number.textContent = label;
    } else {
      if (src) {
        const image = this.dom.appendChild(document.createElement('img'));
        image.src = String(src);
        image.alt = String(caption);
        image.style.width = `${Number(width) || 100}%`;
        image.addEventListener('error', () => {
          const missing = document.createElement('p');
          missing.className = 'doc-missing';
          missing.textContent = this.context.t('academic.missingImage');
          image.replaceWith(missing);
        });
      } else if (equation) {
        const math = this.dom.appendChild(document.createElement('div'));
        parseMath(math, String(equation), true, this.context.t);
      }
      const figcaption = this.dom.appendChild(document.createElement('figcaption'));
      if (label) {
        const strong = figcaption.appendChild(document.createElement('strong'));
        strong.textContent = caption ? `${label}: ` : label;
      }
      figcaption.append(String(caption));
    }
  }
  protected onEdit(pos: number) {
    this.context.edit(this.node.attrs.category === 'equation' ? 'math' : 'figure', pos);
  }
}

class CitationView extends AtomView {
  private key = '';
  constructor(atom: AtomArgs, decorations: readonly Decoration[]) {
    super(atom, 'span');
    this.render(atom.node, decorations);
  }
  protected render(node: PMNode, decorations: readonly Decoration[]) {
    const spec = decorationSpec<CitationDecoration>(decorations, 'citation');
    const key = JSON.stringify([node.attrs, spec]);
    if (key === this.key) return;
    this.key = key;
    const references = node.attrs.references as CitationReference[];
    setClasses(this.dom, 'doc-citation');
    this.dom.setAttribute('data-citation', '');
    this.dom.classList.toggle('doc-missing', Boolean(spec?.missing));
    this.dom.title = spec?.missing ? this.context.t('academic.missingEntry') : '';
    if (spec?.note) {
      // The number is the CSS counter the footnotes count with; a text citation's authors stand
      // before it ("LeCun and Bottou¹").
      this.dom.classList.add('doc-citation-note');
      if (spec.author) this.dom.replaceChildren(safeHtml(spec.author));
      else this.dom.textContent = '';
      if (spec.html) this.dom.title = safeHtml(spec.html).textContent ?? '';
    } else if (spec?.html) this.dom.replaceChildren(safeHtml(spec.html));
    else this.dom.textContent = references.map((ref) => `@${ref.id}`).join('; ');
  }
  protected onEdit(pos: number) {
    this.context.edit('citation', pos);
  }
}

class CrossReferenceView extends AtomView {
  constructor(atom: AtomArgs, decorations: readonly Decoration[]) {
    super(atom, 'span');
    this.dom.className = 'doc-cross-reference';
    this.render(atom.node, decorations);
  }
  protected render(node: PMNode, decorations: readonly Decoration[]) {
    const label = decorationSpec<string | null>(decorations, 'label');
    const missing = !label;
    this.dom.classList.toggle('doc-missing', missing);
    this.dom.setAttribute('data-cross-reference', String(node.attrs.id));
    this.dom.title = missing ? String(node.attrs.title) : '';
    const pieces = crossReferencePieces(
      label ?? '',
      crossReferenceForm(node.attrs.form),
      String(this.view.state.doc.attrs.language ?? 'en'),
    );
    if (missing || pieces.pageWords === null) {
      this.dom.textContent = missing ? this.context.t('academic.missingTarget') : label;
      return;
    }
    // A page form: the editor has no pages; a boxed placeholder stands for the page number.
    const placeholder = document.createElement('span');
    placeholder.className = 'doc-page-placeholder';
    placeholder.textContent = PAGE_PLACEHOLDER;
    placeholder.title = this.context.t('academic.crossReference.pagePlaceholder');
    this.dom.replaceChildren(`${pieces.number}${pieces.pageWords}`, placeholder);
  }
  protected onEdit() {}
}

/**
 * Puts `wanted` as the children of `parent` in that order, moving or inserting only what is not in
 * place already: a child that stays where it is is not touched (nor laid out again).
 */
function placeChildren(parent: HTMLElement, wanted: readonly Node[]): void {
  const keep = new Set(wanted);
  for (const child of [...parent.childNodes]) if (!keep.has(child)) child.remove();
  wanted.forEach((node, index) => {
    const at = parent.childNodes[index];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
}

/**
 * The bibliography's layout rules, the same the exports carry (common/src/bibliography/layout.ts),
 * added to the page once.
 */
function addLayoutStyles(document: Document): void {
  if (document.getElementById('csl-layout-styles')) return;
  const style = document.createElement('style');
  style.id = 'csl-layout-styles';
  style.textContent = BIBLIOGRAPHY_LAYOUT_CSS;
  document.head.append(style);
}

class BibliographyView implements NodeView {
  dom: HTMLElement;
  private key = '';
  /** The heading and list of entries, kept: a new entry adds one element, the others stay. */
  private readonly heading = document.createElement('h2');
  private readonly list = document.createElement('div');
  private readonly entryHtml = new WeakMap<Element, string>();
  constructor(
    private node: PMNode,
    decorations: readonly Decoration[],
    private readonly context: AcademicViewContext,
  ) {
    this.dom = document.createElement('section');
    this.dom.className = 'doc-part doc-bibliography';
    this.dom.contentEditable = 'false';
    this.list.className = 'doc-bibliography-entries';
    addLayoutStyles(this.dom.ownerDocument);
    this.render(decorations);
  }
  private render(decorations: readonly Decoration[]) {
    const spec = decorationSpec<BibliographyDecoration>(decorations, 'bibliography');
    const key = JSON.stringify(spec);
    if (key === this.key) return;
    this.key = key;
    const parts: Node[] = [];
    if (spec?.notes.length) {
      const heading = document.createElement('h2');
      heading.textContent = this.context.t('academic.notes');
      const list = document.createElement('ol');
      list.className = 'doc-citation-notes';
      for (const note of spec.notes) {
        const item = list.appendChild(document.createElement('li'));
        item.value = note.number;
        item.append(safeHtml(note.html));
      }
      parts.push(heading, list);
    }
    if (spec?.entries.length) {
      this.heading.textContent = spec.heading;
      // The style's layout (label column, hanging indent, spacing): BIBLIOGRAPHY_LAYOUT_CSS.
      const body = bibliographyBody(spec.layout);
      this.list.className = `doc-bibliography-entries ${body.className}`;
      this.list.setAttribute('style', body.style);
      this.placeEntries(spec.entries);
      parts.push(this.heading, this.list);
    }
    placeChildren(this.dom, parts);
    if (spec) this.dom.hidden = !spec.entries.length && !spec.notes.length;
  }
  /** The list shows `entries`, reusing the element of every text it showed before. */
  private placeEntries(entries: readonly string[]) {
    const shown = new Map<string, Element[]>();
    for (const child of this.list.children) {
      const html = this.entryHtml.get(child) ?? '';
      const same = shown.get(html);
      if (same) same.push(child);
      else shown.set(html, [child]);
    }
    const wanted = entries.map((html) => {
      const reused = shown.get(html)?.shift();
      if (reused) return reused;
      const item = document.createElement('div');
      item.className = 'doc-bibliography-entry';
      item.append(safeHtml(html));
      this.entryHtml.set(item, html);
      return item;
    });
    placeChildren(this.list, wanted);
  }
  update(node: PMNode, decorations: readonly Decoration[]): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render(decorations);
    return true;
  }
  ignoreMutation(): boolean {
    return true;
  }
  stopEvent(): boolean {
    return true;
  }
}

export function academicNodeViews(context: AcademicViewContext): Record<string, NodeViewConstructor> {
  return {
    equation: (node, view, getPos) => new EquationView({ node, view, getPos, context }),
    figure: (node, view, getPos, decorations) => new FigureView({ node, view, getPos, context }, decorations),
    citation: (node, view, getPos, decorations) =>
      new CitationView({ node, view, getPos, context }, decorations),
    cross_reference: (node, view, getPos, decorations) =>
      new CrossReferenceView({ node, view, getPos, context }, decorations),
    bibliography_part: (node, _view, _getPos, decorations) =>
      new BibliographyView(node, decorations, context),
  };
}
