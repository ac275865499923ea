import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIRST_SCREEN_MARKER, firstScreenMarkup } from '@scriptorium/common/shell/first-screen';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BootShell } from './boot-shell';

/** The element parsed from markup, without comments and the text nodes that only indent it. */
function parsed(html: string): Element {
  const template = document.createElement('template');
  template.innerHTML = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s+</g, '><')
    .trim();
  const element = template.content.firstElementChild;
  if (!element) throw new Error('no element in the markup');
  return element;
}

describe('boot shell', () => {
  const index = readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8');
  const shell = index.match(
    /<div class="boot-shell"[\s\S]*?<\/span>\s*<\/span>\s*<\/div>\s*<!-- first-screen -->\s*<\/div>/,
  )?.[0];

  it('is drawn the same by index.html (before the scripts) and by React (while loading)', () => {
    expect(shell).toBeDefined();
    expect(parsed(shell ?? '').isEqualNode(parsed(renderToStaticMarkup(<BootShell />)))).toBe(true);
  });

  it('is drawn the same with the heading the server paints into it and by React with that heading', () => {
    const painted = (shell ?? '').replace(FIRST_SCREEN_MARKER, firstScreenMarkup('Documents & <Folders>'));
    const drawn = renderToStaticMarkup(<BootShell heading="Documents & <Folders>" />);
    expect(parsed(painted).isEqualNode(parsed(drawn))).toBe(true);
    expect(parsed(drawn).querySelector('h1')?.textContent).toBe('Documents & <Folders>');
  });

  it('shows the logo and the name but nothing to focus or read', () => {
    const shell = parsed(renderToStaticMarkup(<BootShell />));
    expect(shell.getAttribute('aria-hidden')).toBe('true');
    expect(shell.textContent).toBe('Scriptorium');
    expect(shell.querySelector('a, button, input, [tabindex]')).toBeNull();
  });
});
