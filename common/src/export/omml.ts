import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { mml2omml } from 'mathml2omml';
import { renderLatex } from '../editor/academic-math';

/**
 * Office math (OMML) of an equation: Temml's MathML, normalised, converted by mathml2omml.
 *
 * mathml2omml turns a large operator with limits (∑, ∫, ∏, ⋃ … as the base of msub, msup,
 * msubsup, munder, mover, munderover) into an m:nary and sends the token right after it into the
 * operator's body (m:e). The next token of the same kind (mi, mn, mo) is then appended to the
 * "last run" of the row, which is the m:nary itself: its text lands as a bare text node inside
 * m:e, outside any m:t, and Word and LibreOffice drop it. So `\sum_{i=1}^n i = …` lost its "=".
 * Temml wraps display limits in an mrow of their own, which hides the operator from the library
 * and leaves its body empty (an empty placeholder box).
 *
 * The normalisation makes the body explicit: an mrow holding only such an operator is unwrapped,
 * and the siblings after the operator up to the next relation (=, <, ≤, →, ∈ …) or separator are
 * wrapped in one mrow, which the library converts as the operator's body.
 */

const NS = 'http://www.w3.org/1998/Math/MathML';
const SCRIPTS = new Set(['msub', 'msup', 'msubsup', 'munder', 'mover', 'munderover']);
/** The operators mathml2omml makes an m:nary of (its own test, anchored as it means it). */
const NARY = /^(?:[\u220f-\u2211]|[\u2229-\u2233]|[\u22c0-\u22c3])$/;
/** Operators that end the body of a large operator: relations, arrows, separators. */
const BODY_END =
  /^(?:[=<>≤≥≠≈≡≢∼≃≅≆≇≉∝≪≫≺≻⪯⪰≼≽∈∉∋∌⊂⊃⊄⊅⊆⊇⊊⊋⊏⊐⊑⊒∣∤∥∦⊥⊢⊣⊨≔≕:;,]|[\u2190-\u21ff]|[\u27f5-\u27ff]|:=|≦|≧)$/u;

function elementChildren(node: Element): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}

function text(node: Element): string {
  return (node.textContent ?? '').replace(/[\u2061-\u2064\u200b]/g, '').trim();
}

/** A large operator with limits that mathml2omml converts to an m:nary. */
function isNary(node: Element): boolean {
  if (!SCRIPTS.has(node.localName)) return false;
  if (node.getAttribute('accent') === 'true' || node.getAttribute('accentunder') === 'true') return false;
  const base = elementChildren(node)[0];
  return base !== undefined && NARY.test(text(base));
}

function endsBody(node: Element): boolean {
  return node.localName === 'mo' && BODY_END.test(text(node));
}

function normalise(node: Element): void {
  // An mrow holding only a large operator hides it: put the operator in the row itself.
  for (const child of elementChildren(node)) {
    const inner = elementChildren(child);
    if (child.localName === 'mrow' && inner.length === 1 && isNary(inner[0]))
      node.replaceChild(inner[0], child);
  }
  const row = elementChildren(node);
  // Scripts and fractions take their arguments by position: only rows get a body mrow.
  const isRow = !SCRIPTS.has(node.localName) && !['mfrac', 'mroot', 'mmultiscripts'].includes(node.localName);
  if (isRow) {
    for (let i = 0; i < row.length; i++) {
      if (!isNary(row[i])) continue;
      let end = i + 1;
      while (end < row.length && !endsBody(row[end])) end++;
      if (end === i + 1) continue;
      const body = node.ownerDocument.createElementNS(NS, 'mrow');
      node.insertBefore(body, row[i + 1]);
      for (const part of row.slice(i + 1, end)) body.appendChild(part);
      i = end - 1;
    }
  }
  for (const child of elementChildren(node)) normalise(child);
}

/** Temml's MathML made safe for mathml2omml (see above). */
export function normaliseMathml(mathml: string): string {
  const doc = new DOMParser().parseFromString(
    mathml.replace(/^<math/, `<math xmlns="${NS}"`).replace(/&nbsp;/g, '&#160;'),
    'text/xml',
  );
  const root = doc.documentElement;
  if (root?.localName !== 'math') return mathml;
  normalise(root as unknown as Element);
  return new XMLSerializer().serializeToString(root).replace(` xmlns="${NS}"`, '');
}

/** The m:oMath of a LaTeX equation, or null when it does not parse or convert. */
export function latexToOmml(latex: string, display: boolean): string | null {
  const result = renderLatex(latex, display);
  if (!result.ok) return null;
  try {
    // The namespace declarations on m:oMath are those of the document: drop the repeats.
    return mml2omml(normaliseMathml(result.mathml)).replace(/ xmlns:[mw]="[^"]*"/g, '');
  } catch {
    return null;
  }
}
