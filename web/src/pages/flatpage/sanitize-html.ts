/**
 * Flat pages are HTML written by staff. Before showing it we rebuild it from an allow-list of
 * elements and attributes, so a pasted <script>, event handler or javascript: link cannot run.
 */

import {
  FLATPAGE_DROPPED_ELEMENTS,
  FLATPAGE_ELEMENTS,
  keepsFlatpageAttribute,
} from '@scriptorium/common/rules/flatpage-html';

/** Classes kept besides the allow-list (citeproc's layout classes, csl-*, for the bibliography). */
type KeepClass = (value: string) => boolean;

function copyAllowed(source: Node, target: Node, doc: Document, keepClass?: KeepClass): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (!(child instanceof Element)) continue;
    const tag = child.localName;
    if (FLATPAGE_DROPPED_ELEMENTS.has(tag)) continue;
    if (!FLATPAGE_ELEMENTS.has(tag)) {
      copyAllowed(child, target, doc, keepClass);
      continue;
    }
    const copy = doc.createElement(tag);
    for (const attribute of Array.from(child.attributes)) {
      const name = attribute.name.toLowerCase();
      if (keepsFlatpageAttribute(tag, name, attribute.value)) copy.setAttribute(name, attribute.value);
      else if (name === 'class' && keepClass?.(attribute.value)) copy.setAttribute(name, attribute.value);
    }
    if (tag === 'a' && /^https?:/i.test(copy.getAttribute('href') ?? '')) {
      copy.setAttribute('rel', 'noopener noreferrer');
    }
    copyAllowed(child, copy, doc, keepClass);
    target.appendChild(copy);
  }
}

/** The safe part of `html` as a fragment of `doc`, ready to be appended. */
export function sanitizeHtml(
  html: string,
  doc: Document = document,
  keepClass?: KeepClass,
): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const fragment = doc.createDocumentFragment();
  copyAllowed(parsed.body, fragment, doc, keepClass);
  return fragment;
}
