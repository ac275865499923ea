import { ACCENTS, delimiter, FUNCTIONS, mathText, NARY, plainText } from './latex-symbols';
import { runAlphabet, runText } from './math-alphabets';
import { attr, child, elements, type XmlElement } from './xml';

/**
 * Office Math (OMML, the `m:` elements of a .docx) to LaTeX, the source our equation nodes keep,
 * read as pandoc reads it (the corpus in testing/omml, `omml.test.ts`). Every OMML structure of
 * Word's equation editor is covered; an element we do not know keeps its text, and the caller is
 * told (`unknown`) so that the import report can name it.
 */

export interface OmmlResult {
  latex: string;
  /** Names of elements read only as their text. */
  unknown: string[];
}

function props(node: XmlElement, propName: string): XmlElement | null {
  return child(node, propName);
}

function charProp(node: XmlElement, propName: string, name: string, fallback: string): string {
  const found = props(node, propName);
  const value = found ? child(found, name) : null;
  if (!value) return fallback;
  // An m:chr present without m:val means "no character".
  return value.hasAttribute('m:val') ? attr(value, 'm:val') : '';
}

/** An on/off property (m:degHide, m:subHide...): present without m:val means on. */
function flag(node: XmlElement, propName: string, name: string): boolean {
  const found = props(node, propName);
  const value = found ? child(found, name) : null;
  if (!value) return false;
  const val = attr(value, 'm:val');
  return !['0', 'off', 'false'].includes(val);
}

function propValue(node: XmlElement, propName: string, name: string): string {
  const found = props(node, propName);
  return attr(found ? child(found, name) : null, 'm:val');
}

/** True when `latex` is one \left...\right group (it takes a script without braces). */
function oneDelimited(latex: string): boolean {
  if (!latex.startsWith('\\left')) return false;
  let depth = 0;
  const tokens = latex.matchAll(/\\(left|right)(?![a-zA-Z])/g);
  for (const token of tokens) {
    depth += token[1] === 'left' ? 1 : -1;
    if (depth === 0) return /^\\right(\\[a-zA-Z]+|\\.|.)$/.test(latex.slice(token.index));
  }
  return false;
}

function group(latex: string): string {
  const trimmed = latex.trim();
  if (/^[A-Za-z0-9]$/.test(trimmed) || /^\\[a-zA-Z]+$/.test(trimmed)) return trimmed;
  // One command with one argument (\mathbf{A}) or one delimited group needs no braces.
  if (/^\\[a-zA-Z]+\{[^{}]*\}$/.test(trimmed) || oneDelimited(trimmed)) return trimmed;
  return `{${trimmed}}`;
}

/** Separates a control word from a letter after it. */
function joined(pieces: string[]): string {
  let out = '';
  for (const piece of pieces) {
    if (/\\[a-zA-Z]+$/.test(out) && /^[a-zA-Z]/.test(piece)) out += ' ';
    out += piece;
  }
  return out;
}

/** Over- and under-characters of m:groupChr, m:limUpp and m:limLow, by where they sit. */
const OVER: Record<string, string> = {
  '⏞': '\\overbrace',
  '→': '\\overrightarrow',
  '⟶': '\\overrightarrow',
  '←': '\\overleftarrow',
  '⟵': '\\overleftarrow',
  '↔': '\\overleftrightarrow',
  '\u20d7': '\\overrightarrow',
  '\u20d6': '\\overleftarrow',
  '\u20e1': '\\overleftrightarrow',
  '‾': '\\overline',
  '¯': '\\overline',
  '\u0305': '\\overline',
};
const UNDER: Record<string, string> = {
  '⏟': '\\underbrace',
  '→': '\\underrightarrow',
  '←': '\\underleftarrow',
  '↔': '\\underleftrightarrow',
  _: '\\underline',
  '‾': '\\underline',
  '¯': '\\underline',
};

/** The matrix environment pandoc writes for a matrix alone in delimiters. */
const MATRIX_DELIMITERS: Record<string, string> = {
  '()': 'pmatrix',
  '[]': 'bmatrix',
  '\\{\\}': 'Bmatrix',
  '||': 'vmatrix',
  '\\|\\|': 'Vmatrix',
};

/** Thin, medium and wide math spaces (pandoc writes `\,` as U+2009). */
const SPACES: Record<string, string> = {
  '\u2009': '\\,',
  '\u200a': '\\,',
  '\u2006': '\\,',
  '\u2005': '\\:',
  '\u205f': '\\:',
  '\u2004': '\\;',
  '\u2002': '\\ ',
  '\u2003': '\\quad',
};

class Converter {
  readonly unknown = new Set<string>();

  /** The LaTeX of the element's child of that name (m:e, m:num, ...), empty when absent. */
  part(node: XmlElement, name: string): string {
    const found = child(node, name);
    return found ? this.sequence(found) : '';
  }

  sequence(node: XmlElement): string {
    return joined(elements(node).map((el) => this.element(el)));
  }

