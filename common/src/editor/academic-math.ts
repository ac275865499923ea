import temml from 'temml';

/**
 * LaTeX to MathML with Temml (issue 17). MathML is rendered natively by the browsers we support,
 * needs no fonts or style sheet, and is what HTML, EPUB, JATS and DOCX exports want, so the same
 * function serves the editor, the read-only view and the server. A LaTeX error never throws: the
 * caller gets the message and shows the source in red.
 */

export type MathResult = { ok: true; mathml: string } | { ok: false; error: string };

const cache = new Map<string, MathResult>();
const CACHE_LIMIT = 5000;

export function renderLatex(latex: string, display = false): MathResult {
  const key = `${display ? 'D' : 'I'}${latex}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let result: MathResult;
  if (!latex.trim()) result = { ok: false, error: 'empty' };
  else {
    try {
      result = {
        ok: true,
        mathml: temml.renderToString(latex, {
          displayMode: display,
          throwOnError: true,
          // \href and friends could link anywhere: never trusted.
          trust: false,
          maxExpand: 1000,
        }),
      };
    } catch (error) {
      // Temml's ParseError is not an Error subclass.
      const message = (error as { message?: unknown } | null)?.message;
      result = { ok: false, error: typeof message === 'string' ? message : String(error) };
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, result);
  return result;
}
