import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize-html';

function html(source: string): string {
  const box = document.createElement('div');
  box.append(sanitizeHtml(source));
  return box.innerHTML;
}

/** Each case: what the page's source is, and what is kept of it. */
const cases: Record<string, [source: string, kept: string][]> = {
  'keeps ordinary page markup': [
    [
      '<h2 title="t">Terms</h2><p>Read <a href="/pages/privacy/">this</a>.</p><ul><li>one</li></ul>',
      '<h2 title="t">Terms</h2><p>Read <a href="/pages/privacy/">this</a>.</p><ul><li>one</li></ul>',
    ],
    [
      '<a href="https://example.org/">x</a>',
      '<a href="https://example.org/" rel="noopener noreferrer">x</a>',
    ],
  ],
  'drops scripts, styles, frames, event handlers and script links': [
    [
      '<p onclick="steal()">a<script>steal()</script><style>p{}</style></p><iframe src="x"></iframe>',
      '<p>a</p>',
    ],
    ['<a href="javascript:steal()">x</a><img src="data:text/html,x" alt="y">', '<a>x</a><img alt="y">'],
    ['<a href=" JavaScript:steal()">x</a>', '<a>x</a>'],
  ],
  'unwraps unknown elements but keeps their text': [
    ['<custom-box><font color="red">hello</font></custom-box>', 'hello'],
  ],
};

describe('sanitizeHtml', () => {
  for (const [name, pairs] of Object.entries(cases))
    it(name, () => {
      for (const [source, kept] of pairs) expect(html(source)).toBe(kept);
    });
});
