import { Fragment, Mark, type Node as PMNode, type Schema } from 'prosemirror-model';

/**
 * Rebuilds stored content that is not a valid document of the schema, keeping all it can: nodes
 * and marks of unknown types (or with attributes the schema refuses) are dropped, a child that
 * cannot stand where it is gets what must come before it or is left out, and required content a
 * node lacks (an empty table cell, an empty body) is filled in. For documents stored before every
 * stored document was checked (issue 50: an import left an empty cell, and the editor then opened
 * a fresh document whose first edit overwrote the imported text). Null when nothing fits.
 */
export function repairDocument(schema: Schema, json: unknown, maxDepth = 400): PMNode | null {
  try {
    const doc = rebuild(schema, json, maxDepth);
    if (doc?.type !== schema.topNodeType) return null;
    doc.check();
    return doc;
  } catch {
    return null;
  }
}

interface NodeJson {
  type?: unknown;
  attrs?: Record<string, unknown>;
  content?: unknown;
  marks?: unknown;
  text?: unknown;
}

function marksOf(schema: Schema, json: unknown): readonly Mark[] {
  let set: readonly Mark[] = Mark.none;
  if (!Array.isArray(json)) return set;
  for (const item of json) {
    try {
      const mark = schema.markFromJSON(item);
      schema.text(' ', [mark]).check(); // the mark's attributes, as the schema validates them
      set = mark.addToSet(set);
    } catch {
      // An unknown mark, or one with attributes the schema refuses: left out.
    }
  }
  return set;
}

function rebuild(schema: Schema, json: unknown, depthLeft: number): PMNode | null {
  if (depthLeft <= 0 || !json || typeof json !== 'object') return null;
  const { type, attrs, content, marks, text } = json as NodeJson;
  const nodeType = typeof type === 'string' && Object.hasOwn(schema.nodes, type) ? schema.nodes[type] : null;
  if (!nodeType) return null;
  const nodeMarks = marksOf(schema, marks);
  if (nodeType.isText) return typeof text === 'string' && text ? schema.text(text, nodeMarks) : null;
  const children: PMNode[] = [];
  let match = nodeType.contentMatch;
  for (const item of Array.isArray(content) ? content : []) {
    const built = rebuild(schema, item, depthLeft - 1);
    if (!built) continue;
    const child = built.mark(nodeType.allowedMarks(built.marks));
    // What must come first (e.g. a list item's first paragraph) is filled in; else it is left out.
    const before = match.fillBefore(Fragment.from(child));
    const next = before && match.matchFragment(before)?.matchType(child.type);
    if (!before || !next) continue;
    before.forEach((node) => {
      children.push(node);
    });
    children.push(child);
    match = next;
  }
  try {
    const node = nodeType.createAndFill(attrs ?? null, children, nodeMarks);
    // Its attributes as the schema validates them (its children passed already: rare, small work).
    node?.check();
    return node;
  } catch {
    return null;
  }
}
