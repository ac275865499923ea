import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import type { NodeType } from 'prosemirror-model';
import type { EditorState, Plugin, Transaction } from 'prosemirror-state';
import { allows } from './commands';
import type { BodyElement } from './schema';
import { schema } from './schema';

/** Quotation marks per language: primary open/close, secondary open/close. */
export interface QuoteMarks {
  double: [string, string];
  single: [string, string];
}

const QUOTES: Record<string, QuoteMarks> = {
  en: { double: ['\u201c', '\u201d'], single: ['\u2018', '\u2019'] },
  de: { double: ['\u201e', '\u201c'], single: ['\u201a', '\u2018'] },
  bg: { double: ['\u201e', '\u201c'], single: ['\u2018', '\u2019'] },
  // French, Spanish and Italian use guillemets; French puts a narrow no-break space inside them.
  fr: { double: ['\u00ab\u202f', '\u202f\u00bb'], single: ['\u201c', '\u201d'] },
  es: { double: ['\u00ab', '\u00bb'], single: ['\u201c', '\u201d'] },
  it: { double: ['\u00ab', '\u00bb'], single: ['\u201c', '\u201d'] },
  pt: { double: ['\u201c', '\u201d'], single: ['\u2018', '\u2019'] },
};

/** The quotation marks of a BCP 47 language tag (English ones for languages we do not know). */
export function quoteMarks(language: string): QuoteMarks {
  return QUOTES[language.toLowerCase().split('-')[0]] ?? QUOTES.en;
}

/** A quote opens at the start of a text block or after a space or an opening bracket or dash. */
const OPENS_AFTER = /(?:^|[\s{[(<\u2014\u2013\u00a0-])$/;

/** The document's language; a nested editor (a note's) asks its outer document. */
export type LanguageOf = (state: EditorState) => string;

const ownLanguage: LanguageOf = (state) => String(state.doc.attrs.language ?? 'en');

function quoteRule(char: '"' | "'", languageOf: LanguageOf): InputRule {
  return new InputRule(new RegExp(`${char}$`), (state, _match, start, end) => {
    const marks = quoteMarks(languageOf(state));
    const pair = char === '"' ? marks.double : marks.single;
    const $start = state.doc.resolve(start);
    const before = $start.parent.textBetween(0, $start.parentOffset, undefined, '\ufffc');
    const opening = OPENS_AFTER.test(before);
    // An apostrophe (it's, l'homme) is always the typographic apostrophe, in every language.
    const text = char === "'" && !opening ? '\u2019' : opening ? pair[0] : pair[1];
    return state.tr.insertText(text, start, end);
  });
}

/** What every InputRule holds at run time (declared internal in its typings). */
interface RuleInternals {
  match: RegExp;
  handler: (state: EditorState, match: RegExpMatchArray, start: number, end: number) => Transaction | null;
}

function onlyWhereAllowed(element: BodyElement, rule: InputRule): InputRule {
  // Input rules cannot be asked first, so the handler is wrapped: refuse where the part forbids it.
  const inner = rule as unknown as RuleInternals;
  return new InputRule(inner.match, (state, match, start, end) =>
    allows(state, element) ? inner.handler(state, match, start, end) : null,
  );
}

function wrapping(
  element: BodyElement,
  pattern: RegExp,
  type: NodeType,
  attrs?: (match: RegExpMatchArray) => object,
) {
  return onlyWhereAllowed(
    element,
    wrappingInputRule(
      pattern,
      type,
      attrs,
      (match, node) => node.childCount + Number(node.attrs.start ?? 0) === Number(match[1] ?? 0),
    ),
  );
}

/** The editor's input rules; smart quotes follow the document's language. */
export function editorInputRules(languageOf: LanguageOf = ownLanguage): InputRule[] {
  return [
    ...[1, 2, 3, 4, 5, 6].map((level) =>
      onlyWhereAllowed(
        `heading${level}` as BodyElement,
        textblockTypeInputRule(new RegExp(`^(#{${level}})\\s$`), schema.nodes.heading, { level }),
      ),
    ),
    wrapping('bullet_list', /^\s*([-*])\s$/, schema.nodes.bullet_list),
    wrapping('ordered_list', /^(\d+)\.\s$/, schema.nodes.ordered_list, (match) => ({
      start: Number(match[1]),
    })),
    onlyWhereAllowed('blockquote', wrappingInputRule(/^\s*>\s$/, schema.nodes.blockquote)),
    onlyWhereAllowed('code_block', textblockTypeInputRule(/^```$/, schema.nodes.code_block)),
    quoteRule('"', languageOf),
    quoteRule("'", languageOf),
    new InputRule(/--$/, '\u2014'),
    new InputRule(/\.\.\.$/, '\u2026'),
  ];
}

export function editorInputRulesPlugin(languageOf?: LanguageOf): Plugin {
  return inputRules({ rules: editorInputRules(languageOf) });
}
