import { escapeXml } from '../export/text';

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
