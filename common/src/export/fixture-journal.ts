import type { EntryData, RichText } from '../bibliography/types';
import { fixturePaper } from './fixture-paper';
import type { ExportInput } from './model';

/**
 * The fixture paper as a journal gets it (issue 53): in a given citation style, its first author
 * with ORCID iD and e-mail, and entries that test the keys and the titles: source0's title has
 * an acronym, a nocase span, italics and signs LaTeX must escape; source1 has no key (it gets
 * "noether1991structure"); source2's key "Source0" clashes with source0's (BibTeX ignores case).
 */

export const JOURNAL_ORCID = '0000-0002-1825-0097';
export const JOURNAL_EMAIL = 'ada_lovelace@example.org';

export const JOURNAL_TITLE: RichText = [
  { type: 'text', text: 'The ' },
  { type: 'text', text: 'DNA', marks: [{ type: 'nocase' }] },
  { type: 'text', text: ' of NASA missions and ' },
  { type: 'text', text: 'E. coli', marks: [{ type: 'em' }] },
  { type: 'text', text: ' in 50% & more of iPhone users' },
];

type Json = { type: string; attrs?: Record<string, unknown>; content?: Json[] };

export function journalPaper(style: string, csl: ExportInput['csl']): ExportInput {
  const { input } = fixturePaper();
  const content = structuredClone(input.content) as Json & { attrs: Record<string, unknown> };
  content.attrs.citationstyle = style;
  for (const part of content.content ?? []) {
    if (part.type === 'contributors_part' && part.content?.[0]?.attrs)
      Object.assign(part.content[0].attrs, { orcid: JOURNAL_ORCID, email: JOURNAL_EMAIL });
    if (part.type === 'bibliography_part')
      for (const entry of part.content ?? []) {
        const data = entry.attrs?.data as EntryData;
        if (entry.attrs?.id === '1-0')
          data.fields = {
            ...data.fields,
            title: JOURNAL_TITLE,
            doi: '10.1000/xyz_1',
            number: [{ type: 'text', text: '3' }],
          };
        if (entry.attrs?.id === '1-1') data.entry_key = '';
        if (entry.attrs?.id === '1-2') data.entry_key = 'Source0';
      }
  }
  return { ...input, content, csl };
}
