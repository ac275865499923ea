import { edtfParse } from 'biblatex-csl-converter';

type DatePart = number[];

function formatDate([year, month, day]: DatePart, language: string): string | null {
  if (!Number.isInteger(year) || year <= 0) return null;
  const date = new Date(Date.UTC(2000, (month ?? 1) - 1, day ?? 1));
  date.setUTCFullYear(year); // Years below 100 too.
  return new Intl.DateTimeFormat(language, {
    timeZone: 'UTC',
    year: 'numeric',
    month: month ? 'long' : undefined,
    day: day ? 'numeric' : undefined,
  }).format(date);
}

export interface EdtfTexts {
  approximate(date: string): string;
  uncertain(date: string): string;
}

/**
 * An EDTF date (as the model stores it) in words of the user's language, so that "1997-11" or
 * "1945/1946" can be checked at a glance: "November 1997", "1945 – 1946". Null when the value
 * is not a date or has no plain reading (seasons, dates before year 1).
 */
export function describeEdtf(value: string, language: string, texts: EdtfTexts): string | null {
  const parsed = edtfParse(value.trim()) as unknown as {
    type: string;
    valid: boolean;
    values: DatePart | DatePart[];
    uncertain: boolean;
    approximate: boolean;
  };
  if (!parsed.valid) return null;
  let words: string | null = null;
  if (parsed.type === 'Date') words = formatDate(parsed.values as DatePart, language);
  else if (parsed.type === 'Interval') {
    const [from, to] = (parsed.values as DatePart[]).map((end) => formatDate(end, language));
    words = from && to ? `${from} – ${to}` : null;
  }
  if (!words) return null;
  if (parsed.approximate) return texts.approximate(words);
  if (parsed.uncertain) return texts.uncertain(words);
  return words;
}
