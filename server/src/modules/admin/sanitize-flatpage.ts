import {
  FLATPAGE_DROPPED_ELEMENTS,
  FLATPAGE_ELEMENT_ATTRIBUTES,
  FLATPAGE_ELEMENTS,
  FLATPAGE_GLOBAL_ATTRIBUTES,
  keepsFlatpageAttribute,
} from '@scriptorium/common/rules/flatpage-html';
import type { DOMPurify as DOMPurifyInstance } from 'dompurify';

/**
 * Flat pages are HTML that staff write and every visitor's browser shows, so what is stored is
 * rebuilt by DOMPurify from the same allow-list the browser applies before showing a page
 * (common/src/rules/flatpage-html.ts): no scripts, handlers, forms, frames or styles; links and
 * images keep http(s), mailto (links) and relative addresses only.
 * It runs in an upload worker thread (flatpage-content.ts): loading jsdom takes seconds on a busy
 * machine and must not stall the event loop.
 */

let purifier: Promise<DOMPurifyInstance> | null = null;

async function load(): Promise<DOMPurifyInstance> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const window = new JSDOM('').window;
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  // Attributes per element, as the browser's sanitiser keeps them.
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName.toLowerCase();
    if (!keepsFlatpageAttribute(tag, name, data.attrValue)) data.keepAttr = false;
  });
  return purify;
}

const ALLOWED_ATTR = [
  ...new Set([
    ...FLATPAGE_GLOBAL_ATTRIBUTES,
    ...Object.values(FLATPAGE_ELEMENT_ATTRIBUTES).flatMap((set) => [...set]),
  ]),
];

export async function sanitizeFlatpageHtml(html: string): Promise<string> {
  purifier ??= load();
  const purify = await purifier;
  return purify
    .sanitize(html, {
      ALLOWED_TAGS: [...FLATPAGE_ELEMENTS],
      ALLOWED_ATTR,
      FORBID_CONTENTS: [...FLATPAGE_DROPPED_ELEMENTS],
      ALLOW_DATA_ATTR: false,
    })
    .trim();
}
