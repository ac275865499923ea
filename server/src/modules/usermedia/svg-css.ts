import * as csstree from 'css-tree';

/**
 * CSS inside an SVG (a <style> element, a style attribute, presentation attributes) is parsed
 * with css-tree rather than matched by spelling: `\75rl(`, `u\rl(` and `@\69mport` are url( and
 * @import to a browser, and only a parser sees them the way a browser does. What could load
 * anything from outside the file is removed; the rest is written back from the parsed tree, so
 * no odd spelling survives either.
 */

/** At-rules that cannot fetch anything; every other one (@import, @font-face, ...) goes. */
const SAFE_AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes', 'layer', 'container']);
/** Functions that take a resource address (CSS Images and Values). */
const FETCHING_FUNCTIONS = new Set([
  'url',
  'src',
  'image',
  'image-set',
  '-webkit-image-set',
  'cross-fade',
  '-webkit-cross-fade',
  'element',
  '-moz-element',
]);

function decodedName(name: string): string {
  return csstree.ident.decode(name).toLowerCase();
}

/**
 * True for a node that could reach outside the file: a url() to anything but `#id` of this file,
 * a fetching function, or text the parser could not read (a browser may read it differently).
 */
function fetches(node: csstree.CssNode): boolean {
  switch (node.type) {
    case 'Url':
      return !node.value.trim().startsWith('#');
    case 'Function':
      return FETCHING_FUNCTIONS.has(decodedName(node.name));
    case 'Raw':
      return true;
    case 'Atrule':
      return !SAFE_AT_RULES.has(decodedName(node.name));
    default:
      return false;
  }
}

function containsFetch(ast: csstree.CssNode): boolean {
  return csstree.find(ast, fetches) !== null;
}

/** Removes every declaration or at-rule that fetches; null when something unsafe is left. */
function clean(ast: csstree.CssNode): string | null {
  csstree.walk(ast, (node, item, list) => {
    if (!list || !item) return;
    if (node.type === 'Atrule' && fetches(node)) list.remove(item);
    else if (node.type === 'Declaration' && containsFetch(node)) list.remove(item);
    else if (node.type === 'Raw') list.remove(item);
  });
  // Whatever fetches outside a declaration (a selector, an at-rule prelude) drops everything.
  if (containsFetch(ast)) return null;
  return csstree.generate(ast);
}

/**
 * Parses in a context; text the parser cannot read is what a browser might read differently, so
 * a parse it cannot recover from counts as unsafe (null).
 */
function parse(css: string, context: 'stylesheet' | 'declarationList' | 'value'): csstree.CssNode | null {
  try {
    return csstree.parse(css, { context, parseCustomProperty: true, positions: false });
  } catch {
    return null;
  }
}

/** A <style> element's text, cleaned; null when nothing safe can be kept. */
export function cleanStylesheet(css: string): string | null {
  const ast = parse(css, 'stylesheet');
  return ast && clean(ast);
}

/** A style attribute, cleaned; null when nothing safe can be kept. */
export function cleanDeclarations(css: string): string | null {
  const ast = parse(css, 'declarationList');
  const result = ast && clean(ast);
  return result === '' ? null : result;
}

/**
 * Presentation attributes (fill, filter, mask, clip-path, marker-*, cursor, ...) are CSS values
 * too. Only values that could hold a function or an escape are parsed: path data never does.
 */
export function attributeFetches(value: string): boolean {
  if (!/[(\\]/.test(value)) return false;
  const ast = parse(value, 'value');
  return ast === null || containsFetch(ast);
}
