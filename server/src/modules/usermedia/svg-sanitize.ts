import type { DOMPurify as DOMPurifyInstance } from 'dompurify';
import { SaxesParser } from 'saxes';
import { ImageRejected } from './image-rejected';
import { attributeFetches, cleanDeclarations, cleanStylesheet } from './svg-css';

/**
 * SVG is XML that browsers run scripts from, so an uploaded SVG is rebuilt from an allow-list
 * with DOMPurify (on jsdom) before it is stored: scripts, event handlers, foreignObject and
 * every reference outside the file itself (links, external images, CSS imports and url()s in any
 * spelling, see svg-css.ts) go. This runs in an upload worker thread (modules/uploads), and the
 * document's shape is checked with a streaming parser first, so that a deeply nested or huge file
 * is refused in milliseconds instead of being built into a DOM. jsdom is loaded on the first SVG
 * only: most servers never see one.
 */

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
/** Real drawings (Inkscape, matplotlib, draw.io) stay far below both limits. */
export const SVG_MAX_DEPTH = 200;
export const SVG_MAX_ELEMENTS = 50_000;
/** Raster images embedded in the file itself stay; they cannot run code. */
const EMBEDDED_RASTER = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** The file is nested too deeply, has too many elements, or is not well-formed XML. */
export class SvgTooComplex extends Error {
  constructor(readonly invalidXml = false) {
    super(invalidXml ? 'not well-formed XML' : 'too complex');
  }
}

/**
 * Streams through the XML once, counting elements and depth, and stops at the first limit.
 * A stored SVG is opened by browsers with their XML parser, so a file that is not well-formed
 * XML would not show anyway.
 */
export function checkSvgShape(text: string): void {
  const parser = new SaxesParser({ xmlns: false });
  let depth = 0;
  let elements = 0;
  parser.on('opentag', (tag) => {
    elements += 1;
    if (!tag.isSelfClosing) depth += 1;
    if (depth > SVG_MAX_DEPTH || elements > SVG_MAX_ELEMENTS) throw new SvgTooComplex();
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) depth -= 1;
  });
  parser.on('error', () => {
    throw new SvgTooComplex(true);
  });
  parser.write(text).close();
}

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
    if (data.tagName !== 'style') return;
    const css = cleanStylesheet(node.textContent ?? '');
    if (css === null) node.parentNode?.removeChild(node);
    else node.textContent = css;
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    if (name === 'href' || name === 'xlink:href') {
      if (!value.startsWith('#') && !EMBEDDED_RASTER.test(value)) data.keepAttr = false;
      return;
    }
    if (name === 'style') {
      const css = cleanDeclarations(data.attrValue);
      if (css === null) data.keepAttr = false;
      else data.attrValue = css;
      return;
    }
    if (attributeFetches(value)) data.keepAttr = false;
  });
  const serializer = new window.XMLSerializer();
  return { purify, serialize: (node) => serializer.serializeToString(node) };
}

/**
 * The sanitised SVG document, or null when no <svg> root is left. Throws SvgTooComplex for a file
 * beyond SVG_MAX_DEPTH or SVG_MAX_ELEMENTS, or not well-formed.
 */
export async function sanitizeSvg(text: string): Promise<string | null> {
  checkSvgShape(text);
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

/** An uploaded SVG as it is stored (prepareImage's SvgCleaner); refusals carry their reason. */
export async function cleanSvgUpload(upload: Buffer): Promise<Buffer> {
  let clean: string | null;
  try {
    clean = await sanitizeSvg(upload.toString('utf8'));
  } catch (error) {
    if (error instanceof SvgTooComplex)
      throw new ImageRejected(error.invalidXml ? 'invalidImage' : 'svgTooComplex');
    throw error;
  }
  if (!clean) throw new ImageRejected('unsafeSvg');
  return Buffer.from(clean, 'utf8');
}
