/**
 * The one rule for link targets (issue 50): a link goes to the web (http, https), to a mail
 * address (mailto) or to a place in the document (`#id`). Anything else (javascript:, data:,
 * vbscript:, file:, relative paths) could run code or leak data where the text is shown or
 * exported. The schema's paste rule, the editor's link command, the importers, the collaboration
 * server's diff check and the exporters all ask this module, so that they cannot disagree.
 *
 * No ProseMirror here: the rule applies to stored JSON as well as to live nodes.
 */

/** Whitespace and control characters: browsers drop them inside a scheme ("java\tscript:"). */
const TARGET_CHARS = '[^\\s\\u0000-\\u001f\\u007f]+';
const WEB_OR_MAIL = new RegExp(`^(https?://|mailto:)${TARGET_CHARS}$`, 'i');
const IN_DOCUMENT = /^#[\w-]+$/;

/** Links go to the web, to a mail address or to a heading of the document (`#id`). */
export function isSafeHref(href: string): boolean {
  return WEB_OR_MAIL.test(href) || IN_DOCUMENT.test(href);
}

/**
 * A link target as a valid URI for files that validators read (EPUB, HTML): the characters a URI
 * may not hold (`<`, `>`, `"`, braces, `|`, `\\`, `^`, backquote, a `%` that starts no escape) are
 * percent-encoded; everything else stays as the user wrote it.
 */
export function uriHref(href: string): string {
  return href.replace(/[<>"{}|\\^`]|%(?![0-9a-fA-F]{2})/g, (char) => encodeURIComponent(char));
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a mark (as JSON) is a link whose target the rule refuses. */
export function isUnsafeLinkMark(mark: unknown): boolean {
  if (!isRecord(mark) || mark.type !== 'link') return false;
  const href = isRecord(mark.attrs) ? mark.attrs.href : undefined;
  return typeof href !== 'string' || !isSafeHref(href);
}

/**
 * Whether stored or sent JSON (a document, a node, a slice, a step) holds a link the rule refuses
 * anywhere in it: in a `marks` list or as a step's `mark`.
 */
export function hasUnsafeLink(json: unknown): boolean {
  if (Array.isArray(json)) return json.some(hasUnsafeLink);
  if (!isRecord(json)) return false;
  if (Array.isArray(json.marks) && json.marks.some(isUnsafeLinkMark)) return true;
  // Removing a link is always fine (it cleans up a document written before this rule).
  if (json.stepType !== 'removeMark' && json.stepType !== 'removeNodeMark' && isUnsafeLinkMark(json.mark))
    return true;
  return Object.entries(json).some(
    ([key, value]) =>
      key !== 'marks' &&
      key !== 'mark' &&
      key !== 'attrs' &&
      typeof value === 'object' &&
      hasUnsafeLink(value),
  );
}

/**
 * The document JSON without the links the rule refuses; their text stays. Answers the same object
 * when it holds none (the common case costs one walk and no copy).
 */
export function withoutUnsafeLinks<T>(json: T): T {
  return hasUnsafeLink(json) ? (dropUnsafeLinks(json) as T) : json;
}

function dropUnsafeLinks(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(dropUnsafeLinks);
  if (!isRecord(json)) return json;
  const out: Json = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === 'marks' && Array.isArray(value)) {
      const kept = value.filter((mark) => !isUnsafeLinkMark(mark));
      if (kept.length) out.marks = kept;
    } else if (key === 'attrs') out.attrs = value;
    else out[key] = typeof value === 'object' ? dropUnsafeLinks(value) : value;
  }
  return out;
}
