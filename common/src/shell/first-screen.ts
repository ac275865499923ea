import { escapeXml } from '../export/text';
import { DEFAULT_LANGUAGE } from '../i18n/languages';

/**
 * The overview's heading in index.html's boot shell. For a logged-in browser's own navigation to
 * '/', the server writes it where index.html holds FIRST_SCREEN_MARKER, in the user's language, so
 * that the first paint shows the page's heading (its largest text) before any script has run; the
 * app's boot shell (web/src/app/shell/boot-shell.tsx) draws the same markup until the overview
 * replaces it. On a phone's network the heading came after the scripts, about 4 s (issue 23).
 */
export const FIRST_SCREEN_MARKER = '<!-- first-screen -->';

/** The boot shell's main area with the overview's heading `heading` (plain text). */
export function firstScreenMarkup(heading: string): string {
  return `<main class="app-main"><section class="page documents-page"><h1 class="documents-heading">${escapeXml(heading)}</h1></section></main>`;
}

/**
 * The comment in index.html's head around the preload links of a logged-in start at '/' (written
 * by the build, web/vite.config.ts): the server takes the comment out for that start and keeps the
 * texts' links of the user's language and of English, the fallback the app loads beside it. A
 * visitor's page, and the offline shell, keep the comment.
 */
export const FIRST_SCREEN_PRELOADS = {
  start: '<!-- first-screen-preloads',
  end: 'first-screen-preloads -->',
};

/** index.html with the first screen's preloads in effect, for a start in `language`. */
export function withFirstScreenPreloads(html: string, language: string): string {
  const start = html.indexOf(FIRST_SCREEN_PRELOADS.start);
  const end = html.indexOf(FIRST_SCREEN_PRELOADS.end, start);
  if (start < 0 || end < 0) return html;
  const links = html
    .slice(start + FIRST_SCREEN_PRELOADS.start.length, end)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => {
      const linkLanguage = / data-language="([^"]+)"/.exec(line)?.[1];
      return linkLanguage ? linkLanguage === language || linkLanguage === DEFAULT_LANGUAGE : line !== '';
    });
  return html.slice(0, start) + links.join('\n    ') + html.slice(end + FIRST_SCREEN_PRELOADS.end.length);
}
