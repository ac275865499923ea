/** Small text helpers the exporters share: XML escaping and citeproc's HTML read as styled runs. */

// Characters XML 1.0 does not allow (control characters other than tab and line ends).
// biome-ignore lint/suspicious/noControlCharactersInRegex: those are exactly what must go.
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export interface StyledRun {
  text: string;
  italic: boolean;
  bold: boolean;
  sup: boolean;
  sub: boolean;
  smallcaps: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * citeproc-js's HTML output (i, b, sup, sub, small-caps spans, a few divs) as runs of plain text
 * with their styles, for formats that are not HTML (DOCX, ODT).
 */
export function htmlToRuns(html: string): StyledRun[] {
  const runs: StyledRun[] = [];
  const stack: string[] = [];
  const style = () => ({
    italic: stack.includes('i'),
    bold: stack.includes('b'),
    sup: stack.includes('sup'),
    sub: stack.includes('sub'),
    smallcaps: stack.includes('sc'),
  });
  for (const token of html.split(/(<[^>]+>)/)) {
    if (!token) continue;
    const tag = /^<(\/?)([a-z0-9]+)([^>]*)>$/i.exec(token);
    if (!tag) {
      runs.push({ text: decodeEntities(token), ...style() });
      continue;
    }
    const [, closing, rawName, rest] = tag;
    const name = rawName.toLowerCase();
    const kind =
      name === 'em' || name === 'i'
        ? 'i'
        : name === 'strong' || name === 'b'
          ? 'b'
          : name === 'sup' || name === 'sub'
            ? name
            : name === 'span' && /small-caps/.test(rest)
              ? 'sc'
              : 'other';
    if (rest.endsWith('/')) continue;
    if (closing) {
      const index = stack.lastIndexOf(kind);
      if (index >= 0) stack.splice(index, 1);
    } else stack.push(kind);
  }
  return runs.filter((run) => run.text);
}

/** citeproc HTML as plain text. */
export function htmlToText(html: string): string {
  return htmlToRuns(html)
    .map((run) => run.text)
    .join('');
}

/** citeproc HTML made well-formed XHTML (its entities are numeric; `<br>` may appear). */
export function citeprocToXhtml(html: string): string {
  return html.replace(/<br>/g, '<br/>').replace(/&nbsp;/g, '&#160;');
}

/** A file name from the title: letters, digits and a few safe signs; never empty. */
export function fileBaseName(title: string): string {
  const cleaned = title
    .normalize('NFC')
    .replace(INVALID_XML, '')
    .replace(/[\\/:*?"<>|\t\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100)
    .trim();
  return cleaned || 'document';
}
