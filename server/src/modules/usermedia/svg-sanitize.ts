import type { DOMPurify as DOMPurifyInstance } from 'dompurify';

/**
 * SVG is XML that browsers run scripts from, so an uploaded SVG is rebuilt from an allow-list
 * with DOMPurify (on jsdom) before it is stored: scripts, event handlers, foreignObject and
 * every reference outside the file itself (links, external images, CSS imports and url()s) go.
 * jsdom is loaded on the first SVG only: most servers never see one.
 */

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
/** url(...) that points anywhere but an element of the same file (#id). */
const EXTERNAL_URL = /url\s*\(\s*['"]?\s*(?!#)/i;
const CSS_IMPORT = /@import/i;
/** Raster images embedded in the file itself stay; they cannot run code. */
const EMBEDDED_RASTER = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

interface Sanitizer {
  purify: DOMPurifyInstance;
  serialize(node: Node): string;
}

let sanitizer: Promise<Sanitizer> | undefined;

async function createSanitizer(): Promise<Sanitizer> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Window & typeof globalThis);
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (
      data.tagName === 'style' &&
      (EXTERNAL_URL.test(node.textContent ?? '') || CSS_IMPORT.test(node.textContent ?? ''))
    ) {
      node.parentNode?.removeChild(node);
    }
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    if (name === 'href' || name === 'xlink:href') {
      if (!value.startsWith('#') && !EMBEDDED_RASTER.test(value)) data.keepAttr = false;
      return;
    }
    if (EXTERNAL_URL.test(value) || (name === 'style' && CSS_IMPORT.test(value))) data.keepAttr = false;
  });
  const serializer = new window.XMLSerializer();
  return { purify, serialize: (node) => serializer.serializeToString(node) };
}

/** The sanitised SVG document, or null when no <svg> root is left. */
export async function sanitizeSvg(text: string): Promise<string | null> {
  sanitizer ??= createSanitizer();
  const { purify, serialize } = await sanitizer;
  const fragment = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'script'],
    ADD_DATA_URI_TAGS: ['image'],
    RETURN_DOM_FRAGMENT: true,
  });
  const root = fragment.firstElementChild;
  if (root?.localName !== 'svg' || root.namespaceURI !== SVG_NAMESPACE) return null;
  // XML serialisation: a stored SVG is a standalone XML file, not an HTML fragment.
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root)}`;
}
