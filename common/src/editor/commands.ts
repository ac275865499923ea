import { lift, setBlockType, toggleMark, wrapIn } from 'prosemirror-commands';
import type { Mark, MarkType, NodeType, Node as PMNode, ResolvedPos } from 'prosemirror-model';
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list';
import { type Command, type EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { type BodyElement, type FormatMark, isSafeHref, PAPER_SIZES, type PaperSize, schema } from './schema';
import { tableCommand, tableTab } from './table-commands';
import { HEADING_NUMBERINGS, type HeadingNumbering } from './vocabulary';

/**
 * Pure editor commands (state in, transaction out), shared by the toolbar, the menus, the
 * keyboard and tests. Each refuses what the part under the selection does not allow, so the
 * template's rules hold without a separate filter.
 */

/** The template part (child of the doc) that holds a position, or null in the title. */
export function partAt($pos: ResolvedPos): PMNode | null {
  if ($pos.depth < 1) return null;
  const part = $pos.node(1);
  return part.type.name === 'title' ? null : part;
}

function allowedElements(state: EditorState): string[] {
  const part = partAt(state.selection.$from);
  if (part?.type.name !== 'richtext_part') return [];
  return part.attrs.elements as string[];
}

/** Whether the part under the selection allows a body element. */
export function allows(state: EditorState, element: BodyElement): boolean {
  return allowedElements(state).includes(element);
}

/**
 * Whether the part (or title) under the selection allows a formatting mark. In a note's own editor
 * (its document is the note) the schema decides: the note's paragraphs take every format.
 */
export function allowsMark(state: EditorState, mark: FormatMark): boolean {
  const part = partAt(state.selection.$from);
  if (part?.type.spec.group !== 'part')
    return state.selection.$from.parent.type.allowsMarkType(schema.marks[mark]);
  return (part.attrs.marks as string[]).includes(mark);
}

function onlyIf(test: (state: EditorState) => boolean, command: Command): Command {
  return (state, dispatch, view) => test(state) && command(state, dispatch, view);
}

export function toggleFormat(mark: FormatMark): Command {
  return onlyIf((state) => allowsMark(state, mark), toggleMark(schema.marks[mark]));
}

export function isMarkActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return Boolean(type.isInSet(state.storedMarks ?? $from.marks()));
  return state.doc.rangeHasMark(from, to, type);
}

export const setParagraph: Command = onlyIf(
  (state) => allows(state, 'paragraph'),
  setBlockType(schema.nodes.paragraph),
);

export function setHeading(level: number): Command {
  return onlyIf(
    (state) => allows(state, `heading${level}` as BodyElement),
    setBlockType(schema.nodes.heading, { level }),
  );
}

export function setCodeBlock(language = ''): Command {
  return onlyIf((state) => allows(state, 'code_block'), setBlockType(schema.nodes.code_block, { language }));
}

export const wrapInBlockquote: Command = onlyIf(
  (state) => allows(state, 'blockquote'),
  wrapIn(schema.nodes.blockquote),
);

export const liftOut: Command = lift;

export const toggleBulletList: Command = toggleList(schema.nodes.bullet_list, 'bullet_list');
export const toggleOrderedList: Command = toggleList(schema.nodes.ordered_list, 'ordered_list');

function toggleList(type: NodeType, element: BodyElement): Command {
  return (state, dispatch, view) => {
    const { $from } = state.selection;
    // Inside a list of this kind already: the same button lifts the item out again.
    for (let depth = $from.depth; depth > 0; depth--) {
      if ($from.node(depth).type === type) return liftListItem(schema.nodes.list_item)(state, dispatch, view);
    }
    return allows(state, element) && wrapInList(type)(state, dispatch, view);
  };
}

export const splitItem: Command = splitListItem(schema.nodes.list_item);
export const sinkItem: Command = sinkListItem(schema.nodes.list_item);
export const liftItem: Command = liftListItem(schema.nodes.list_item);

/**
 * Tab: next table cell (a new row after the last: table-commands.ts), or indent a list item.
 * Shift-Tab: the reverse.
 */
export const indent: Command = (state, dispatch, view) =>
  tableTab(1)(state, dispatch, view) || sinkItem(state, dispatch, view);
export const outdent: Command = (state, dispatch, view) =>
  tableTab(-1)(state, dispatch, view) || liftItem(state, dispatch, view);

