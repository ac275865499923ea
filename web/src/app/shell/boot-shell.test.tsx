import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BootShell } from './boot-shell';

/** The element parsed from markup, without the text nodes that only indent it. */
function parsed(html: string): Element {
  const template = document.createElement('template');
  template.innerHTML = html.replace(/>\s+</g, '><').trim();
  const element = template.content.firstElementChild;
  if (!element) throw new Error('no element in the markup');
  return element;
}

describe('boot shell', () => {
  it('is drawn the same by index.html (before the scripts) and by React (while loading)', () => {
    const index = readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8');
    const shell = index.match(/<div class="boot-shell"[\s\S]*?<\/span>\s*<\/span>\s*<\/div>\s*<\/div>/);
    expect(shell).not.toBeNull();
    expect(parsed(shell?.[0] ?? '').isEqualNode(parsed(renderToStaticMarkup(<BootShell />)))).toBe(true);
  });

  it('shows the logo and the name but nothing to focus or read', () => {
    const shell = parsed(renderToStaticMarkup(<BootShell />));
    expect(shell.getAttribute('aria-hidden')).toBe('true');
    expect(shell.textContent).toBe('Scriptorium');
    expect(shell.querySelector('a, button, input, [tabindex]')).toBeNull();
  });
});
