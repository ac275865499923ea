/**
 * The check an equation's LaTeX passes before the LaTeX export writes it as math (issue 50). An
 * equation is the author's source, and whoever compiles the exported .tex runs it: it must not
 * leave math mode (`\)`, `$`, `%` swallowing the closing `\)`, an `\end{equation}`, a blank line,
 * a trailing backslash, unbalanced braces) nor reach files, the shell or TeX's own machinery
 * (`\input`, `\write`, `\catcode`, `\def`, `\csname`, `\directlua`, ...). What passes is ordinary
 * math; what fails is written as visible text by the caller, never dropped.
 */

/** Commands that read or write files, define or redefine, build names or run code. */
const FORBIDDEN = new Set([
  // Files and the outside world.
  'input',
  'include',
  'includeonly',
  'includegraphics',
  'InputIfFileExists',
  'IfFileExists',
  'openin',
  'openout',
  'read',
  'readline',
  'write',
  'immediate',
  'closein',
  'closeout',
  'special',
  'shipout',
  'endinput',
  'verbatiminput',
  'lstinputlisting',
  'usepackage',
  'RequirePackage',
  'documentclass',
  'directlua',
  'luaexec',
  'latelua',
  'luadirect',
  'luacode',
  'primitive',
  'jobname',
  // Definitions and assignments.
  'def',
  'edef',
  'gdef',
  'xdef',
  'let',
  'futurelet',
  'global',
  'long',
  'outer',
  'protected',
  'catcode',
  'lccode',
  'uccode',
  'sfcode',
  'mathcode',
  'delcode',
  'chardef',
  'mathchardef',
  'countdef',
  'dimendef',
  'skipdef',
  'muskipdef',
  'toksdef',
  'toks',
  'count',
  'dimen',
  'skip',
  'muskip',
  'setbox',
  'font',
  'output',
  'afterassignment',
  'aftergroup',
  'makeatletter',
  'makeatother',
  // Building tokens from text, and expansion tricks.
  'csname',
  'endcsname',
  'begincsname',
  'lastnamedcs',
  'ifcsname',
  'scantokens',
  'scantextokens',
  'expandafter',
  'noexpand',
  'unexpanded',
  'detokenize',
  'string',
  'meaning',
  'uppercase',
  'lowercase',
  // Conditionals and loops (a loop never ends; a stray \fi breaks the document).
  'iftrue',
  'iffalse',
  'ifx',
  'ifnum',
  'ifdim',
  'ifodd',
  'ifcase',
  'ifcat',
  'ifdefined',
  'ifeof',
  'ifmmode',
  'ifinner',
  'ifhmode',
  'ifvmode',
  'ifvoid',
  'ifhbox',
  'ifvbox',
  'else',
  'fi',
  'or',
  'loop',
  'repeat',
  // Ending the paragraph, the document or the run; stopping for the user.
  'par',
  'end',
  'dump',
  'stop',
  'batchmode',
  'nonstopmode',
  'scrollmode',
  'errorstopmode',
  'errmessage',
  'errhelp',
  'message',
  'show',
  'showthe',
  'showbox',
  'showlists',
  'showtokens',
  // Links and verbatim text: not math, and they read their argument with other rules.
  'href',
  'url',
  'nolinkurl',
  'hyperref',
  'hyperlink',
  'hypertarget',
  'verb',
  'lstinline',
]);

/** Families of commands that define something or hook into TeX (\newcommand, \everymath, \pdfliteral). */
const FORBIDDEN_PREFIXES = ['new', 'renew', 'provide', 'Declare', 'every', 'pdf', 'lua'];

/** The environments an equation may open: amsmath's pieces of math inside math. */
const MATH_ENVIRONMENTS = new Set([
  'matrix',
  'pmatrix',
  'bmatrix',
  'Bmatrix',
  'vmatrix',
  'Vmatrix',
  'smallmatrix',
  'cases',
  'array',
  'subarray',
  'aligned',
  'alignedat',
  'gathered',
  'split',
]);

/** Control symbols that open or close math mode: `\(`, `\)`, `\[`, `\]`. */
const MATH_SWITCHES = new Set(['(', ')', '[', ']']);

export type MathRefusal =
  | 'forbidden_command'
  | 'math_exit'
  | 'comment'
  | 'parameter'
  | 'caret_notation'
  | 'control_character'
  | 'blank_line'
  | 'unbalanced_braces'
  | 'environment'
  /** Safe, but not math the editor (Temml) can read: set by the LaTeX writer. */
  | 'parse_error';

export type MathCheck = { ok: true } | { ok: false; refusal: MathRefusal; detail: string };

function refuse(refusal: MathRefusal, detail: string): MathCheck {
  return { ok: false, refusal, detail };
}

/**
 * Every C0 control but tab and line feed, and DEL: TeX reads them its own way (a carriage return
 * ends the line and drops the rest of it, form feed is an outer \par, DEL an invalid character).
 */
export function isControlCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && char !== '\t' && char !== '\n') || code === 0x7f;
}

/** Whether a control word (the name after the backslash) may appear in an equation. */
function allowedCommand(name: string): boolean {
  return !FORBIDDEN.has(name) && !FORBIDDEN_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Checks an equation's LaTeX source as TeX would read it in math mode (control words are ASCII
 * letters after a backslash; LuaTeX's Unicode letters only make a name longer, never one of the
 * forbidden ones).
 */
export function checkLatexMath(source: string): MathCheck {
  if (/\n[ \t\r]*\n/.test(source)) return refuse('blank_line', '');
  const control = [...source].find(isControlCharacter);
  if (control) return refuse('control_character', `U+${control.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // ^^5c is a backslash to TeX's input reader: it would hide any command from this check.
  if (source.includes('^^')) return refuse('caret_notation', '^^');
  const environments: string[] = [];
  let depth = 0;
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') {
      const word = /^[A-Za-z]+/.exec(source.slice(index + 1));
      if (!word) {
        const symbol = source[index + 1];
        // A backslash at the very end would escape the closing \) the export writes after it.
        if (symbol === undefined) return refuse('math_exit', '\\');
        if (MATH_SWITCHES.has(symbol)) return refuse('math_exit', `\\${symbol}`);
        index += 2;
        continue;
      }
      const name = word[0];
      index += 1 + name.length;
      if (name === 'begin' || name === 'end') {
        const argument = /^\s*\{([A-Za-z*]+)\}/.exec(source.slice(index));
        if (!argument) return refuse('environment', `\\${name}`);
        if (!MATH_ENVIRONMENTS.has(argument[1])) return refuse('environment', `\\${name}{${argument[1]}}`);
        if (name === 'begin') environments.push(argument[1]);
        else if (environments.pop() !== argument[1]) return refuse('environment', `\\end{${argument[1]}}`);
        index += argument[0].length;
        continue;
      }
      if (!allowedCommand(name)) return refuse('forbidden_command', `\\${name}`);
      continue;
    }
    if (char === '{') depth++;
    else if (char === '}') {
      depth--;
      if (depth < 0) return refuse('unbalanced_braces', '}');
    } else if (char === '$') return refuse('math_exit', '$');
    else if (char === '%') return refuse('comment', '%');
    else if (char === '#') return refuse('parameter', '#');
    index++;
  }
  if (depth !== 0) return refuse('unbalanced_braces', '{');
  if (environments.length) return refuse('environment', `\\begin{${environments[environments.length - 1]}}`);
  return { ok: true };
}
