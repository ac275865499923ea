/**
 * What a flat page's HTML may contain: shared by the server, which keeps only this when staff save
 * a page (modules/admin), and the browser, which rebuilds the page from it before showing it.
 */

export const FLATPAGE_ELEMENTS = new Set([
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
export const FLATPAGE_DROPPED_ELEMENTS = new Set([
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

export const FLATPAGE_GLOBAL_ATTRIBUTES = new Set(['title', 'lang', 'dir']);
export const FLATPAGE_ELEMENT_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan']),
  th: new Set(['colspan', 'rowspan', 'scope']),
  ol: new Set(['start']),
};

/** http(s), mailto (links only) and relative addresses. */
export function isSafeFlatpageUrl(value: string, allowMail: boolean): boolean {
  const trimmed = value.trim();
  // Relative addresses have no scheme; a scheme is letters followed by ':' before any '/', '?' or '#'.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  return scheme === 'http' || scheme === 'https' || (allowMail && scheme === 'mailto');
}

/**
 * Whether a flat page keeps an attribute (lower-case name) on an element: one allowed there, and
 * for href and src a safe address. The browser's and the server's sanitisers both ask this.
 */
export function keepsFlatpageAttribute(tag: string, name: string, value: string): boolean {
  const allowed =
    FLATPAGE_GLOBAL_ATTRIBUTES.has(name) || FLATPAGE_ELEMENT_ATTRIBUTES[tag]?.has(name) === true;
  return allowed && ((name !== 'href' && name !== 'src') || isSafeFlatpageUrl(value, name === 'href'));
}
