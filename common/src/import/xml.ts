import { DOMParser } from '@xmldom/xmldom';
import { ImportRefused } from './problems';

/**
 * XML of office files, read with @xmldom/xmldom (the same parser in the browser and in Node).
 * Elements are matched by their qualified name (`w:p`, `text:h`): both formats fix their prefixes
 * in practice, and matching names keeps the readers short.
 */

export type XmlElement = Element;

export function parseXml(source: string): XmlElement {
  let failed = false;
  const doc = new DOMParser({
    onError: (level) => {
      if (level === 'fatalError' || level === 'error') failed = true;
    },
  }).parseFromString(source, 'text/xml');
  const root = doc.documentElement;
  if (failed || !root) throw new ImportRefused('corrupt');
  return root as unknown as XmlElement;
}

export function elements(node: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) out.push(child as XmlElement);
  }
  return out;
}

export function child(node: XmlElement, name: string): XmlElement | null {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as XmlElement).nodeName === name) return c as XmlElement;
  }
  return null;
}

export function children(node: XmlElement, name: string): XmlElement[] {
  return elements(node).filter((el) => el.nodeName === name);
}

/** All descendants of that name, in document order. */
export function descendants(node: XmlElement, name: string): XmlElement[] {
  return Array.from(node.getElementsByTagName(name) as unknown as ArrayLike<XmlElement>);
}

export function attr(node: XmlElement | null, name: string): string {
  return node?.getAttribute(name) ?? '';
}

export function textOf(node: XmlElement): string {
  return node.textContent ?? '';
}

export function serialize(node: XmlElement): string {
  return String(node);
}
