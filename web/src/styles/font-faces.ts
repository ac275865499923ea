/**
 * The shipped fonts (no network fetch), written as @font-face rules at build time by a small Vite
 * plugin (web/vite.config.ts): Source Sans 3 for the interface, Source Serif 4 for documents and
 * previews, from the @fontsource packages pinned in web/package.json. Latin and Cyrillic
 * (Bulgarian) subsets only, woff2 only; the browser downloads a file only when a character of its
 * unicode-range is shown in that face, weight and style. Bold text (700) is drawn with the 600
 * face, one file fewer.
 */

/** What main.tsx imports; the plugin answers it with the rules below. */
export const FONT_FACES_MODULE = 'virtual:font-faces.css';

const FAMILIES = [
  { family: 'Source Sans 3', package: 'source-sans-3' },
  { family: 'Source Serif 4', package: 'source-serif-4' },
] as const;

/** Weight and style of every face shipped, in both families. */
const FACES = [
  { weight: 400, style: 'normal' },
  { weight: 400, style: 'italic' },
  { weight: 600, style: 'normal' },
] as const;

/** The unicode ranges of @fontsource's latin and cyrillic subsets. */
const SUBSETS = {
  latin:
    'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD',
  cyrillic: 'U+0301, U+0400-045F, U+0490-0491, U+04B0-04B1, U+2116',
} as const;

/** The @font-face rules; the url()s are package paths that Vite resolves and fingerprints. */
export function fontFacesCss(): string {
  const rules: string[] = [];
  for (const { family, package: pkg } of FAMILIES) {
    for (const { weight, style } of FACES) {
      for (const [subset, range] of Object.entries(SUBSETS)) {
        const file = `@fontsource/${pkg}/files/${pkg}-${subset}-${weight}-${style}.woff2`;
        rules.push(
          `@font-face { font-family: "${family}"; font-style: ${style}; font-display: swap; ` +
            `font-weight: ${weight}; src: url("${file}") format("woff2"); unicode-range: ${range}; }`,
        );
      }
    }
  }
  return rules.join('\n');
}
