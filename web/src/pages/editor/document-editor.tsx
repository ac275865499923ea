import { type DocumentEntry, TITLE_MAX } from '@scriptorium/common/api/documents';
import { upgradeTemplateCopy } from '@scriptorium/common/editor/academic-commands';
import { documentTitle } from '@scriptorium/common/editor/templates';
import { countWords } from '@scriptorium/common/editor/text-stats';
import {
  newThreadId,
  type Reviewer,
  reviewStepsAllowed,
  trackTransaction,
  UNTRACKED,
} from '@scriptorium/common/editor/track-changes';
import { folderName, folderOf, folderUrl } from '@scriptorium/common/rules/paths';
import { isHistoryTransaction } from 'prosemirror-history';
import { Selection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Action } from '../../actions/registry';
import { useActionRegistry, useActions } from '../../actions/use-actions';
import { useConfiguration, useCurrentUser } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { useUnsavedChanges } from '../../app/router/hooks';
import { navigate } from '../../app/router/navigation';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';
import type { SocketFactory } from '../../ws/connector';
import { API_REFERENCE_PATH } from '../api-reference/api-reference-path';
import { isAcademicPanel } from './academic/academic-actions';
import { AcademicDialog } from './academic/academic-dialogs';
import { academicPlugins } from './academic/academic-plugin';
import { academicNodeViews } from './academic/academic-views';
import { inlineCitePlugin, userLibrary } from './academic/inline-cite';
import { DocumentConnection, userColour } from './document-connection';
import { EDITOR_ACTIONS, type EditorActionSpec, type PanelId } from './editor-actions';
import { EditorChrome, useCompactEditor } from './editor-chrome';
import { EditorMenuDrawer } from './editor-drawer';
import { EditorMenuBar, EditorToolbar, isEnabled } from './editor-menus';
import {
  ContributorDialog,
  FaqDialog,
  LinkDialog,
  OutlinePanel,
  SearchPanel,
  SettingsDialog,
  ShortcutsDialog,
  WordCountDialog,
} from './editor-panels';
import {
  type CaretInfo,
  editorPlugins,
  footnotePlugins,
  readDomSelection,
  readDomSelectionBeforeRedraw,
} from './editor-plugins';
import { ExportRefused, runExport } from './export/run-export';
import { FootnoteView } from './footnote-view';
import { OfflineEditorStatus } from './offline-status';
import { partNodeViews } from './part-views';
import { printedNotes } from './printed-notes';
import { keepSelectionFromReact } from './react-selection';
import { HistoryDialog, SaveRevisionDialog } from './review/review-history';
import { type PendingComment, ReviewMargin } from './review/review-margin';
import { isSuggesting, reviewPlugin } from './review/review-plugin';
import { TableContextMenu } from './tables/table-context-menu';
import { TableSizeDialog } from './tables/table-size-picker';
import 'prosemirror-view/style/prosemirror.css';
import 'prosemirror-tables/style/tables.css';
import './editor.css';

export interface DocumentEditorProps {
  document: DocumentEntry;
  /** Tests hand in fake sockets. */
  createSocket?: SocketFactory;
}

