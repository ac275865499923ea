import { ACCENTS, delimiter, FUNCTIONS, mathText, NARY, plainText } from './latex-symbols';
import { attr, child, elements, type XmlElement } from './xml';

/**
 * Office Math (OMML, the `m:` elements of a .docx) to LaTeX, the source our equation nodes keep.
 * Every OMML structure of Word's equation editor is covered; an element we do not know keeps its
 * text, and the caller is told (`unknown`) so that the import report can name it.
 */

export interface OmmlResult {
  latex: string;
  /** Names of elements read only as their text. */
  unknown: string[];
}

function charProp(node: XmlElement, propName: string, name: string, fallback: string): string {
  const props = child(node, propName);
  const value = props ? child(props, name) : null;
  if (!value) return fallback;
  // An m:chr present without m:val means "no character".
  return value.hasAttribute('m:val') ? attr(value, 'm:val') : '';
}

function group(latex: string): string {
  const trimmed = latex.trim();
  return /^[A-Za-z0-9]$/.test(trimmed) || /^\\[a-zA-Z]+$/.test(trimmed) ? trimmed : `{${trimmed}}`;
}

class Converter {
  readonly unknown = new Set<string>();

  /** The LaTeX of the element's child of that name (m:e, m:num, ...), empty when absent. */
  part(node: XmlElement, name: string): string {
    const found = child(node, name);
    return found ? this.sequence(found) : '';
  }

  sequence(node: XmlElement): string {
    let out = '';
    for (const el of elements(node)) {
      const piece = this.element(el);
      // Keep control words apart from letters that follow them.
      if (/\\[a-zA-Z]+$/.test(out) && /^[a-zA-Z]/.test(piece)) out += ' ';
      out += piece;
    }
    return out;
  }

  run(node: XmlElement): string {
    const text = elements(node)
      .filter((el) => el.nodeName === 'm:t' || el.nodeName === 'w:t')
      .map((el) => el.textContent ?? '')
      .join('');
    const props = child(node, 'm:rPr');
    if (props && child(props, 'm:nor')) return `\\text{${plainText(text)}}`;
    const trimmed = text.trim();
    if (FUNCTIONS.has(trimmed)) return `\\${trimmed} `;
    const style = props ? attr(child(props, 'm:sty'), 'm:val') : '';
    if (style === 'p' && /^[A-Za-z]{2,}$/.test(trimmed)) return `\\mathrm{${trimmed}}`;
    return mathText(text);
  }

  element(node: XmlElement): string {
    switch (node.nodeName) {
      case 'm:r':
        return this.run(node);
      case 'm:oMath':
      case 'm:e':
      case 'm:box':
      case 'm:borderBox':
      case 'm:phant':
        return this.sequence(node);
      case 'm:f': {
        const type = attr(child(child(node, 'm:fPr') ?? node, 'm:type'), 'm:val');
        const num = this.part(node, 'm:num');
        const den = this.part(node, 'm:den');
        if (type === 'lin') return `${group(num)}/${group(den)}`;
        if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
        return `\\frac{${num}}{${den}}`;
      }
      case 'm:sSup':
        return `${group(this.part(node, 'm:e'))}^${group(this.part(node, 'm:sup'))}`;
      case 'm:sSub':
        return `${group(this.part(node, 'm:e'))}_${group(this.part(node, 'm:sub'))}`;
      case 'm:sSubSup':
        return `${group(this.part(node, 'm:e'))}_${group(this.part(node, 'm:sub'))}^${group(this.part(node, 'm:sup'))}`;
      case 'm:sPre':
        return `{}_${group(this.part(node, 'm:sub'))}^${group(this.part(node, 'm:sup'))}${group(this.part(node, 'm:e'))}`;
      case 'm:rad': {
        const hidden = attr(child(child(node, 'm:radPr') ?? node, 'm:degHide'), 'm:val');
        const degree = this.part(node, 'm:deg');
        const base = this.part(node, 'm:e');
        return degree && hidden !== '1' && hidden !== 'on' ? `\\sqrt[${degree}]{${base}}` : `\\sqrt{${base}}`;
      }
      case 'm:nary': {
        const chr = charProp(node, 'm:naryPr', 'm:chr', '∫');
        const op = NARY[chr] ?? mathText(chr);
        const sub = this.part(node, 'm:sub');
        const sup = this.part(node, 'm:sup');
        return `${op}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${this.part(node, 'm:e')}`;
      }
      case 'm:d': {
        const begin = charProp(node, 'm:dPr', 'm:begChr', '(');
        const end = charProp(node, 'm:dPr', 'm:endChr', ')');
        const sep = charProp(node, 'm:dPr', 'm:sepChr', '|');
        const inner = elements(node)
          .filter((el) => el.nodeName === 'm:e')
          .map((el) => this.sequence(el))
          .join(sep === '|' ? ' \\mid ' : mathText(sep));
        return `\\left${delimiter(begin, 'left')}${inner}\\right${delimiter(end, 'right')}`;
      }
      case 'm:func': {
        const name = this.part(node, 'm:fName').trim();
        return `${name} ${group(this.part(node, 'm:e'))}`;
      }
      case 'm:acc': {
        const chr = charProp(node, 'm:accPr', 'm:chr', '\u0302');
        return `${ACCENTS[chr] ?? '\\hat'}{${this.part(node, 'm:e')}}`;
      }
      case 'm:bar': {
        const pos = attr(child(child(node, 'm:barPr') ?? node, 'm:pos'), 'm:val');
        return `${pos === 'top' ? '\\overline' : '\\underline'}{${this.part(node, 'm:e')}}`;
      }
      case 'm:limLow': {
        const base = this.part(node, 'm:e').trim();
        const lim = this.part(node, 'm:lim');
        return /^\\(lim|max|min|sup|inf|liminf|limsup)$/.test(base)
          ? `${base}_${group(lim)}`
          : `\\underset{${lim}}{${base}}`;
      }
      case 'm:limUpp':
        return `\\overset{${this.part(node, 'm:lim')}}{${this.part(node, 'm:e')}}`;
      case 'm:groupChr': {
        const chr = charProp(node, 'm:groupChrPr', 'm:chr', '\u23df');
        const base = this.part(node, 'm:e');
        return chr === '\u23de' ? `\\overbrace{${base}}` : `\\underbrace{${base}}`;
      }
      case 'm:m': {
        const rows = elements(node)
          .filter((el) => el.nodeName === 'm:mr')
          .map((row) =>
            elements(row)
              .filter((el) => el.nodeName === 'm:e')
              .map((cell) => this.sequence(cell))
              .join(' & '),
          );
        return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
      }
      case 'm:eqArr': {
        const rows = elements(node)
          .filter((el) => el.nodeName === 'm:e')
          .map((row) => this.sequence(row));
        return `\\begin{gathered}${rows.join(' \\\\ ')}\\end{gathered}`;
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
}

/** An `m:oMath` element to LaTeX. */
export function ommlToLatex(math: XmlElement): OmmlResult {
  const converter = new Converter();
  const latex = converter.sequence(math).replace(/\s+/g, ' ').trim();
  return { latex, unknown: [...converter.unknown] };
}
