/**
 * The entry data model of biblatex-csl-converter, typed for our code. The library ships these
 * shapes only as internal types, so we describe them here once for server and browser.
 */

/** An inline mark of rich text (the LaTeX commands the converter understands). */
export interface Mark {
  type: string;
}

export interface TextNode {
  type: 'text';
  text: string;
  marks?: Mark[];
}

/** A reference to an @string macro that the parser could not resolve. */
export interface VariableNode {
  type: 'variable';
  attrs: { variable: string };
}

export type RichNode = TextNode | VariableNode;
/** Rich text: literals, titles, name parts. */
export type RichText = RichNode[];

export interface NameValue {
  literal?: RichText;
  family?: RichText;
  given?: RichText;
  prefix?: RichText;
  suffix?: RichText;
  useprefix?: boolean;
}

/** A range such as pages 97--111: one or two rich-text ends. */
export type RangeValue = [RichText] | [RichText, RichText];

/** A field value, per field type (see fieldTypeOf). */
export type FieldValue =
  | string // f_date (EDTF), f_uri, f_verbatim, option keys of f_key
  | RichText // f_literal, f_long_literal, f_title, f_integer, free f_key
  | NameValue[] // l_name
  | RangeValue[] // l_range
  | RichText[] // l_literal
  | (string | RichText)[] // l_key, l_tag
  | string[];

export type EntryFields = Record<string, FieldValue>;

/** What a user edits and the server stores for one entry. */
export interface EntryData {
  entry_key: string;
  bib_type: string;
  fields: EntryFields;
  /** Category ids. */
  cats: number[];
}

/** An entry as the server lists it (spec section 3: id plus the entry data). */
export interface BibEntry extends EntryData {
  id: number;
}

/** Spec section 3: bibliography category. */
export interface BibCategory {
  id: number;
  category_title: string;
}