/** Inserts `make`'s node at the selection where the part allows `element`. */
export function insertNode(element: BodyElement, make: (state: EditorState) => PMNode): Command {
  return (state, dispatch) => {
    if (!allows(state, element)) return false;
    const node = make(state);
    const { $from } = state.selection;
    const index = $from.index();
    if (node.isInline && !$from.parent.canReplaceWith(index, index, node.type)) return false;
    // No inherited marks: a note or a rule is not bold because the text before it is.
    if (dispatch) dispatch(state.tr.replaceSelectionWith(node, false).scrollIntoView());
    return true;
  };
}

export const insertHorizontalRule: Command = insertNode('horizontal_rule', () =>
  schema.nodes.horizontal_rule.create(),
);

export const insertHardBreak: Command = (state, dispatch) => {
  const { $from } = state.selection;
  if ($from.parent.type.spec.code) return false;
  if (partAt($from) && !allows(state, 'hard_break')) return false;
  if (!$from.parent.canReplaceWith($from.index(), $from.index(), schema.nodes.hard_break)) return false;
  if (dispatch) dispatch(state.tr.replaceSelectionWith(schema.nodes.hard_break.create()).scrollIntoView());
  return true;
};

/** A table with a header row; `rows` counts the header. */
export function insertTable(rows = 3, columns = 3): Command {
  return (state, dispatch) => {
    if (!allows(state, 'table') || rows < 1 || columns < 1) return false;
    const cell = (type: NodeType) => type.create(null, schema.nodes.paragraph.create());
    const row = (type: NodeType) =>
      schema.nodes.table_row.create(
        null,
        Array.from({ length: columns }, () => cell(type)),
      );
    const table = schema.nodes.table.create(null, [
      row(schema.nodes.table_header),
      ...Array.from({ length: rows - 1 }, () => row(schema.nodes.table_cell)),
    ]);
    if (dispatch) {
      const tr = state.tr.replaceSelectionWith(table);
      // Into the first header cell, so that typing fills the table.
      const start = tr.mapping.map(state.selection.from, -1);
      const inside = tr.doc.resolve(Math.min(start + 4, tr.doc.content.size));
      dispatch(tr.setSelection(TextSelection.near(inside)).scrollIntoView());
    }
    return true;
  };
}

/** The table commands (table-commands.ts), each only inside a table. */
export const tableCommands = tableCommand;

/** Sets (or, with an empty href, removes) a link on the selection. */
export function setLink(href: string, title = ''): Command {
  return (state, dispatch) => {
    const { from, to, empty } = state.selection;
    const type = schema.marks.link;
    if (!href) {
      if (empty || !state.doc.rangeHasMark(from, to, type)) return false;
      if (dispatch) dispatch(state.tr.removeMark(from, to, type));
      return true;
    }
    if (empty || !isSafeHref(href) || !allowsMark(state, 'link')) return false;
    if (dispatch) dispatch(state.tr.addMark(from, to, type.create({ href, title })).scrollIntoView());
    return true;
  };
}

/** The link mark under the cursor, for the link dialog. */
export function linkAt(state: EditorState): Mark | null {
  const { $from } = state.selection;
  return (
    schema.marks.link.isInSet($from.marks()) ??
    schema.marks.link.isInSet($from.nodeAfter?.marks ?? []) ??
    null
  );
}

export function setLanguage(language: string): Command {
  return (state, dispatch) => {
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language)) return false;
    if (state.doc.attrs.language === language) return false;
    if (dispatch) dispatch(state.tr.setDocAttribute('language', language));
    return true;
  };
}

export function setPaperSize(size: PaperSize): Command {
  return (state, dispatch) => {
    if (!PAPER_SIZES.includes(size) || state.doc.attrs.paper_size === size) return false;
    if (dispatch) dispatch(state.tr.setDocAttribute('paper_size', size));
    return true;
  };
}

export function setHeadingNumbering(numbering: HeadingNumbering): Command {
  return (state, dispatch) => {
    if (!HEADING_NUMBERINGS.includes(numbering) || state.doc.attrs.heading_numbering === numbering)
      return false;
    if (dispatch) dispatch(state.tr.setDocAttribute('heading_numbering', numbering));
    return true;
  };
}

/** Shows or hides an optional part (the subtitle, the abstract...). */
export function setPartHidden(partId: string, hidden: boolean): Command {
  return (state, dispatch) => {
    let found: { pos: number; node: PMNode } | null = null;
    state.doc.forEach((node, offset) => {
      if (node.attrs.id === partId && node.type.name !== 'title') found = { pos: offset, node };
    });
    const part = found as { pos: number; node: PMNode } | null;
    if (!part?.node.attrs.optional || part.node.attrs.hidden === hidden) return false;
    if (dispatch) dispatch(state.tr.setNodeAttribute(part.pos, 'hidden', hidden));
    return true;
  };
}