  run(node: XmlElement): string {
    const text = elements(node)
      .filter((el) => el.nodeName === 'm:t' || el.nodeName === 'w:t')
      .map((el) => el.textContent ?? '')
      .join('')
      // Zero-width spaces hold empty scripts' places.
      .replace(/\u200b/g, '');
    const runProps = child(node, 'm:rPr');
    if (runProps && child(runProps, 'm:nor')) return `\\text{${plainText(text)}}`;
    const trimmed = text.trim();
    if (FUNCTIONS.has(trimmed)) return `\\${trimmed} `;
    if (NARY[trimmed]) return `${NARY[trimmed]} `;
    const style = runProps ? attr(child(runProps, 'm:sty'), 'm:val') : '';
    const script = runProps ? attr(child(runProps, 'm:scr'), 'm:val') : '';
    if (style === 'p' && !script && /^[A-Za-z]{2,}$/.test(trimmed)) return `\\mathrm{${trimmed}}`;
    let out = '';
    for (const piece of text.split(/([\u2002-\u200a\u205f])/)) {
      if (SPACES[piece]) out += SPACES[piece];
      else if (/^[\u2002-\u200a\u205f]$/.test(piece)) out += ' ';
      else if (piece) out += runText(piece, runAlphabet(script, style));
    }
    return out;
  }

  /** m:d: delimiters with separators; a matrix alone in them is pandoc's matrix environment. */
  delimited(node: XmlElement): string {
    const begin = charProp(node, 'm:dPr', 'm:begChr', '(');
    const end = charProp(node, 'm:dPr', 'm:endChr', ')');
    const sep = charProp(node, 'm:dPr', 'm:sepChr', '|');
    const parts = elements(node).filter((el) => el.nodeName === 'm:e');
    const only = parts.length === 1 ? elements(parts[0]).filter((el) => !el.nodeName.endsWith('Pr')) : [];
    const environment = MATRIX_DELIMITERS[delimiter(begin, 'left') + delimiter(end, 'right')];
    if (only.length === 1 && only[0].nodeName === 'm:m' && environment)
      return this.matrix(only[0], environment);
    if (only.length === 1 && only[0].nodeName === 'm:f' && begin === '(' && end === ')') {
      const type = propValue(only[0], 'm:fPr', 'm:type');
      if (type === 'noBar') return `\\binom{${this.part(only[0], 'm:num')}}{${this.part(only[0], 'm:den')}}`;
    }
    const separator =
      sep === '' ? '' : /^[|‖]$/.test(sep) ? ` \\middle${delimiter(sep, 'left')} ` : mathText(sep);
    const inner = joined(parts.map((el, index) => (index ? separator : '') + this.sequence(el)));
    return joined([`\\left${delimiter(begin, 'left')}`, inner, `\\right${delimiter(end, 'right')}`]);
  }

  matrix(node: XmlElement, environment = 'matrix'): string {
    const rows = elements(node)
      .filter((el) => el.nodeName === 'm:mr')
      .map((row) =>
        elements(row)
          .filter((el) => el.nodeName === 'm:e')
          .map((cell) => this.sequence(cell))
          .join(' & '),
      );
    return `\\begin{${environment}}${rows.join(' \\\\ ')}\\end{${environment}}`;
  }

  /** m:limUpp/m:limLow: a limit that is only an accent, a brace or a bar is one over or under its base. */
  limit(node: XmlElement, over: boolean): string {
    const base = this.part(node, 'm:e').trim();
    const limElement = child(node, 'm:lim');
    const limText = (limElement?.textContent ?? '').trim();
    const lim = this.part(node, 'm:lim');
    // LibreOffice writes accents and bars as limits; a bar over one letter is \bar.
    const bar = over && /^[‾¯]$/.test(limText) ? (base.length === 1 ? '\\bar' : '\\overline') : '';
    const accent = bar || (over ? (ACCENTS[limText] ?? OVER[limText]) : UNDER[limText]);
    if (accent && !/^\\(lim|max|min|sup|inf)/.test(base)) return `${accent}{${base}}`;
    if (!lim.trim()) return base;
    if (!over && /^\\(lim|max|min|sup|inf|liminf|limsup)$/.test(base)) return `${base}_${group(lim)}`;
    return `${over ? '\\overset' : '\\underset'}{${lim}}{${base}}`;
  }

  script(node: XmlElement, name: 'm:sub' | 'm:sup'): string {
    const latex = this.part(node, name).trim();
    // A prime alone in a superscript.
    return name === 'm:sup' && /^'+$/.test(latex) ? '\\prime'.repeat(latex.length) : latex;
  }

