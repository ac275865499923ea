import { type Zippable, zipSync } from 'fflate';
import { documentLabel } from '../editor/academic-numbering';
import { bookContents, bookTitlePage, exportCss, HtmlWriter, webImages } from './html';
import { authorName, type BookStructure, COVER_SRC, groupParts, type PreparedDocument } from './model';
import { escapeXml } from './text';

/**
 * EPUB 3 export: one XHTML content document with MathML (the HTML writer's markup, suggestions
 * accepted), a navigation document from the headings, and the images. Checked with epubcheck in
 * the test suite.
 */

function uuid(): string {
  return globalThis.crypto.randomUUID();
}

export function exportEpub(prepared: PreparedDocument): Uint8Array {
  if (prepared.book) return exportBookEpub(prepared, prepared.book);
  const images = webImages(prepared);
  const writer = new HtmlWriter(prepared, {
    imageUrl: (src) => (images.has(src) ? `images/${images.get(src)?.name}` : null),
    trackChanges: 'accepted',
    epub: true,
  });
  const article = writer.article();
  const lang = escapeXml(prepared.language);
  const title = escapeXml(prepared.title || 'Untitled');
  const text = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${lang}" xml:lang="${lang}">
<head><meta charset="utf-8"/><title>${title}</title><link rel="stylesheet" type="text/css" href="style.css"/></head>
<body><article>${article}</article></body>
</html>
`;
  const headings: { id: string; text: string }[] = [];
  for (const part of prepared.body)
    part.forEach((node) => {
      if (node.type.name === 'heading' && node.attrs.level === 1 && node.attrs.id) {
        // The reading system's contents show the heading's number as the text does.
        const display = prepared.numbers.get(node)?.display;
        headings.push({
          id: String(node.attrs.id),
          text: `${display ? `${display} ` : ''}${node.textContent}`,
        });
      }
    });
  const nav = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${lang}" xml:lang="${lang}">
<head><meta charset="utf-8"/><title>${title}</title></head>
<body><nav epub:type="toc" id="toc"><h1>${title}</h1><ol><li><a href="text.xhtml">${title}</a>${
    headings.length
      ? `<ol>${headings.map((heading) => `<li><a href="text.xhtml#${escapeXml(heading.id)}">${escapeXml(heading.text || heading.id)}</a></li>`).join('')}</ol>`
      : ''
  }</li></ol></nav></body>
</html>
`;
  const hasMath = text.includes('<math');
  const modified = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const manifestImages = [...images.values()]
    .map(
      (file, index) =>
        `<item id="image${index + 1}" href="images/${file.name}" media-type="${file.image.type}"/>`,
    )
    .join('');
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="${lang}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="uid">urn:uuid:${uuid()}</dc:identifier>
<dc:title>${title}</dc:title>
<dc:language>${lang}</dc:language>
${prepared.authors
  // A name of blanks or of characters XML cannot hold is no creator (epubcheck: empty dc:creator).
  .map((person) => escapeXml(authorName(person)).trim())
  .filter(Boolean)
  .map((name) => `<dc:creator>${name}</dc:creator>`)
  .join('\n')}
${prepared.abstract?.textContent.trim() ? `<dc:description>${escapeXml(prepared.abstract.textContent)}</dc:description>` : ''}
${prepared.keywords.map((keyword) => `<dc:subject>${escapeXml(keyword)}</dc:subject>`).join('\n')}
<meta property="dcterms:modified">${modified}</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="text" href="text.xhtml" media-type="application/xhtml+xml"${hasMath ? ' properties="mathml"' : ''}/>
<item id="css" href="style.css" media-type="text/css"/>
${manifestImages}
</manifest>
<spine><itemref idref="text"/></spine>
</package>
`;
  const encoder = new TextEncoder();
  const files: Zippable = {
    ...containerFiles(),
    'EPUB/content.opf': encoder.encode(opf),
    'EPUB/nav.xhtml': encoder.encode(nav),
    'EPUB/text.xhtml': encoder.encode(text),
    'EPUB/style.css': encoder.encode(
      exportCss(prepared.paperSize).replace(/@page[^\n]*\n|@media print[^\n]*\n/g, ''),
    ),
  };
  for (const file of images.values()) files[`EPUB/images/${file.name}`] = file.image.data;
  return zipSync(files, { level: 6 });
}

/** The mimetype (first, stored uncompressed: EPUB OCF) and the container pointing at the package. */
function containerFiles(): Zippable {
  const encoder = new TextEncoder();
  const container = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
`;
  return {
    mimetype: [encoder.encode('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': encoder.encode(container),
  };
}

function contentDocument(lang: string, title: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${lang}" xml:lang="${lang}">
<head><meta charset="utf-8"/><title>${title}</title><link rel="stylesheet" type="text/css" href="style.css"/></head>
<body>${body}</body>
</html>
`;
}

/**
 * A book as EPUB 3 (issue 21): a cover page, the title page, the contents (also the navigation
 * document), a page per part, one content document per chapter with its own notes, and the
 * bibliography; the cover image marked as such, the ISBN as the identifier when there is one.
 */
function exportBookEpub(prepared: PreparedDocument, book: BookStructure): Uint8Array {
  const images = webImages(prepared);
  const imageUrl = (src: string) => (images.has(src) ? `images/${images.get(src)?.name}` : null);
  const writer = new HtmlWriter(prepared, { imageUrl, trackChanges: 'accepted', epub: true });
  const lang = escapeXml(prepared.language);
  const title = escapeXml(prepared.title || 'Untitled');
  const documents: { id: string; href: string; text: string; nav?: boolean }[] = [];
  const add = (id: string, body: string, pageTitle = title) =>
    documents.push({ id, href: `${id}.xhtml`, text: contentDocument(lang, pageTitle, body) });
  const cover = images.get(COVER_SRC);
  if (cover)
    add(
      'cover',
      `<section class="cover" epub:type="cover"><img src="images/${cover.name}" alt="${title}"/></section>`,
    );
  add('title', bookTitlePage(prepared, book, null));
  const bibliography = writer.bibliography(1);
  const contents = escapeXml(documentLabel('contents', prepared.language));
  const nav = contentDocument(
    lang,
    contents,
    `<nav epub:type="toc" id="toc"><h1>${contents}</h1>${bookContents(
      book,
      prepared.language,
      (chapter) => `${chapter.anchor}.xhtml`,
      (index) => `part-${index}.xhtml`,
      bibliography ? 'bibliography.xhtml' : null,
    )}</nav>`,
  );
  documents.push({ id: 'nav', href: 'nav.xhtml', text: nav, nav: true });
  for (const [index, group] of groupParts(book.chapters).entries()) {
    if (group.part)
      add(
        `part-${index + 1}`,
        `<section class="book-part"><h1 class="part-title">${escapeXml(group.part)}</h1></section>`,
        escapeXml(group.part),
      );
    for (const chapter of group.chapters)
      add(chapter.anchor, writer.chapter(chapter, 1), escapeXml(chapter.title || chapter.anchor));
  }
  if (bibliography)
    add('bibliography', bibliography, escapeXml(documentLabel('bibliography', prepared.language)));
  const modified = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const identifier = book.isbn
    ? `urn:isbn:${escapeXml(book.isbn.replace(/[^0-9Xx]/g, ''))}`
    : `urn:uuid:${uuid()}`;
  const manifest = [
    ...documents.map((doc) => {
      const properties = [doc.nav ? 'nav' : '', doc.text.includes('<math') ? 'mathml' : '']
        .filter(Boolean)
        .join(' ');
      return `<item id="${doc.id}" href="${doc.href}" media-type="application/xhtml+xml"${properties ? ` properties="${properties}"` : ''}/>`;
    }),
    '<item id="css" href="style.css" media-type="text/css"/>',
    ...[...images].map(
      ([src, file], index) =>
        `<item id="image${index + 1}" href="images/${file.name}" media-type="${file.image.type}"${src === COVER_SRC ? ' properties="cover-image"' : ''}/>`,
    ),
  ];
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="${lang}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="uid">${identifier}</dc:identifier>
<dc:title>${title}</dc:title>
<dc:language>${lang}</dc:language>
${prepared.authors
  // A name of blanks or of characters XML cannot hold is no creator (epubcheck: empty dc:creator).
  .map((person) => escapeXml(authorName(person)).trim())
  .filter(Boolean)
  .map((name) => `<dc:creator>${name}</dc:creator>`)
  .join('\n')}
${book.publisher ? `<dc:publisher>${escapeXml(book.publisher)}</dc:publisher>` : ''}
${book.copyright ? `<dc:rights>${escapeXml(book.copyright)}</dc:rights>` : ''}
<meta property="dcterms:modified">${modified}</meta>
</metadata>
<manifest>
${manifest.join('\n')}
</manifest>
<spine>${documents.map((doc) => `<itemref idref="${doc.id}"/>`).join('')}</spine>
</package>
`;
  const encoder = new TextEncoder();
  const files: Zippable = {
    ...containerFiles(),
    'EPUB/content.opf': encoder.encode(opf),
    'EPUB/style.css': encoder.encode(
      exportCss(prepared.paperSize, true).replace(/@page[^\n]*\n|@media print[^\n]*\n/g, ''),
    ),
  };
  for (const doc of documents) files[`EPUB/${doc.href}`] = encoder.encode(doc.text);
  for (const file of images.values()) files[`EPUB/images/${file.name}`] = file.image.data;
  return zipSync(files, { level: 6 });
}