export interface Contributor {
  firstname: string;
  lastname: string;
  email: string;
  institution: string;
  orcid: string;
}

/** ORCID iDs: four groups of four digits, the last character may be X (ISO 7064 check). */
export function isValidOrcid(orcid: string): boolean {
  if (!/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(orcid)) return false;
  const digits = orcid.replace(/-/g, '');
  let total = 0;
  for (const char of digits.slice(0, -1)) total = (total + Number(char)) * 2;
  const check = (12 - (total % 11)) % 11;
  return digits.at(-1) === (check === 10 ? 'X' : String(check));
}

function findPart(doc: PMNode, kind: string, partId?: string): { pos: number; node: PMNode } | null {
  let found: { pos: number; node: PMNode } | null = null;
  doc.forEach((node, offset) => {
    if (!found && node.type.name === kind && (partId === undefined || node.attrs.id === partId))
      found = { pos: offset, node };
  });
  return found;
}

/** Adds a contributor at the end of the (first) contributors part, or replaces the one at `index`. */
export function saveContributor(contributor: Contributor, index: number | null, partId?: string): Command {
  return (state, dispatch) => {
    const part = findPart(state.doc, 'contributors_part', partId);
    if (!part) return false;
    const node = schema.nodes.contributor.create(contributor);
    if (dispatch) {
      if (index === null || index >= part.node.childCount) {
        dispatch(state.tr.insert(part.pos + part.node.nodeSize - 1, node));
      } else {
        let pos = part.pos + 1;
        for (let i = 0; i < index; i++) pos += part.node.child(i).nodeSize;
        dispatch(state.tr.replaceWith(pos, pos + part.node.child(index).nodeSize, node));
      }
    }
    return true;
  };
}

/** Removes the child at `index` of the (first) part of that kind: a contributor or a keyword. */
function removePartChild(kind: string, index: number, partId?: string): Command {
  return (state, dispatch) => {
    const part = findPart(state.doc, kind, partId);
    if (!part || index < 0 || index >= part.node.childCount) return false;
    let pos = part.pos + 1;
    for (let i = 0; i < index; i++) pos += part.node.child(i).nodeSize;
    if (dispatch) dispatch(state.tr.delete(pos, pos + part.node.child(index).nodeSize));
    return true;
  };
}

export function removeContributor(index: number, partId?: string): Command {
  return removePartChild('contributors_part', index, partId);
}

/** Adds keywords (split at commas and semicolons), skipping ones already there. */
export function addKeywords(input: string, partId?: string): Command {
  return (state, dispatch) => {
    const part = findPart(state.doc, 'tags_part', partId);
    if (!part) return false;
    const existing = new Set<string>();
    part.node.forEach((child) => {
      existing.add(String(child.attrs.keyword).toLowerCase());
    });
    const fresh: string[] = [];
    for (const raw of input.split(/[,;]/)) {
      const keyword = raw.trim();
      if (keyword && !existing.has(keyword.toLowerCase())) {
        existing.add(keyword.toLowerCase());
        fresh.push(keyword);
      }
    }
    if (!fresh.length) return false;
    if (dispatch)
      dispatch(
        state.tr.insert(
          part.pos + part.node.nodeSize - 1,
          fresh.map((keyword) => schema.nodes.keyword.create({ keyword })),
        ),
      );
    return true;
  };
}

export function removeKeyword(index: number, partId?: string): Command {
  return removePartChild('tags_part', index, partId);
}

/**
 * Gives every heading a unique id (the target of internal links): new headings, and the copy a
 * split or a paste leaves with a duplicate id. Returns null when nothing needs changing.
 */
export function assignHeadingIds(
  state: EditorState,
  makeId: () => string = () => `H${Math.random().toString(36).slice(2, 10)}`,
): Transaction | null {
  const seen = new Set<string>();
  const fixes: number[] = [];
  state.doc.descendants((node, pos) => {
    // Headings are never inside a textblock: its text need not be walked (a long document).
    if (node.type !== schema.nodes.heading) return !node.isTextblock;
    const id = String(node.attrs.id);
    if (!id || seen.has(id)) fixes.push(pos);
    else seen.add(id);
    return false;
  });
  if (!fixes.length) return null;
  const tr = state.tr;
  for (const pos of fixes) {
    let id = makeId();
    while (seen.has(id)) id = makeId();
    seen.add(id);
    tr.setNodeAttribute(pos, 'id', id);
  }
  return tr.setMeta('addToHistory', false);
}