  element(node: XmlElement): string {
    switch (node.nodeName) {
      case 'm:r':
        return this.run(node);
      case 'm:oMath':
      case 'm:e':
      case 'm:box':
        return this.sequence(node);
      case 'm:borderBox':
        return `\\boxed{${this.part(node, 'm:e')}}`;
      case 'm:phant': {
        // m:show off: the base takes its room unseen.
        const phantProps = props(node, 'm:phantPr');
        const hidden = !!phantProps && !!child(phantProps, 'm:show') && !flag(node, 'm:phantPr', 'm:show');
        return hidden ? `\\phantom{${this.part(node, 'm:e')}}` : this.part(node, 'm:e');
      }
      case 'm:f': {
        const type = propValue(node, 'm:fPr', 'm:type');
        const num = this.part(node, 'm:num');
        const den = this.part(node, 'm:den');
        if (type === 'lin') return `${group(num)}/${group(den)}`;
        if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
        return `\\frac{${num}}{${den}}`;
      }
      case 'm:sSup':
        return `${group(this.part(node, 'm:e'))}^${group(this.script(node, 'm:sup'))}`;
      case 'm:sSub':
        return `${group(this.part(node, 'm:e'))}_${group(this.script(node, 'm:sub'))}`;
      case 'm:sSubSup':
        return `${group(this.part(node, 'm:e'))}_${group(this.script(node, 'm:sub'))}^${group(this.script(node, 'm:sup'))}`;
      case 'm:sPre':
        return `{}_${group(this.script(node, 'm:sub'))}^${group(this.script(node, 'm:sup'))}${group(this.part(node, 'm:e'))}`;
      case 'm:rad': {
        const degree = this.part(node, 'm:deg');
        const base = this.part(node, 'm:e');
        return degree.trim() && !flag(node, 'm:radPr', 'm:degHide')
          ? `\\sqrt[${degree}]{${base}}`
          : `\\sqrt{${base}}`;
      }
      case 'm:nary': {
        const chr = charProp(node, 'm:naryPr', 'm:chr', '∫');
        const op = NARY[chr] ?? mathText(chr);
        const sub = flag(node, 'm:naryPr', 'm:subHide') ? '' : this.part(node, 'm:sub').trim();
        const sup = flag(node, 'm:naryPr', 'm:supHide') ? '' : this.part(node, 'm:sup').trim();
        return `${op}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${this.part(node, 'm:e')}`;
      }
      case 'm:d':
        return this.delimited(node);
      case 'm:func': {
        const name = this.functionName(child(node, 'm:fName'));
        return `${name} ${this.part(node, 'm:e')}`;
      }
      case 'm:acc': {
        const chr = charProp(node, 'm:accPr', 'm:chr', '\u0302');
        return `${ACCENTS[chr] ?? OVER[chr] ?? '\\widehat'}{${this.part(node, 'm:e')}}`;
      }
      case 'm:bar': {
        // The bar is under its base unless m:pos says top.
        const top = propValue(node, 'm:barPr', 'm:pos') === 'top';
        return `${top ? '\\overline' : '\\underline'}{${this.part(node, 'm:e')}}`;
      }
      case 'm:limLow':
        return this.limit(node, false);
      case 'm:limUpp':
        return this.limit(node, true);
      case 'm:groupChr': {
        const chr = charProp(node, 'm:groupChrPr', 'm:chr', '\u23df');
        const top = propValue(node, 'm:groupChrPr', 'm:pos') === 'top';
        const base = this.part(node, 'm:e');
        const command =
          chr === '⏞' || chr === '⏟' ? (chr === '⏞' ? OVER[chr] : UNDER[chr]) : (top ? OVER : UNDER)[chr];
        if (command) return `${command}{${base}}`;
        return `${top ? '\\overset' : '\\underset'}{${mathText(chr)}}{${base}}`;
      }
      case 'm:m':
        return this.matrix(node);
      case 'm:eqArr': {
        const rows = elements(node)
          .filter((el) => el.nodeName === 'm:e')
          .map((row) => this.sequence(row));
        // Word's alignment points (&) make it aligned; without them it reads as pandoc's matrix.
        const environment = rows.some((row) => /(^|[^\\])&/.test(row)) ? 'aligned' : 'matrix';
        return `\\begin{${environment}}${rows.join(' \\\\ ')}\\end{${environment}}`;
      }
      case 'm:num':
      case 'm:den':
      case 'm:sub':
      case 'm:sup':
      case 'm:deg':
      case 'm:lim':
      case 'm:fName':
        return this.sequence(node);
      default:
        // Properties (m:*Pr), Word's own run properties and bookmarks carry no math.
        if (node.nodeName.endsWith('Pr') || node.nodeName.startsWith('w:')) {
          return node.nodeName === 'w:r' ? this.run(node) : '';
        }
        this.unknown.add(node.nodeName);
        return mathText(node.textContent ?? '');
    }
  }

  /** A function's name: LaTeX's own operators, else an \operatorname. */
  functionName(fName: XmlElement | null): string {
    if (!fName) return '';
    const parts = elements(fName);
    if (parts.length === 1 && parts[0].nodeName === 'm:r') {
      const name = (parts[0].textContent ?? '').trim();
      if (/^[A-Za-z]{2,}$/.test(name) && !FUNCTIONS.has(name)) return `\\operatorname{${name}}`;
    }
    return this.sequence(fName).trim();
  }
}

/** An `m:oMath` element to LaTeX. */
export function ommlToLatex(math: XmlElement): OmmlResult {
  const converter = new Converter();
  const latex = converter
    .sequence(math)
    .replace(/[ \t\n\r]+/g, ' ')
    .trim();
  return { latex, unknown: [...converter.unknown] };
}
