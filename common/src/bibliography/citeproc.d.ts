// The parts of citeproc-js (npm "citeproc", no types of its own) that we use.
declare module 'citeproc' {
  export interface CslSys {
    retrieveLocale(lang: string): unknown;
    retrieveItem(id: string): unknown;
  }
  export interface CitationItem {
    id: string;
    prefix?: string;
    locator?: string;
    label?: string;
    'author-only'?: boolean;
    'suppress-author'?: boolean;
  }
  export class Engine {
    constructor(sys: CslSys, style: unknown, lang?: string, forceLang?: boolean);
    opt: { xclass: string };
    setOutputFormat(format: 'html' | 'text' | 'rtf'): void;
    updateItems(ids: string[]): void;
    /** `bibsection` picks entries (e.g. include by id); without it the style's own exclusions apply. */
    makeBibliography(bibsection?: {
      include?: { field: string; value: string }[];
    }): false | [{ entry_ids: string[][] } & Record<string, unknown>, string[]];
    makeCitationCluster(items: CitationItem[]): string;
    /** Every citation of a document at once: [citationID, noteIndex, text] per citation. */
    rebuildProcessorState(
      citations: { citationID: string; citationItems: CitationItem[]; properties: Record<string, unknown> }[],
      format?: 'html' | 'text' | 'rtf',
    ): [string, number, string][];
  }
  const CSL: { Engine: typeof Engine };
  export default CSL;
}
