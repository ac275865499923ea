import { type ReactNode, useEffect, useRef, useState } from 'react';
import './editor-chrome.css';

/** Phones, upright and sideways: the editor's compact layout (editor.css uses the same query). */
export const COMPACT_QUERY = '(max-width: 640px), (max-height: 500px)';

function matches(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(query).matches
    : false;
}

/** Whether the editor is drawn for a phone (one toolbar row, the menus in a drawer). */
export function useCompactEditor(): boolean {
  const [compact, setCompact] = useState(() => matches(COMPACT_QUERY));
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(COMPACT_QUERY);
    const update = () => setCompact(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return compact;
}

/**
 * Keeps `element`'s CSS variable --visual-top at the top of the visual viewport (the part of the
 * page on screen) inside the layout viewport. A phone's soft keyboard shrinks only the visual
 * viewport and scrolls it to the caret: a bar stuck at `top: 0` of the layout viewport is then
 * above the screen. Stuck at `top: var(--visual-top)` it stays in view.
 */
export function followVisualViewport(
  element: HTMLElement,
  viewport: Pick<
    VisualViewport,
    'offsetTop' | 'addEventListener' | 'removeEventListener'
  > | null = typeof window === 'undefined' ? null : window.visualViewport,
): () => void {
  if (!viewport) return () => {};
  const update = () => {
    const top = `${Math.max(0, Math.round(viewport.offsetTop))}px`;
    if (element.style.getPropertyValue('--visual-top') !== top)
      element.style.setProperty('--visual-top', top);
  };
  update();
  viewport.addEventListener('resize', update);
  viewport.addEventListener('scroll', update);
  return () => {
    viewport.removeEventListener('resize', update);
    viewport.removeEventListener('scroll', update);
    element.style.removeProperty('--visual-top');
  };
}

/**
 * The editor's menus and toolbar, stuck to the top of the window while the document scrolls
 * (desktop and phone, also above a phone's soft keyboard). On a phone: one row.
 */
export function EditorChrome({ compact, children }: { compact: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    return element ? followVisualViewport(element) : undefined;
  }, []);
  // Its height, for what sticks below it (the outline).
  useEffect(() => {
    const element = ref.current;
    const page = element?.parentElement;
    if (!element || !page || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      page.style.setProperty('--editor-chrome-height', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className={compact ? 'editor-chrome editor-chrome-compact' : 'editor-chrome'}>
      {children}
    </div>
  );
}
