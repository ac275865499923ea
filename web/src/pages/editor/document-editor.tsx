import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { upgradeTemplateCopy } from '@scriptorium/common/editor/academic-commands';
import { documentTitle } from '@scriptorium/common/editor/templates';
import { UNTRACKED } from '@scriptorium/common/editor/track-changes';
import { folderOf, folderUrl } from '@scriptorium/common/rules/paths';
import type { EditorView } from 'prosemirror-view';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';
import { useUnsavedChanges } from '../../app/router/hooks';
import { navigate } from '../../app/router/navigation';
import type { SocketFactory } from '../../ws/connector';
import { type DocumentConnection, userColour } from './document-connection';
import type { PanelId } from './editor-action-spec';
import { EditorChrome, useCompactEditor } from './editor-chrome';
import { EditorDialogs } from './editor-dialogs';
import { EditorMenuDrawer } from './editor-drawer';
import { EditorHeader } from './editor-header';
import { EditorMenuBar, EditorToolbar } from './editor-menus';
import { OutlinePanel, SearchPanel } from './editor-panels';
import { EditorFooter, EditorStatus } from './editor-status';
import { type PendingComment, ReviewMargin } from './review/review-margin';
import { TableContextMenu } from './tables/table-context-menu';
import { FollowConnection, shallowEqual, useConnectionValue } from './use-connection-value';
import { useDocumentCollab } from './use-document-collab';
import { useEditorActions } from './use-editor-actions';
import { useEditorView } from './use-editor-view';
import 'prosemirror-view/style/prosemirror.css';
import 'prosemirror-tables/style/tables.css';
import './editor.css';

export interface DocumentEditorProps {
  document: DocumentEntry;
  /** Tests hand in fake sockets. */
  createSocket?: SocketFactory;
}

/**
 * The editor of one document, live over its websocket: the page's shell. The collaboration
 * (use-document-collab.ts), the view (use-editor-view.ts) and the actions (use-editor-actions.ts)
 * are hooks; the header, toolbar and menus, status, side panels and dialogs are drawn from here
 * with what the user may do, as doc_data said (connection.abilities).
 */
