import type { NodeSpec, Node as PMNode } from 'prosemirror-model';

/**
 * What every writer offers a node's export hook: the pieces of its format a node is written
 * with. Each exporter (docx.ts, odt.ts, html.ts, latex.ts, jats.ts, markdown.ts) implements it
 * once; a node never appears in a writer's switch.
 */
export interface InlineWriter {
  /**
   * The format's note (Word's and ODT's at the foot of the page, an item of the HTML or JATS
   * notes, LaTeX's, Markdown's `[^n]`) holding `node`'s paragraphs, at this place in the text. A
   * note style's citation inside it is part of it, not a note of its own.
   */
  note(node: PMNode): string;
}

/** JSON of a ProseMirror node, as the importers build it. */
export type NodeJson = Record<string, unknown>;

/**
 * One editor node family with every rule about it: its schema specs, the problems the schema
 * cannot express, how each writer writes it and what the readers' pieces become. The commands,
 * keys and views live beside it in its folder (`common/src/features/<name>/`,
 * `web/src/features/<name>/`); `registry.ts` lists the features once.
 */
export interface NodeFeature {
  /** The node specs by name; the schema takes them in the registry's order. */
  readonly nodes: Readonly<Record<string, NodeSpec>>;
  /** A problem a part's `node` has that the schema cannot say (checkDocument; the server checks it too). */
  problem?(node: PMNode): string | null;
  /** How every writer writes the (inline) node: '' writes nothing. */
  write?(writer: InlineWriter, node: PMNode): string;
  /** The node an imported note becomes (DOCX and ODT notes, Markdown's `[^n]`), from its paragraphs. */
  importNote?(paragraphs: NodeJson[]): NodeJson;
}
