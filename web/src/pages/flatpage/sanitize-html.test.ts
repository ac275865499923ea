import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize-html';

function html(source: string): string {
  const box = document.createElement('div');
  box.append(sanitizeHtml(source));
  return box.innerHTML;
}

describe('sanitizeHtml', () => {
  it('keeps ordinary page markup', () => {
    expect(
      html('<h2 title="t">Terms</h2><p>Read <a href="/pages/privacy/">this</a>.</p><ul><li>one</li></ul>'),
    ).toBe('<h2 title="t">Terms</h2><p>Read <a href="/pages/privacy/">this</a>.</p><ul><li>one</li></ul>');
    expect(html('<a href="https://example.org/">x</a>')).toBe(
      '<a href="https://example.org/" rel="noopener noreferrer">x</a>',
    );
  });

  it('drops scripts, styles, frames, event handlers and script links', () => {
    expect(
      html('<p onclick="steal()">a<script>steal()</script><style>p{}</style></p><iframe src="x"></iframe>'),
    ).toBe('<p>a</p>');
    expect(html('<a href="javascript:steal()">x</a><img src="data:text/html,x" alt="y">')).toBe(
      '<a>x</a><img alt="y">',
    );
    expect(html('<a href=" JavaScript:steal()">x</a>')).toBe('<a>x</a>');
  });

  it('unwraps unknown elements but keeps their text', () => {
    expect(html('<custom-box><font color="red">hello</font></custom-box>')).toBe('hello');
  });
});
