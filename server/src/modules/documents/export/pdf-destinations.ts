/**
 * The page each named destination of a PDF points at. Chromium writes a destination for every
 * target of an internal link (`<a href="#chapter-2">` gives `/chapter-2 [page /XYZ x y 0]` in the
 * catalog's /Dests dictionary) and a classic cross-reference table; the dictionaries read here
 * (catalog, page tree, pages, destinations) are plain objects, never streams.
 */

/** Where each object starts, from the cross-reference table(s) that `startxref` names. */
function objectOffsets(text: string): Map<number, number> {
  const offsets = new Map<number, number>();
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  if (!start) return offsets;
  let at = Number(start[1]);
  if (!text.startsWith('xref', at)) return offsets;
  at += 4;
  const section = /\s*(\d+) (\d+)\s*\n/y;
  for (;;) {
    section.lastIndex = at;
    const header = section.exec(text);
    if (!header) break;
    at = section.lastIndex;
    const first = Number(header[1]);
    const count = Number(header[2]);
    for (let index = 0; index < count; index++) {
      // Each entry is exactly 20 bytes: 10-digit offset, generation, 'n' (in use) or 'f' (free).
      const entry = text.slice(at + index * 20, at + index * 20 + 18);
      if (entry.endsWith('n')) offsets.set(first + index, Number(entry.slice(0, 10)));
    }
    at += count * 20;
  }
  return offsets;
}

export function destinationPages(pdf: Uint8Array): Map<string, number> {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const offsets = objectOffsets(text);
  const object = (id: number): string => {
    const from = offsets.get(id);
    if (from === undefined) return '';
    const end = text.indexOf('endobj', from);
    return end === -1 ? '' : text.slice(from, end);
  };
  const reference = (dict: string, key: string): number | null => {
    const match = new RegExp(`/${key}\\s+(\\d+)\\s+\\d+\\s+R`).exec(dict);
    return match ? Number(match[1]) : null;
  };
  const pages = new Map<number, number>();
  const trailer = text.slice(text.lastIndexOf('trailer'));
  const catalog = object(reference(trailer, 'Root') ?? -1);
  // The page tree in order: a /Pages node lists its kids; a leaf is a page.
  const walk = (id: number, depth: number) => {
    const node = object(id);
    if (/\/Type\s*\/Pages\b/.test(node) && depth < 32) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(node)?.[1] ?? '';
      for (const kid of kids.matchAll(/(\d+)\s+\d+\s+R/g)) walk(Number(kid[1]), depth + 1);
    } else pages.set(id, pages.size + 1);
  };
  const root = reference(catalog, 'Pages');
  if (root !== null) walk(root, 0);
  const destsId = reference(catalog, 'Dests');
  const dests = destsId === null ? '' : object(destsId);
  const found = new Map<string, number>();
  for (const match of dests.matchAll(/\/([^\s/[\]<>()]+)\s*\[\s*(\d+)\s+\d+\s+R/g)) {
    const page = pages.get(Number(match[2]));
    // PDF names write other characters as #xx.
    const name = match[1].replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (page !== undefined) found.set(name, page);
  }
  return found;
}

/** The number of pages of a PDF as Chromium writes it (page objects are plain dictionaries). */
export function pageCount(pdf: Uint8Array): number {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  return text.match(/\/Type\s*\/Page\b/g)?.length ?? 0;
}
