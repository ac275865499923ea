import type { ExportImage } from './model';

/** Pixel size of a PNG, JPEG or GIF (read from its header); null for other types. */
export function imageSize(image: ExportImage): { width: number; height: number } | null {
  const b = image.data;
  if (b.length > 24 && b[0] === 0x89 && b[1] === 0x50) {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (b.length > 10 && b[0] === 0x47 && b[1] === 0x49)
    return { width: b[6] | (b[7] << 8), height: b[8] | (b[9] << 8) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 < b.length) {
      if (b[offset] !== 0xff) return null;
      const marker = b[offset + 1];
      const length = (b[offset + 2] << 8) | b[offset + 3];
      // Start-of-frame markers (not DHT 0xc4, JPG 0xc8, DAC 0xcc) carry the size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: (b[offset + 5] << 8) | b[offset + 6], width: (b[offset + 7] << 8) | b[offset + 8] };
      offset += 2 + length;
    }
  }
  return null;
}

const EXTENSION: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

export function imageExtension(image: ExportImage): string {
  return EXTENSION[image.type] ?? 'bin';
}

/** The images a format can carry, numbered in document order: src -> file name in the package. */
export function imageFiles(
  srcs: readonly string[],
  images: Record<string, ExportImage>,
  accept: (image: ExportImage) => boolean,
): Map<string, { name: string; image: ExportImage }> {
  const files = new Map<string, { name: string; image: ExportImage }>();
  for (const src of srcs) {
    const image = images[src];
    if (!image || files.has(src) || !accept(image)) continue;
    files.set(src, { name: `image${files.size + 1}.${imageExtension(image)}`, image });
  }
  return files;
}
