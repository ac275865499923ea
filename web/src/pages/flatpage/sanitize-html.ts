/**
 * Flat pages are HTML written by staff. Before showing it we rebuild it from an allow-list of
 * elements and attributes, so a pasted <script>, event handler or javascript: link cannot run.
 */

const ALLOWED_ELEMENTS = new Set([
  'a',
  'abbr',
  'address',
  'article',
  'b',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'dd',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'i',
  'img',
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
]);

/** Elements dropped with everything inside them; other unknown elements are unwrapped. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'template',
  'noscript',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'audio',
  'video',
]);

const GLOBAL_ATTRIBUTES = new Set(['title', 'lang', 'dir']);
const ELEMENT_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan']),
  th: new Set(['colspan', 'rowspan', 'scope']),
  ol: new Set(['start']),
};

function isSafeUrl(value: string, allowMail: boolean): boolean {
  const trimmed = value.trim();
  // Relative addresses have no scheme; a scheme is letters followed by ':' before any '/', '?' or '#'.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  return scheme === 'http' || scheme === 'https' || (allowMail && scheme === 'mailto');
}

function copyAllowed(source: Node, target: Node, doc: Document): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (!(child instanceof Element)) continue;
    const tag = child.localName;
    if (DROPPED_ELEMENTS.has(tag)) continue;
    if (!ALLOWED_ELEMENTS.has(tag)) {
      copyAllowed(child, target, doc);
      continue;
    }
    const copy = doc.createElement(tag);
    for (const attribute of Array.from(child.attributes)) {
      const name = attribute.name.toLowerCase();
      if (!GLOBAL_ATTRIBUTES.has(name) && !ELEMENT_ATTRIBUTES[tag]?.has(name)) continue;
      if ((name === 'href' || name === 'src') && !isSafeUrl(attribute.value, name === 'href')) continue;
      copy.setAttribute(name, attribute.value);
    }
    if (tag === 'a' && /^https?:/i.test(copy.getAttribute('href') ?? '')) {
      copy.setAttribute('rel', 'noopener noreferrer');
    }
    copyAllowed(child, copy, doc);
    target.appendChild(copy);
  }
}

/** The safe part of `html` as a fragment of `doc`, ready to be appended. */
export function sanitizeHtml(html: string, doc: Document = document): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const fragment = doc.createDocumentFragment();
  copyAllowed(parsed.body, fragment, doc);
  return fragment;
}
