import * as pencil from 'lucide-react/icons/pencil';
import * as plus from 'lucide-react/icons/plus';
import * as x from 'lucide-react/icons/x';
import type { LucideIconData, LucideIconNode } from 'lucide-react/types';

/**
 * lucide icons for DOM built without React (ProseMirror node views): lucide-react publishes each
 * icon's drawing as `__iconData` beside its component; the pinned version is checked by
 * icon-element.test.ts.
 */
function dataOf(module: object): LucideIconData {
  return (module as { __iconData: LucideIconData }).__iconData;
}

export const PENCIL_ICON = dataOf(pencil);
export const PLUS_ICON = dataOf(plus);
export const X_ICON = dataOf(x);

const SVG = 'http://www.w3.org/2000/svg';

function append(parent: Element, [name, attributes, children]: LucideIconNode) {
  const element = parent.appendChild(document.createElementNS(SVG, name));
  for (const [key, value] of Object.entries(attributes)) {
    if (key !== 'key' && value !== undefined) element.setAttribute(key, String(value));
  }
  for (const child of children ?? []) append(element, child);
}

/** The icon as a decorative <svg> (lucide's default drawing: 24 grid, 2 px stroke in the text colour). */
export function iconElement(icon: LucideIconData): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  const size = String(icon.size ?? 24);
  for (const [key, value] of Object.entries({
    width: '1em',
    height: '1em',
    viewBox: `0 0 ${size} ${size}`,
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
    focusable: 'false',
  })) {
    svg.setAttribute(key, value);
  }
  for (const node of icon.node) append(svg, node);
  return svg;
}