export function DocumentEditor({ document: entry, createSocket }: DocumentEditorProps) {
  const { t } = useTranslation('editor');
  const mount = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const {
    panel,
    openPanel,
    closePanel,
    authorIndex,
    citationAt,
    sidePanels,
    toggleSidePanel,
    closeSidePanel,
  } = useEditorPanels();
  const labels = usePartLabels();
  // Review (issue 18): the comment being written, the thread in focus, a passing notice.
  const [pending, setPending] = useState<PendingComment | null>(null);
  const [activeThread, setActiveThread] = useState<number | null>(null);
  const [notice, setNotice] = useState('');
  const [exporting, setExporting] = useState(false);

  const collab = useDocumentCollab({
    documentId: entry.id,
    createSocket,
    viewRef,
    labels,
    activeThread,
    editCitation: () => openPanel('citation'),
  });
  const { connection, reviewVersion, reviewer } = collab;
  const review = connection.review;
  const view = useEditorView({ collab, mount, viewRef, labels, activeThread, openPanel, notify: setNotice });

  // What the page itself shows of the connection: it renders again only when one of these
  // changes, not on a keystroke (the toolbar, status, footer and margin follow on their own).
  const shown = useConnectionValue(
    connection,
    () => ({
      load: connection.load,
      abilities: connection.abilities,
      canWrite: connection.canWrite,
      participants: connection.participants,
      hasState: connection.session.state !== null,
      title: connection.session.state ? documentTitle(connection.session.state.doc) : null,
    }),
    shallowEqual,
  );
  const title = shown.title ?? entry.title;
  usePageTitle(title || t('untitled', { ns: 'documents' }));

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

  const { may, run } = useEditorActions({
    documentId: entry.id,
    connection,
    viewRef,
    view,
    openPanel,
    toggleSidePanel,
    startComment: setPending,
    notify: setNotice,
    setExporting,
    close: () => navigate(folderUrl(folderOf(entry.path))),
  });
  const { load, abilities: can } = shown;
  const canWrite = shown.canWrite && load === 'ready';
  const compact = useCompactEditor();

  if (load === 'denied') {
    return (
      <section className="page editor-page" aria-labelledby="page-heading">
        <h1 id="page-heading">{entry.title || t('untitled', { ns: 'documents' })}</h1>
        <p role="alert">{connection.session.state ? t('status.denied') : t('status.missing')}</p>
        <p>
          <a href={folderUrl(folderOf(entry.path))}>{t('status.back')}</a>
        </p>
      </section>
    );
  }

  // On a phone the way back and who is here go into the menus' drawer.
  const header = (
    <EditorHeader
      path={entry.path}
      participants={shown.participants}
      menuBar={
        view && !compact ? <EditorMenuBar view={view} canWrite={canWrite} run={run} may={may} /> : null
      }
    />
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
          // The pressed and enabled buttons follow the selection: the toolbar alone renders again.
          <FollowConnection connection={connection}>
            {() => <EditorToolbar view={view} canWrite={canWrite} run={run} may={may} compact={compact} />}
          </FollowConnection>
        ) : null}
      </EditorChrome>
      <UnsavedGuard connection={connection} />
      <EditorStatus connection={connection} title={title} notice={notice} exporting={exporting} />
      {view && sidePanels.search ? (
        <FollowConnection connection={connection}>
          {(revision) => <SearchPanel view={view} revision={revision} onClose={closeSidePanel('search')} />}
        </FollowConnection>
      ) : null}
      <div className={can.seeComments ? 'editor-body has-review' : 'editor-body'}>
        {view && sidePanels.outline ? (
          <FollowConnection connection={connection}>
            {(revision) => (
              <OutlinePanel view={view} revision={revision} onClose={closeSidePanel('outline')} />
            )}
          </FollowConnection>
        ) : null}
        <div className="editor-paper" ref={mount} data-testid="editor-paper">
          {load === 'loading' ? <p className="editor-loading">{t('status.loading')}</p> : null}
        </div>
        {view && load === 'ready' && can.seeComments ? (
          // The cards follow the text they stand beside: the margin alone renders again.
          <FollowConnection connection={connection}>
            {(revision) => (
              <ReviewMargin
                view={view}
                store={review}
                rights={{ userId: reviewer.id, decide: can.decideSuggestions, comment: can.comment }}
                revision={revision * 100_000 + reviewVersion}
                pending={pending}
                onPendingDone={() => setPending(null)}
                active={activeThread}
                onActivate={setActiveThread}
                colour={userColour}
                notify={setNotice}
              />
            )}
          </FollowConnection>
        ) : null}
      </div>
      <EditorFooter connection={connection} />
      {view && canWrite ? <TableContextMenu view={view} may={may} run={run} /> : null}
      <EditorDialogs
        panel={panel}
        view={view}
        review={review}
        authorIndex={authorIndex}
        citationAt={citationAt}
        canRestore={can.editFreely && load === 'ready'}
        onClose={closePanel}
        notify={setNotice}
      />
    </section>
  );
}

/** Asks before leaving while work is unconfirmed (its own component: that changes with every keystroke). */
function UnsavedGuard({ connection }: { connection: DocumentConnection }) {
  useUnsavedChanges(useConnectionValue(connection, () => connection.load === 'ready' && connection.unsaved));
  return null;
}

/** The open dialog and what it works on, and which side panels are open. */
function useEditorPanels() {
  const [panel, setPanel] = useState<PanelId | null>(null);
  const [sidePanels, setSidePanels] = useState<{ search: boolean; outline: boolean }>({
    search: false,
    outline: false,
  });
  const [authorIndex, setAuthorIndex] = useState<number | null>(null);
  // A range the citation picker replaces (null: it inserts at the selection).
  const [citationAt, setCitationAt] = useState<{ from: number; to: number } | null>(null);
  return {
    panel,
    authorIndex,
    citationAt,
    sidePanels,
    /** Opens a dialog; the contributor dialog edits the contributor given (none: a new one). */
    openPanel: (next: PanelId, options?: { authorIndex?: number | null }) => {
      if (next === 'author') setAuthorIndex(options?.authorIndex ?? null);
      else setCitationAt(null);
      setPanel(next);
    },
    closePanel: () => setPanel(null),
    toggleSidePanel: (key: 'search' | 'outline') => setSidePanels((open) => ({ ...open, [key]: !open[key] })),
    closeSidePanel: (key: 'search' | 'outline') => () => setSidePanels((open) => ({ ...open, [key]: false })),
  };
}

/**
 * The part labels are read on every view update (partLabelPlugin): each text once per language
 * (`t` is another function after a language change), not an i18next lookup per keystroke.
 */
function usePartLabels() {
  const { t } = useTranslation('editor');
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
  return labels;
}