/** The editor of one document, live over its websocket. */
export function DocumentEditor({ document: entry, createSocket }: DocumentEditorProps) {
  const { t, i18n } = useTranslation('editor');
  const { t: tWs } = useTranslation('ws');
  const { t: tReview } = useTranslation('review');
  const configuration = useConfiguration();
  const user = useCurrentUser();
  const mount = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const [view, setView] = useState<EditorView | null>(null);
  const [panel, setPanel] = useState<PanelId | null>(null);
  const [sidePanels, setSidePanels] = useState<{ search: boolean; outline: boolean }>({
    search: false,
    outline: false,
  });
  const closeSidePanel = (key: keyof typeof sidePanels) => () =>
    setSidePanels((open) => ({ ...open, [key]: false }));
  const [authorIndex, setAuthorIndex] = useState<number | null>(null);
  // A range the citation picker replaces (null: it inserts at the selection).
  const [citationAt, setCitationAt] = useState<{ from: number; to: number } | null>(null);
  // The part labels are read on every view update (partLabelPlugin): each text once per language
  // (`t` is another function after a language change), not an i18next lookup per keystroke.
  const labels = useRef<(key: string) => string>((key) => key);
  labels.current = useMemo(() => {
    const texts = new Map<string, string>();
    return (key: string) => {
      let text = texts.get(key);
      if (text === undefined) {
        text = t(key);
        texts.set(key, text);
      }
      return text;
    };
  }, [t]);
  const caretsRef = useRef<CaretInfo[]>([]);
  const viewInputs = useRef('');
  // Who our offline work is suggested as after a large divergence (issue 20).
  const reviewerRef = useRef<Reviewer | null>(null);
  const canWriteRef = useRef(false);
  // Review (issue 18): the comment being written, the thread in focus, a passing notice.
  const [pending, setPending] = useState<PendingComment | null>(null);
  const [activeThread, setActiveThread] = useState<number | null>(null);
  const [notice, setNotice] = useState('');
  const [exporting, setExporting] = useState(false);
  const reviewRef = useRef<{
    mustSuggest(): boolean;
    highlighted: ReadonlySet<number>;
    active: number | null;
  }>({
    mustSuggest: () => false,
    highlighted: new Set<number>(),
    active: null,
  });

  const connection = useMemo(
    () =>
      new DocumentConnection({
        documentId: entry.id,
        wsUrlBase: configuration.ws_url_base,
        createSocket,
        username: user?.username,
        author: () => reviewerRef.current,
        beforeRemoteChange: (state) => readDomSelectionBeforeRedraw(viewRef.current, state),
        plugins: () => [
          ...editorPlugins({ carets: () => caretsRef.current, label: (key) => labels.current(key) }),
          ...academicPlugins(),
          inlineCitePlugin({
            t: (key) => labels.current(key),
            library: userLibrary(user?.id ?? 0),
            edit: () => {
              setCitationAt(null);
              setPanel('citation');
            },
          }),
          reviewPlugin({
            suggesting: () => reviewRef.current.mustSuggest(),
            highlighted: () => reviewRef.current.highlighted,
            activeThread: () => reviewRef.current.active,
            colour: userColour,
          }),
        ],
      }),
    [entry.id, configuration.ws_url_base, createSocket, user?.username, user?.id],
  );
  useEffect(() => {
    connection.open();
    return () => connection.close();
  }, [connection]);
  const revision = useSyncExternalStore(connection.subscribe, connection.getVersion);
  // Remote steps reach the view at once too, not one React render later.
  useEffect(
    () =>
      connection.subscribe(() => {
        const current = viewRef.current;
        const state = connection.session.state;
        if (current && state && current.state !== state && !current.isDestroyed) current.updateState(state);
      }),
    [connection],
  );
  const session = connection.session;
  canWriteRef.current = connection.canWrite && !connection.refused;
  const review = connection.review;
  const reviewVersion = useSyncExternalStore(review.subscribe, review.getVersion);
  reviewRef.current.mustSuggest = () => connection.mustSuggest;
  reviewRef.current.highlighted = new Set(
    [...review.threads.values()].filter((thread) => !thread.resolved).map((thread) => thread.id),
  );
  reviewRef.current.active = activeThread;
  const reviewer = {
    id: user?.id ?? 0,
    username: user ? `${user.first_name} ${user.last_name}`.trim() || user.username : '',
  };
  reviewerRef.current = user ? reviewer : null;

  // Carets of others, with the participants' names and colours.
  caretsRef.current = [...session.carets.values()].map((caret) => {
    const person = connection.participants.find((p) => p.session_id === caret.sessionId);
    return {
      sessionId: caret.sessionId,
      anchor: caret.anchor,
      head: caret.head,
      name: person?.name || person?.username || '',
      colour: userColour(caret.userId),
    };
  });

  // What the view's decorations and editability read besides its state.
  const inputs = JSON.stringify([
    caretsRef.current,
    canWriteRef.current,
    [...reviewRef.current.highlighted],
    activeThread,
    connection.mustSuggest,
    i18n.language,
  ]);
  // The view is created once the first document arrived, and follows the session's state after that.
  useLayoutEffect(() => {
    const state = session.state;
    if (!state || !mount.current) return;
    let current = viewRef.current;
    if (!current) {
      const partContext = {
        t: (key: string, options?: Record<string, unknown>) => String(t(key, options)),
        editable: () => canWriteRef.current,
        editContributor: (index: number | null) => {
          setAuthorIndex(index);
          setPanel('author');
        },
      };
      current = new EditorView(mount.current, {
        state,
        editable: () => canWriteRef.current,
        attributes: { class: 'editor-document', spellcheck: 'true' },
        nodeViews: {
          footnote: (node, outer, getPos, _decorations, innerDecorations) =>
            new FootnoteView(
              node,
              outer,
              getPos,
              {
                plugins: () => footnotePlugins(() => String(outer.state.doc.attrs.language)),
                label: (number) => t('footnote.editor', { number }),
                backLabel: (number) => t('footnote.back', { number }),
                heading: () => t('footnote.heading'),
                editable: () => canWriteRef.current,
                outerKeys: (event) => {
                  // Undo and redo belong to the outer editor's history.
                  const mod = event.ctrlKey || event.metaKey;
                  if (!mod || (event.key.toLowerCase() !== 'z' && event.key.toLowerCase() !== 'y'))
                    return false;
                  return Boolean(outer.someProp('handleKeyDown', (handle) => handle(outer, event)));
                },
                // Math, citations and cross-references read as in the text; their dialogs work on
                // the document's selection, so they are opened from the text, not from here.
                nodeViews: academicNodeViews({ t: partContext.t, edit: () => {} }),
              },
              innerDecorations,
            ),
          ...partNodeViews(partContext),
          ...academicNodeViews({
            t: partContext.t,
            edit: (kind) => {
              setCitationAt(null);
              setPanel(kind);
            },
          }),
        },
        dispatchTransaction(this: EditorView, original) {
          let tr = original;
          // Suggestion mode records the change as tracked-change marks; what marks cannot record is
          // not applied (and said so). Undo and redo replay steps that must still be suggestions.
          const state = this.state;
          if (tr.docChanged && !tr.getMeta(UNTRACKED) && (connection.mustSuggest || isSuggesting(state))) {
            if (isHistoryTransaction(tr)) {
              const full = connection.abilities.editFreely;
              if (
                !full &&
                !reviewStepsAllowed(tr.steps, tr.before, reviewer.id, { comments: true, suggestions: true })
              ) {
                setNotice(labels.current('review:notTrackable'));
                return;
              }
            } else {
              const tracked = trackTransaction(tr, state, reviewer);
              if (!tracked) {
                setNotice(labels.current('review:notTrackable'));
                return;
              }
              tr = tracked;
            }
          }
          // The view must hold the new state before dispatch returns (ProseMirror reads it at once).
          session.apply(tr);
          if (session.state) this.updateState(session.state);
          if (tr.selectionSet || tr.docChanged) connection.caretMoved();
        },
      });
      keepSelectionFromReact(current.dom);
      viewRef.current = current;
      setView(current);
      // Ready to write on arrival, as in a word processor: the caret at the start, i.e. in the
      // title of a new document. (Typing before this went to the page and scrolled it.)
      if (canWriteRef.current) {
        current.dispatch(current.state.tr.setSelection(Selection.atStart(current.state.doc)));
        current.focus();
      }
    } else if (current.state !== state) {
      current.updateState(state);
    } else if (inputs !== viewInputs.current) {
      // Carets, rights, highlighted threads or the language changed: redraw decorations and
      // editability (not on every render: a redraw walks the decorations of the whole document).
      readDomSelectionBeforeRedraw(current, state);
      current.setProps({});
    }
    viewInputs.current = inputs;
    // Set only when changed: setting the editor's lang, even to the same value, may make the
    // browser recompute the style of the whole document on every keystroke.
    setChanged(current.dom, 'lang', String(state.doc.attrs.language));
    setChanged(current.dom, 'data-paper', String(state.doc.attrs.paper_size));
  });
  useEffect(
    () => () => {
      viewRef.current?.destroy();
      viewRef.current = null;
    },
    [],
  );

  // When the browser prints the editor (File > Print, a PDF while offline), the footnotes'
  // paragraphs follow the text as notes; on screen they open beside their numbers.
  useEffect(() => {
    let notes: ReturnType<typeof printedNotes> | null = null;
    const translate = (key: string) => String(t(key));
    const before = () => {
      const current = viewRef.current;
      if (!current || !mount.current) return;
      notes = printedNotes(
        current,
        translate('academic.notes'),
        academicNodeViews({ t: translate, edit: () => {} }),
      );
      mount.current.append(notes.section);
    };
    const after = () => {
      notes?.destroy();
      notes = null;
    };
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
      after();
    };
  }, [t]);

  const doc = session.state?.doc;
  const title = doc ? documentTitle(doc) : entry.title;
  usePageTitle(title || t('untitled', { ns: 'documents' }));
  useUnsavedChanges(connection.load === 'ready' && connection.unsaved);

  // A document made before the academic elements gets them in its template copy, sent once by a
  // full writer (ordinary steps: the co-authors' editors and the server follow).
  const upgraded = useRef(false);
  useEffect(() => {
    const current = viewRef.current;
    if (!current || upgraded.current || connection.load !== 'ready' || !connection.abilities.editFreely)
      return;
    upgraded.current = true;
    const tr = upgradeTemplateCopy(current.state);
    if (tr) current.dispatch(tr.setMeta(UNTRACKED, true));
  });

  // Once typing pauses, not on every keystroke (the status line renders again). Only the changed
  // blocks are counted again.
  const [words, setWords] = useState(0);
  useEffect(() => {
    if (!doc) return;
    const timer = setTimeout(() => setWords(countWords(doc)), 300);
    return () => clearTimeout(timer);
  }, [doc]);

  const close = () => navigate(folderUrl(folderOf(entry.path)));
  const { load, abilities: can } = connection;
  const decide = can.decideSuggestions && load === 'ready';
  // What each right may use: comments for every right that comments, accepting only for write.
  // Stable between keystrokes (the menu bar is memoised): changes only with the abilities.
  const may = useCallback(
    (action: EditorActionSpec): boolean => {
      if (load !== 'ready') return false;
      if (action.need === 'comment') return can.comment;
      if (action.need === 'history') return can.seeComments;
      if (action.need === 'write') return can.decideSuggestions;
      return can.edit || !action.writes;
    },
    [load, can],
  );
  const runLatest = useRef<(action: EditorActionSpec) => void>(() => {});
  const run = useCallback((action: EditorActionSpec) => runLatest.current(action), []);
  runLatest.current = (action: EditorActionSpec) => {
    const current = viewRef.current;
    if (!current) return;
    readDomSelection(current);
    if (action.panel === 'comment') {
      const { from, to, empty } = current.state.selection;
      if (empty) setNotice(tReview('selectFirst'));
      else {
        setPending({ id: newThreadId(), from, to });
        setNotice('');
      }
    } else if (action.command) {
      // Focus first: a command may move the focus on (a new footnote opens its own editor).
      current.focus();
      action.command(current.state, current.dispatch, current);
    } else if (action.panel === 'search' || action.panel === 'outline') {
      const key = action.panel;
      setSidePanels((open) => ({ ...open, [key]: !open[key] }));
    } else if (action.panel === 'author') {
      setAuthorIndex(null);
      setPanel('author');
    } else if (action.panel) {
      setCitationAt(null);
      setPanel(action.panel);
    } else if (action.special === 'export' && action.exportFormat) {
      setExporting(true);
      setNotice('');
      runExport({
        format: action.exportFormat,
        documentId: entry.id,
        doc: current.state.doc,
        threads: review.threads.values(),
      })
        .catch((error: unknown) =>
          setNotice(error instanceof ExportRefused ? error.message : t('export:failed')),
        )
        .finally(() => setExporting(false));
    } else if (action.special === 'print') window.print();
    else if (action.special === 'close') close();
    else if (action.special === 'apiReference') window.open(API_REFERENCE_PATH, '_blank', 'noopener');
  };

  // The same actions in the app's registry: the palette lists them and their keys work outside the text.
  const registry = useActionRegistry();
  // Idempotent: the editor's scope must exist before its actions register.
  registry.defineScope('editor', { priority: 20, modal: false });
  const canWrite = connection.canWrite && connection.load === 'ready';
  const compact = useCompactEditor();
  // The same objects from keystroke to keystroke: enabled and checked are asked when used.
  const registered: Action[] = useMemo(
    () =>
      view
        ? EDITOR_ACTIONS.filter(may).map((action) => ({
            id: action.id,
            scope: 'editor',
            title: action.title,
            ns: 'editor',
            label: t(action.title, action.titleOptions),
            keys: action.keymapOnly ? undefined : action.keys,
            enabled: () => isEnabled(action, view),
            checked: action.active ? () => Boolean(action.active?.(view.state)) : undefined,
            // Mod+K is the palette elsewhere: it is the link action only while the text has the focus.
            when: action.id === 'editor.link' ? () => view.hasFocus() : undefined,
            run: () => run(action),
          }))
        : [],
    [view, may, run, t],
  );
  useActions(registered);

  if (connection.load === 'denied') {
    return (
      <section className="page editor-page" aria-labelledby="page-heading">
        <h1 id="page-heading">{entry.title || t('untitled', { ns: 'documents' })}</h1>
        <p role="alert">{session.state ? t('status.denied') : t('status.missing')}</p>
        <p>
          <a href={folderUrl(folderOf(entry.path))}>{t('status.back')}</a>
        </p>
      </section>
    );
  }

  const saving = connection.unsaved;
  // On a phone the way back and who is here go into the menus' drawer.
  const header = (
    <header className="editor-header">
      <a className="editor-back" href={folderUrl(folderOf(entry.path))}>
        {t('editor.back', {
          ns: 'documents',
          folder: folderLabel(entry.path, t('allDocuments', { ns: 'documents' })),
        })}
      </a>
      {view && !compact ? <EditorMenuBar view={view} canWrite={canWrite} run={run} may={may} /> : null}
      <ul className="editor-participants" aria-label={t('participants')}>
        {connection.participants.map((person) => {
          const name = person.name || person.username;
          const label = person.id === user?.id ? t('you', { name }) : name;
          return (
            <li
              key={person.session_id}
              className="editor-avatar"
              title={label}
              aria-label={label}
              style={{ borderColor: userColour(person.id) }}
            >
              {person.avatar ? <img src={person.avatar} alt="" /> : initials(name)}
            </li>
          );
        })}
      </ul>
    </header>
  );
  return (
    <section className="page editor-page" aria-label={title || t('untitled', { ns: 'documents' })}>
      <EditorChrome compact={compact}>
        {!compact ? (
          header
        ) : view ? (
          <EditorMenuDrawer view={view} canWrite={canWrite} run={run} may={may}>
            {header}
          </EditorMenuDrawer>
        ) : null}
        {view ? (
          <EditorToolbar view={view} canWrite={canWrite} run={run} may={may} compact={compact} />
        ) : null}
      </EditorChrome>
      <div role="status" className="editor-status">
        {/* The app's connection notice says 'Disconnected'; only this page knows what is unsaved. */}
        {connection.status.state === 'disconnected' && saving ? (
          <p className="live-connection-notice" data-unsaved="true">
            {tWs('unsavedWarning')}
          </p>
        ) : null}
        {connection.refused && t(`status.refused.${connection.refused}`, { defaultValue: '' }) ? (
          <p className="editor-error">{t(`status.refused.${connection.refused}`, { max: TITLE_MAX })}</p>
        ) : null}
        {/* A title over the limit (stored before the server checked it) is shown whole, and flagged. */}
        {title.length > TITLE_MAX ? (
          <p className="editor-notice">{t('status.titleTooLong', { max: TITLE_MAX })}</p>
        ) : null}
        {connection.lost ? (
          <p className="editor-error">{t('status.lost', { count: connection.lost })}</p>
        ) : null}
        {connection.load === 'ready' && !connection.canWrite ? <p>{t('status.readOnly')}</p> : null}
        {connection.load === 'ready' && connection.mustSuggest ? <p>{tReview('suggestingOnly')}</p> : null}
        {notice ? <p className="editor-notice">{notice}</p> : null}
        <WaitOverlay active={exporting} message={t('export:busy')} />
        {connection.restored ? <p className="editor-notice">{tReview('restoredNotice')}</p> : null}
        <OfflineEditorStatus connection={connection} />
      </div>
      {view && sidePanels.search ? (
        <SearchPanel view={view} revision={revision} onClose={closeSidePanel('search')} />
      ) : null}
      <div className={can.seeComments ? 'editor-body has-review' : 'editor-body'}>
        {view && sidePanels.outline ? (
          <OutlinePanel view={view} revision={revision} onClose={closeSidePanel('outline')} />
        ) : null}
        <div className="editor-paper" ref={mount} data-testid="editor-paper">
          {connection.load === 'loading' ? <p className="editor-loading">{t('status.loading')}</p> : null}
        </div>
        {view && connection.load === 'ready' && can.seeComments ? (
          <ReviewMargin
            view={view}
            store={review}
            rights={{ userId: reviewer.id, decide, comment: can.comment }}
            revision={revision * 100_000 + reviewVersion}
            pending={pending}
            onPendingDone={() => setPending(null)}
            active={activeThread}
            onActivate={setActiveThread}
            colour={userColour}
            notify={setNotice}
          />
        ) : null}
      </div>
      {connection.load === 'ready' ? (
        <footer className="editor-footer">
          <span>{t('wordCount.status', { count: words })}</span>
          {/* data-from-cache: the copy of the offline queue is shown until the server's arrives. */}
          <span className="editor-save-state" data-saved={!saving} data-from-cache={connection.fromCache}>
            {saving ? t('status.saving') : t('status.saved')}
          </span>
        </footer>
      ) : null}
      {view && panel === 'settings' ? <SettingsDialog view={view} onClose={() => setPanel(null)} /> : null}
      {view && panel === 'wordCount' ? <WordCountDialog view={view} onClose={() => setPanel(null)} /> : null}
      {panel === 'shortcuts' ? <ShortcutsDialog onClose={() => setPanel(null)} /> : null}
      {panel === 'faq' ? <FaqDialog onClose={() => setPanel(null)} /> : null}
      {view && panel === 'link' ? <LinkDialog view={view} onClose={() => setPanel(null)} /> : null}
      {view && panel === 'tableSize' ? <TableSizeDialog view={view} onClose={() => setPanel(null)} /> : null}
      {view && canWrite ? <TableContextMenu view={view} may={may} run={run} /> : null}
      {view && isAcademicPanel(panel) ? (
        <AcademicDialog
          panel={panel}
          view={view}
          citationAt={citationAt}
          onClose={() => {
            setPanel(null);
            // After the dialog has handed the focus back (to a menu button when opened from a menu):
            // writing goes on in the text.
            requestAnimationFrame(() => view.focus());
          }}
        />
      ) : null}
      {panel === 'saveRevision' ? (
        <SaveRevisionDialog store={review} onClose={() => setPanel(null)} notify={setNotice} />
      ) : null}
      {view && panel === 'history' ? (
        <HistoryDialog
          store={review}
          current={() => view.state.doc}
          canRestore={can.editFreely && load === 'ready'}
          onClose={() => setPanel(null)}
          notify={setNotice}
        />
      ) : null}
      {view && panel === 'author' ? (
        <ContributorDialog view={view} index={authorIndex} onClose={() => setPanel(null)} />
      ) : null}
    </section>
  );
}

function folderLabel(path: string, top: string): string {
  const folder = folderOf(path);
  return folder === '/' ? top : folderName(folder);
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

function setChanged(element: HTMLElement, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
