/**
 * Unicode characters of office math to LaTeX control words (Greek, operators, relations, arrows).
 * Characters not listed stay as they are: Temml and LuaLaTeX both read Unicode math.
 */
const SYMBOLS: Record<string, string> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\varepsilon',
  ϵ: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ϑ: '\\vartheta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ϖ: '\\varpi',
  ρ: '\\rho',
  ϱ: '\\varrho',
  σ: '\\sigma',
  ς: '\\varsigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\varphi',
  ϕ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Υ: '\\Upsilon',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
  '∞': '\\infty',
  '∂': '\\partial',
  '∇': '\\nabla',
  '±': '\\pm',
  '∓': '\\mp',
  '×': '\\times',
  '÷': '\\div',
  '·': '\\cdot',
  '⋅': '\\cdot',
  '∘': '\\circ',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '∼': '\\sim',
  '≃': '\\simeq',
  '∝': '\\propto',
  '≪': '\\ll',
  '≫': '\\gg',
  '∈': '\\in',
  '∉': '\\notin',
  '∋': '\\ni',
  '⊂': '\\subset',
  '⊃': '\\supset',
  '⊆': '\\subseteq',
  '⊇': '\\supseteq',
  '∪': '\\cup',
  '∩': '\\cap',
  '∅': '\\emptyset',
  '∀': '\\forall',
  '∃': '\\exists',
  '¬': '\\neg',
  '∧': '\\wedge',
  '∨': '\\vee',
  '→': '\\to',
  '←': '\\leftarrow',
  '↔': '\\leftrightarrow',
  '⇒': '\\Rightarrow',
  '⇐': '\\Leftarrow',
  '⇔': '\\Leftrightarrow',
  '↦': '\\mapsto',
  '…': '\\ldots',
  '⋯': '\\cdots',
  '⋮': '\\vdots',
  '⋱': '\\ddots',
  ℏ: '\\hbar',
  ℓ: '\\ell',
  ℝ: '\\mathbb{R}',
  ℕ: '\\mathbb{N}',
  ℤ: '\\mathbb{Z}',
  ℚ: '\\mathbb{Q}',
  ℂ: '\\mathbb{C}',
  '′': "'",
  '″': "''",
  '−': '-',
  '⊗': '\\otimes',
  '⊕': '\\oplus',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '‖': '\\|',
  '∥': '\\parallel',
  '∣': '\\mid',
  '⊥': '\\perp',
  '∠': '\\angle',
  '°': '^{\\circ}',
};

/** Characters LaTeX reads as syntax. */
const SPECIAL: Record<string, string> = {
  '\\': '\\backslash',
  '{': '\\{',
  '}': '\\}',
  '#': '\\#',
  '%': '\\%',
  '&': '\\&',
  $: '\\$',
  _: '\\_',
  '^': '\\hat{}',
  '~': '\\sim',
};

/** Math text to LaTeX: control words get a trailing space so that a following letter stays apart. */
export function mathText(text: string): string {
  let out = '';
  for (const char of text) {
    const word = SYMBOLS[char] ?? SPECIAL[char];
    if (word === undefined) out += char === '\u00a0' ? '~' : char;
    else out += /[a-zA-Z]$/.test(word) ? `${word} ` : word;
  }
  return out;
}

/** Text inside \text{...}: only the syntax characters are escaped. */
export function plainText(text: string): string {
  return text.replace(/[\\{}#%&$_^~]/g, (char) =>
    char === '\\' ? '\\textbackslash{}' : char === '^' ? '\\^{}' : char === '~' ? '\\~{}' : `\\${char}`,
  );
}

/** The big operators of OMML's n-ary element. */
export const NARY: Record<string, string> = {
  '∑': '\\sum',
  '∏': '\\prod',
  '∐': '\\coprod',
  '∫': '\\int',
  '∬': '\\iint',
  '∭': '\\iiint',
  '∮': '\\oint',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
  '⋁': '\\bigvee',
  '⋀': '\\bigwedge',
  '⨁': '\\bigoplus',
  '⨂': '\\bigotimes',
};

/** Combining accents of OMML's accent element. */
export const ACCENTS: Record<string, string> = {
  '\u0302': '\\widehat',
  '\u0303': '\\widetilde',
  '\u0304': '\\bar',
  '\u0305': '\\overline',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u20d7': '\\overrightarrow',
  '\u20e1': '\\overleftrightarrow',
  '‾': '\\bar',
  '\u0301': '\\acute',
  '\u0300': '\\grave',
  '\u0306': '\\breve',
  '\u030c': '\\check',
  '^': '\\widehat',
  '~': '\\widetilde',
  '¯': '\\bar',
  '→': '\\overrightarrow',
};

/** Function names LaTeX knows as operators. */
export const FUNCTIONS = new Set([
  'sin',
  'cos',
  'tan',
  'cot',
  'sec',
  'csc',
  'arcsin',
  'arccos',
  'arctan',
  'sinh',
  'cosh',
  'tanh',
  'coth',
  'log',
  'ln',
  'lg',
  'exp',
  'lim',
  'liminf',
  'limsup',
  'max',
  'min',
  'sup',
  'inf',
  'det',
  'dim',
  'ker',
  'deg',
  'gcd',
  'arg',
  'Pr',
  'hom',
]);

/** Delimiter characters to what may follow \left and \right. */
export function delimiter(char: string, side: 'left' | 'right'): string {
  if (char === '') return '.';
  const map: Record<string, string> = {
    '{': '\\{',
    '}': '\\}',
    '⟨': '\\langle',
    '⟩': '\\rangle',
    '〈': '\\langle',
    '〉': '\\rangle',
    '‖': '\\|',
    '∥': '\\|',
    '∣': '|',
    '⌊': '\\lfloor',
    '⌋': '\\rfloor',
    '⌈': '\\lceil',
    '⌉': '\\rceil',
  };
  return map[char] ?? (/^[()[\]|./]$/.test(char) ? char : side === 'left' ? '(' : ')');
}
