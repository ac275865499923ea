import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffImageType } from './sniff';

const pixel = () => sharp({ create: { width: 2, height: 2, channels: 3, background: '#c00' } });

describe('sniffImageType', () => {
  it('recognises each accepted raster format from its bytes', async () => {
    expect(sniffImageType(await pixel().png().toBuffer())).toBe('image/png');
    expect(sniffImageType(await pixel().jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffImageType(await pixel().webp().toBuffer())).toBe('image/webp');
    expect(sniffImageType(await pixel().gif().toBuffer())).toBe('image/gif');
    expect(sniffImageType(await pixel().avif().toBuffer())).toBe('image/avif');
  });

  it('recognises SVG after a declaration, comments and a doctype', () => {
    const svg =
      '\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(sniffImageType(Buffer.from(svg))).toBe('image/svg+xml');
  });

  it('refuses text, HTML and other formats', async () => {
    expect(sniffImageType(Buffer.from('just some text, called picture.png'))).toBeNull();
    expect(sniffImageType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
    expect(sniffImageType(await pixel().tiff().toBuffer())).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});
