import type { DOMOutputSpec, NodeSpec, TagParseRule } from 'prosemirror-model';

/**
 * Pieces of the node and mark specs (schema.ts, academic-nodes.ts, review-marks.ts) that read
 * attributes from pasted or stored HTML and draw plain elements.
 */

/** The DOM attribute's text, '' when it is absent. */
export function stringAttr(dom: HTMLElement, name: string): string {
  return dom.getAttribute(name) ?? '';
}

/**
 * A parse rule for `tag` whose attributes are text read from DOM attributes: `{ id: 'data-id' }`
 * takes the attribute `id` from `data-id` ('' when absent).
 */
export function stringAttrsRule(tag: string, names: Record<string, string>): TagParseRule {
  return {
    tag,
    getAttrs: (dom: HTMLElement) =>
      Object.fromEntries(Object.entries(names).map(([attr, name]) => [attr, stringAttr(dom, name)])),
  };
}

/** A node or mark that is one plain element: parsed from `tag` and drawn as it around its content. */
export function plainElement(tag: string): { parseDOM: TagParseRule[]; toDOM: () => DOMOutputSpec } {
  return { parseDOM: [{ tag }], toDOM: () => [tag, 0] };
}

/** A DOM attribute holding words separated by spaces (names of elements or marks), [] when absent. */
export function listAttr(dom: HTMLElement, name: string): string[] {
  const value = dom.getAttribute(name);
  return value ? value.split(' ').filter(Boolean) : [];
}

/**
 * An atom holding one text attribute `name`: stored as `data-<name>` on a span of class
 * `doc-<name>` that shows `shown(value)`.
 */
export function textAtom(name: string, shown: (value: string) => string): NodeSpec {
  return {
    atom: true,
    selectable: true,
    attrs: { [name]: { default: '' } },
    parseDOM: [stringAttrsRule(`span[data-${name}]`, { [name]: `data-${name}` })],
    toDOM: (node) => [
      'span',
      { class: `doc-${name}`, [`data-${name}`]: node.attrs[name] },
      shown(String(node.attrs[name])),
    ],
  };
}
