import { describe, expect, it } from 'vitest';
import { iconElement, PENCIL_ICON, PLUS_ICON, X_ICON } from './icon-element';

describe('icon elements for node views', () => {
  it('draws the pinned lucide icons as decorative SVG', () => {
    for (const icon of [PENCIL_ICON, PLUS_ICON, X_ICON]) {
      const svg = iconElement(icon);
      expect(svg.namespaceURI).toBe('http://www.w3.org/2000/svg');
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.getAttribute('viewBox')).toBe('0 0 24 24');
      const paths = svg.querySelectorAll('path');
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) expect(path.getAttribute('d')).toMatch(/^[Mm]/);
      expect(svg.querySelector('[key]')).toBeNull();
    }
  });
});
