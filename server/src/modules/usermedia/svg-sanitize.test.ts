import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SvgTooComplex, sanitizeSvg } from './svg-sanitize';

const HOSTILE = `<?xml version="1.0"?><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg"
  xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="30" viewBox="0 0 40 30" onload="alert(1)">
  <script>alert(2)</script>
  <style>@import url(http://evil.example/x.css);</style>
  <style>.a { fill: blue }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <rect class="a" width="40" height="30" fill="url(#g)" style="fill:url(http://evil.example/a)"/>
  <rect width="4" height="3" fill="url( 'https://evil.example/b' )" onclick="alert(4)"/>
  <image xlink:href="http://evil.example/pic.png" width="5" height="5"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>
  <a href="javascript:alert(3)"><text x="1" y="10">Hi</text></a>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
</svg>`;

describe('sanitizeSvg', () => {
  it('removes scripts, handlers and external references and keeps the drawing', async () => {
    const clean = await sanitizeSvg(HOSTILE);
    expect(clean).not.toBeNull();
    const text = clean ?? '';
    for (const bad of [
      'script',
      'onload',
      'onclick',
      'evil.example',
      'javascript:',
      'foreignObject',
      '@import',
    ]) {
      expect(text).not.toContain(bad);
    }
    expect(text).toContain('fill="url(#g)"');
    expect(text).toContain('.a{fill:blue}');
    expect(text).toContain('data:image/png;base64,iVBORw0KGgo=');
    expect(text).toContain('<text x="1" y="10">Hi</text>');
    const meta = await sharp(Buffer.from(text)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['svg', 40, 30]);
  });

  it('refuses a document without an svg root', async () => {
    expect(await sanitizeSvg('<html><body><p>hello</p></body></html>')).toBeNull();
    await expect(sanitizeSvg('not xml at all')).rejects.toBeInstanceOf(SvgTooComplex);
  });
});
