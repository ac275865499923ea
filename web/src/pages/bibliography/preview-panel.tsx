import type { RenderedEntry } from '@scriptorium/common/bibliography/citation-render';
import type { CslStyleInfo } from '@scriptorium/common/bibliography/csl-compact';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/form/select';
import { sanitizeHtml } from '../flatpage/sanitize-html';
import { CSL_STYLES, cslLocaleFor, DEFAULT_CSL_STYLE } from './csl/csl-assets';
import type { PreviewAnswer, PreviewRequest } from './preview-worker';
import { StyleFinder } from './style-finder';

/** At most this many selected entries are formatted at once. */
export const PREVIEW_LIMIT = 20;
const STYLE_KEY = 'scriptorium.bibliography.style';
/** Styles found by search, kept in the list so that a user's journals stay one click away. */
const RECENT_KEY = 'scriptorium.bibliography.recentStyles';
const MAX_RECENT = 8;
const STYLE_ID = /^[a-z0-9-]+$/;

function savedStyle(): string {
  try {
    const saved = localStorage.getItem(STYLE_KEY);
    if (saved && STYLE_ID.test(saved)) return saved;
  } catch {
    // Storage may be disabled.
  }
  return DEFAULT_CSL_STYLE;
}

function savedRecent(): CslStyleInfo[] {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    if (Array.isArray(list)) {
      return list.filter(
        (item): item is CslStyleInfo =>
          typeof item?.id === 'string' && STYLE_ID.test(item.id) && typeof item?.title === 'string',
      );
    }
  } catch {
    // Storage may be disabled or hold something else.
  }
  return [];
}

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not remembered then.
  }
}

let worker: Worker | null = null;
let nextRequest = 1;

function previewWorker(): Worker {
  worker ??= new Worker(new URL('./preview-worker.ts', import.meta.url), { type: 'module' });
  return worker;
}

/** Citeproc's HTML, with everything but formatting removed (entry texts are user data). */
function SafeHtml({ html, className }: { html: string; className: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(sanitizeHtml(html));
  }, [html]);
  return <div ref={ref} className={className} />;
}

/** The selected entries formatted with citeproc-js in a chosen CSL style (in a Web Worker). */
export function PreviewPanel({ entries }: { entries: EntryData[] }) {
  const { t, i18n } = useTranslation('bibliography');
  const selectId = useId();
  const [style, setStyle] = useState(savedStyle);
  const [recent, setRecent] = useState(savedRecent);
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'busy' }
    | { kind: 'failed' }
    | { kind: 'done'; styleClass: string; rendered: RenderedEntry[] }
  >({ kind: 'idle' });
  // Compared by content: a re-render with the same selection must not format again.
  const shownKey = JSON.stringify(entries.slice(0, PREVIEW_LIMIT));
  const locale = cslLocaleFor(i18n.language);

  useEffect(() => {
    const shown = JSON.parse(shownKey) as EntryData[];
    if (shown.length === 0) {
      setState({ kind: 'idle' });
      return;
    }
    const requestId = nextRequest++;
    const w = previewWorker();
    const onMessage = (event: MessageEvent<PreviewAnswer>) => {
      if (event.data.requestId !== requestId) return;
      setState(
        event.data.ok
          ? { kind: 'done', styleClass: event.data.styleClass, rendered: event.data.rendered }
          : { kind: 'failed' },
      );
    };
    w.addEventListener('message', onMessage);
    setState({ kind: 'busy' });
    w.postMessage({ requestId, style, locale, entries: shown } satisfies PreviewRequest);
    return () => w.removeEventListener('message', onMessage);
  }, [style, locale, shownKey]);

  const choose = (found: CslStyleInfo) => {
    const next = [found, ...recent.filter((s) => s.id !== found.id)].slice(0, MAX_RECENT);
    setRecent(next);
    remember(RECENT_KEY, JSON.stringify(next));
    setStyle(found.id);
    remember(STYLE_KEY, found.id);
  };
  // Found styles not among the common ones; a saved style whose title is unknown shows its id.
  const others = recent.filter((s) => !CSL_STYLES.some((common) => common.id === s.id));
  if (!CSL_STYLES.some((s) => s.id === style) && !others.some((s) => s.id === style)) {
    others.unshift({ id: style, title: style });
  }

  return (
    <section className="bib-preview" aria-labelledby={`${selectId}-heading`}>
      <header className="wrap-row bib-preview-header">
        <h2 id={`${selectId}-heading`}>{t('preview')}</h2>
        <Select
          inline
          label={t('citationStyle')}
          value={style}
          options={CSL_STYLES.map((s) => ({ value: s.id, label: s.label }))}
          groups={
            others.length > 0
              ? [{ title: t('recentStyles'), options: others.map((s) => ({ value: s.id, label: s.title })) }]
              : []
          }
          onChange={(next) => {
            setStyle(next);
            remember(STYLE_KEY, next);
          }}
        />
        <StyleFinder onChoose={choose} />
      </header>
      <div className="bib-preview-body" aria-live="polite">
        {state.kind === 'idle' ? <p className="bib-hint">{t('previewHint')}</p> : null}
        {state.kind === 'busy' ? <p className="bib-hint">{t('formatting')}</p> : null}
        {state.kind === 'failed' ? <p className="bib-form-error">{t('previewFailed')}</p> : null}
        {state.kind === 'done' ? (
          <>
            <h3>{state.styleClass === 'note' ? t('footnote') : t('citation')}</h3>
            {state.rendered.map((r) => (
              <SafeHtml key={`c-${r.id}`} html={r.citation} className="bib-preview-citation" />
            ))}
            <h3>{t('bibliographyHeading')}</h3>
            {state.rendered.map((r) => (
              <SafeHtml key={`b-${r.id}`} html={r.bibliography} className="bib-preview-entry" />
            ))}
            {entries.length > PREVIEW_LIMIT ? (
              <p className="bib-hint">{t('previewLimited', { count: PREVIEW_LIMIT })}</p>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
