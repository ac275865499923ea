import { mathText } from './latex-symbols';

/**
 * Styled letters in office math: the Unicode mathematical alphanumerics (𝐅, 𝒩, 𝔤, 𝛂: LibreOffice
 * writes them) and the run styles of OMML (m:sty bold/plain, m:scr script/fraktur/double-struck), to
 * the LaTeX alphabets pandoc reads them as. Bold Greek and bold italic are \boldsymbol: LaTeX's
 * \mathbf sets neither.
 */

type Alphabet =
  | 'bold'
  | 'italic'
  | 'bold-italic'
  | 'script'
  | 'bold-script'
  | 'fraktur'
  | 'double-struck'
  | 'bold-fraktur'
  | 'sans-serif'
  | 'bold-sans-serif'
  | 'sans-serif-italic'
  | 'sans-serif-bold-italic'
  | 'monospace';

/** The Latin alphabets of U+1D400..U+1D6A3, 52 letters each, in Unicode's order. */
const LATIN: Alphabet[] = [
  'bold',
  'italic',
  'bold-italic',
  'script',
  'bold-script',
  'fraktur',
  'double-struck',
  'bold-fraktur',
  'sans-serif',
  'bold-sans-serif',
  'sans-serif-italic',
  'sans-serif-bold-italic',
  'monospace',
];
/** The Greek alphabets from U+1D6A8, 58 characters each. */
const GREEK: Alphabet[] = ['bold', 'italic', 'bold-italic', 'bold-sans-serif', 'sans-serif-bold-italic'];
const GREEK_TAIL = '∇αβγδεζηθικλμνξοπρςστυφχψω∂ϵϑϰϕϱϖ';
/** The digit alphabets from U+1D7CE, 10 digits each. */
const DIGITS: Alphabet[] = ['bold', 'double-struck', 'sans-serif', 'bold-sans-serif', 'monospace'];
/** Letters of the letterlike block that fill the holes of the alphabets above. */
const LETTERLIKE: Record<string, [Alphabet, string]> = {
  ℎ: ['italic', 'h'],
  ℬ: ['script', 'B'],
  ℰ: ['script', 'E'],
  ℱ: ['script', 'F'],
  ℋ: ['script', 'H'],
  ℐ: ['script', 'I'],
  ℒ: ['script', 'L'],
  ℳ: ['script', 'M'],
  ℛ: ['script', 'R'],
  ℯ: ['script', 'e'],
  ℊ: ['script', 'g'],
  ℴ: ['script', 'o'],
  ℭ: ['fraktur', 'C'],
  ℌ: ['fraktur', 'H'],
  ℑ: ['fraktur', 'I'],
  ℜ: ['fraktur', 'R'],
  ℨ: ['fraktur', 'Z'],
  ℂ: ['double-struck', 'C'],
  ℍ: ['double-struck', 'H'],
  ℕ: ['double-struck', 'N'],
  ℙ: ['double-struck', 'P'],
  ℚ: ['double-struck', 'Q'],
  ℝ: ['double-struck', 'R'],
  ℤ: ['double-struck', 'Z'],
};

/** A styled character's alphabet and plain character, or null. */
function decode(char: string): [Alphabet, string] | null {
  const known = LETTERLIKE[char];
  if (known) return known;
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x1d400 && code < 0x1d400 + 52 * LATIN.length) {
    const index = code - 0x1d400;
    const offset = index % 52;
    return [LATIN[Math.floor(index / 52)], String.fromCharCode(offset < 26 ? 65 + offset : 97 + offset - 26)];
  }
  if (code >= 0x1d6a8 && code < 0x1d6a8 + 58 * GREEK.length) {
    const index = code - 0x1d6a8;
    const offset = index % 58;
    // Capital theta symbol (ϴ) sits where U+03A2 is unassigned.
    const base =
      offset < 25 ? (offset === 17 ? 'Θ' : String.fromCharCode(0x391 + offset)) : GREEK_TAIL[offset - 25];
    return [GREEK[Math.floor(index / 58)], base];
  }
  if (code >= 0x1d7ce && code < 0x1d800) {
    const index = code - 0x1d7ce;
    return [DIGITS[Math.floor(index / 10)], String(index % 10)];
  }
  return null;
}

const isGreek = (text: string) => /[\u0370-\u03ff∇∂]/.test(text);

/** LaTeX of plain characters (already LaTeX) in an alphabet. */
function inAlphabet(alphabet: Alphabet, latex: string, greek: boolean): string {
  switch (alphabet) {
    case 'italic':
      return latex;
    case 'bold':
      return greek ? `\\boldsymbol{${latex}}` : `\\mathbf{${latex}}`;
    case 'bold-italic':
      return `\\boldsymbol{${latex}}`;
    case 'script':
      return `\\mathcal{${latex}}`;
    case 'bold-script':
      return `\\boldsymbol{\\mathcal{${latex}}}`;
    case 'fraktur':
      return `\\mathfrak{${latex}}`;
    case 'bold-fraktur':
      return `\\boldsymbol{\\mathfrak{${latex}}}`;
    case 'double-struck':
      return `\\mathbb{${latex}}`;
    case 'sans-serif':
    case 'sans-serif-italic':
      return `\\mathsf{${latex}}`;
    case 'bold-sans-serif':
    case 'sans-serif-bold-italic':
      return `\\boldsymbol{\\mathsf{${latex}}}`;
    case 'monospace':
      return `\\mathtt{${latex}}`;
  }
}

/** Math text with its styled characters as LaTeX alphabets (consecutive ones of one alphabet together). */
export function styledMathText(text: string): string {
  let out = '';
  let plain = '';
  let run: { alphabet: Alphabet; chars: string } | null = null;
  const flush = () => {
    if (plain) out += mathText(plain);
    plain = '';
    if (run) out += inAlphabet(run.alphabet, mathText(run.chars).trim(), isGreek(run.chars));
    run = null;
  };
  for (const char of text) {
    const styled = decode(char);
    if (!styled) {
      if (run) flush();
      plain += char;
      continue;
    }
    if (plain) flush();
    if (run && run.alphabet !== styled[0]) flush();
    run = run ?? { alphabet: styled[0], chars: '' };
    run.chars += styled[1];
  }
  flush();
  return out;
}

/** The alphabet of an OMML run's m:scr and m:sty (m:sty: p plain, b bold, i italic, bi bold italic). */
export function runAlphabet(script: string, style: string): Alphabet | null {
  const bold = style === 'b' || style === 'bi';
  switch (script) {
    case 'script':
      return bold ? 'bold-script' : 'script';
    case 'fraktur':
      return bold ? 'bold-fraktur' : 'fraktur';
    case 'double-struck':
      return 'double-struck';
    case 'sans-serif':
      return bold ? 'bold-sans-serif' : 'sans-serif';
    case 'monospace':
      return 'monospace';
    default:
      return style === 'b' ? 'bold' : style === 'bi' ? 'bold-italic' : null;
  }
}

/** Math text of a run in an alphabet: only its letters and digits take it. */
export function runText(text: string, alphabet: Alphabet | null): string {
  const latex = styledMathText(text);
  if (!alphabet || !/[\p{L}\p{N}]/u.test(text)) return latex;
  return inAlphabet(alphabet, latex.trim(), isGreek(text));
}
