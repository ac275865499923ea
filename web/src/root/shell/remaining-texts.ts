import { loadAllNamespaces } from '../../i18n/i18n';

/**
 * How long after the logged-in shell's first render the other screens' texts start to load. Any
 * screen opened sooner loads its own first (lazyScreen), so this decides only when the download
 * may compete with the first screen's: not before its paint on a slow phone (issue 23).
 */
const REMAINING_TEXTS_DELAY_MS = 2000;

/** Every other namespace, a while after the first screen: a later screen then rarely waits for texts. */
export function loadRemainingTexts(): void {
  setTimeout(() => void loadAllNamespaces().catch(() => undefined), REMAINING_TEXTS_DELAY_MS);
}
