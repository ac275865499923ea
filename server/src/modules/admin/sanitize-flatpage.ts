import type { DOMPurify as DOMPurifyInstance } from 'dompurify';

/**
 * Flat pages are HTML that staff write and every visitor's browser shows, so what is stored is
 * rebuilt from an allow-list: no scripts, event handlers, forms, frames, styles or foreign
 * elements; links keep http(s), mailto and relative targets only, and open safely.
 * It runs in an upload worker thread (cleanFlatpageHtml): loading jsdom takes seconds on a busy
 * machine and must not stall the event loop.
 */

let purifier: Promise<DOMPurifyInstance> | null = null;

async function load(): Promise<DOMPurifyInstance> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const window = new JSDOM('').window;
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.getAttribute('target')) node.setAttribute('rel', 'noopener noreferrer');
  });
  return purify;
}

const ALLOWED_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'dd',
  'del',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'section',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
];
const ALLOWED_ATTR = [
  'href',
  'title',
  'alt',
  'src',
  'width',
  'height',
  'colspan',
  'rowspan',
  'id',
  'lang',
  'dir',
  'target',
  'rel',
];

export async function sanitizeFlatpageHtml(html: string): Promise<string> {
  purifier ??= load();
  const purify = await purifier;
  return purify
    .sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/(?!\/)|#|[^:/?#]*(?:[/?#]|$))/i,
      ALLOW_DATA_ATTR: false,
    })
    .trim();
}
