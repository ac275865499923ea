import type { Mark, Node as PMNode } from 'prosemirror-model';
import type { TableMap } from 'prosemirror-tables';
import type { InlineWriter } from '../features/feature';
import { writeNode } from '../features/registry';
import { BlockChanges, keptWhenAccepted, withInherited } from './block-changes';

/**
 * What every writer keeps while it walks the blocks: the tracked changes recorded on blocks
 * (block-changes.ts) and `inherited`, those of the whole blocks being written (a deleted row, a
 * suggested list item), which their content carries too.
 */
export abstract class ChangesWriter {
  protected readonly blockChanges = new BlockChanges();
  protected inherited: Mark[] = [];

  /** A node's marks with those of the whole suggested blocks around it. */
  protected marksOf(node: PMNode): readonly Mark[] {
    return withInherited(node.marks, this.inherited);
  }

  /** Runs `write` with the changes recorded on `node` as a whole inherited by its content. */
  protected withChanges<T>(node: PMNode, write: () => T): T {
    const outer = this.inherited;
    const whole = this.blockChanges.whole(node);
    if (whole.length) this.inherited = [...withInherited(whole, outer)];
    try {
      return write();
    } finally {
      this.inherited = outer;
    }
  }
}

/** The walk the text-based writers share: inline content and block lists, node by node. */
export abstract class NodeWriter extends ChangesWriter implements InlineWriter {
  abstract block(node: PMNode): string;
  /** `content` inside the marks (with the inherited ones), or null where a deletion drops it. */
  protected abstract wrapMarks(content: string, marks: readonly Mark[]): string | null;
  /** The inline nodes, each kind in the format's own way. */
  protected abstract text(text: string): string;
  protected abstract readonly hardBreak: string;
  /** The format's note holding `node`'s paragraphs (InlineWriter: the node features' hooks use it). */
  abstract note(node: PMNode): string;
  protected abstract equation(latex: string): string;
  protected abstract citation(node: PMNode): string;
  protected abstract crossReference(id: string, node: PMNode): string;
  /** Whether the output is the text once every suggestion is accepted (else it shows them). */
  protected abstract readonly accepted: boolean;

  /** Whether a block (an item, a row) is written: not when accepting removes it. */
  protected kept(node: PMNode): boolean {
    return !this.accepted || keptWhenAccepted(node);
  }

  /** The kept children of a list or table (scanned for the boundary changes between them). */
  protected keptChildren(parent: PMNode): PMNode[] {
    this.blockChanges.scan(parent);
    const kept: PMNode[] = [];
    parent.forEach((child) => {
      if (this.kept(child)) kept.push(child);
    });
    return kept;
  }

  /** An inline node, inside its marks ('' where a deletion drops it once accepted). */
  inline(node: PMNode): string {
    return this.wrapMarks(this.inlineNode(node), node.marks) ?? '';
  }

  private inlineNode(node: PMNode): string {
    switch (node.type.name) {
      case 'text':
        return this.text(node.text ?? '');
      case 'hard_break':
        return this.hardBreak;
      case 'equation':
        return this.equation(String(node.attrs.equation));
      case 'citation':
        return this.citation(node);
      case 'cross_reference':
        return this.crossReference(String(node.attrs.id), node);
      default:
        // A feature's node (common/src/features/registry.ts).
        return writeNode(this, node);
    }
  }

  /**
   * Marks as the formats that write the accepted text have them: null under a deletion, else
   * `content` in each mark, a link by `link` (its href) and the others by `tag` (their name).
   */
  protected acceptedMarks(
    content: string,
    own: readonly Mark[],
    tag: (out: string, name: string) => string,
    link: (out: string, href: string) => string,
  ): string | null {
    const marks = withInherited(own, this.inherited);
    if (marks.some((mark) => mark.type.name === 'deletion')) return null;
    return marks.reduce(
      (out, mark) =>
        mark.type.name === 'link' ? link(out, String(mark.attrs.href)) : tag(out, mark.type.name),
      content,
    );
  }

  /** A note's paragraphs, each its inline content. */
  protected noteParagraphs(note: PMNode): string[] {
    const paragraphs: string[] = [];
    note.forEach((paragraph) => {
      paragraphs.push(this.inlineContent(paragraph));
    });
    return paragraphs;
  }

  inlineContent(node: PMNode): string {
    let out = '';
    node.forEach((child) => {
      out += this.inline(child);
    });
    return out;
  }

  blocks(parent: PMNode): string {
    // A table of contents or a separator part is drawn as a block of its own.
    if (parent.type.name === 'toc_part' || parent.type.name === 'separator_part') return this.block(parent);
    let out = '';
    for (const node of this.keptChildren(parent)) out += this.withChanges(node, () => this.block(node));
    return out;
  }
}

/** A cell of one grid row: its span, and whether it starts in this row (else it comes down from above). */
export interface RowCell {
  cell: PMNode;
  span: number;
  rowspan: number;
  starts: boolean;
}

/** The cells of a table's grid row, left to right (a cell spanning columns once). */
export function rowCells(table: PMNode, map: TableMap, row: number): RowCell[] {
  const cells: RowCell[] = [];
  for (let column = 0; column < map.width; ) {
    const offset = map.map[row * map.width + column];
    const cell = table.nodeAt(offset);
    if (!cell) break;
    const rect = map.findCell(offset);
    const span = rect.right - rect.left;
    cells.push({ cell, span, rowspan: rect.bottom - rect.top, starts: rect.top === row });
    column += span;
  }
  return cells;
}

/**
 * How many leading rows of a table are header rows, repeated on each page by the office formats:
 * the first rows whose cells are all header cells, less any that a cell spanning rows would cross
 * into the body with; none when every row is a header row.
 */
export function headerRowCount(table: PMNode, map: TableMap): number {
  let count = 0;
  const start = (offset: number) => map.findCell(offset).top;
  while (count < map.height) {
    let allHeaders = true;
    for (let column = 0; column < map.width; column++) {
      const offset = map.map[count * map.width + column];
      if (start(offset) === count && table.nodeAt(offset)?.type.name !== 'table_header') allHeaders = false;
    }
    if (!allHeaders) break;
    count++;
  }
  // A header cell spanning past the header rows: those rows are not a header on their own.
  for (let crossed = true; crossed && count > 0; ) {
    crossed = false;
    for (let column = 0; column < map.width; column++) {
      const rect = map.findCell(map.map[(count - 1) * map.width + column]);
      if (rect.bottom > count) crossed = true;
    }
    if (crossed) count--;
  }
  // A table of header cells only has no body to repeat them over.
  return count === map.height ? 0 : count;
}

/** The image sources of a document's figures, in document order. */
export function figureSources(doc: PMNode): string[] {
  const srcs: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'figure' && node.attrs.src) srcs.push(String(node.attrs.src));
    return true;
  });
  return srcs;
}
