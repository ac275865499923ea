import type { Reviewer } from '@scriptorium/common/editor/track-changes';
import type { EditorView } from 'prosemirror-view';
import { type RefObject, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useConfiguration, useCurrentUser } from '../../app/configuration/app-context';
import type { SocketFactory } from '../../ws/connector';
import { academicPlugins } from './academic/academic-plugin';
import { inlineCitePlugin, userLibrary } from './academic/inline-cite';
import { DocumentConnection, userColour } from './document-connection';
import { type CaretInfo, editorPlugins, readDomSelectionBeforeRedraw } from './editor-plugins';
import { reviewPlugin } from './review/review-plugin';

/** What the view's plugins read besides its state; kept current on every render. */
export interface ReviewInputs {
  mustSuggest(): boolean;
  highlighted: ReadonlySet<number>;
  active: number | null;
}

export interface DocumentCollabOptions {
  documentId: number;
  createSocket?: SocketFactory;
  viewRef: RefObject<EditorView | null>;
  /** The part labels, translated once per language (partLabelPlugin reads them on every update). */
  labels: RefObject<(key: string) => string>;
  /** The comment thread in focus (highlighted in the text). */
  activeThread: number | null;
  /** A citation in the text asks for its dialog; a stable function (the plugins keep the first one). */
  editCitation(): void;
}

export interface DocumentCollab {
  connection: DocumentConnection;
  /** Moves once per painted frame that changed anything (the page renders again). */
  revision: number;
  reviewVersion: number;
  /** The user as the review marks name them. */
  reviewer: Reviewer;
  /** Others' carets, with the participants' names and colours. */
  caretsRef: RefObject<CaretInfo[]>;
  /** Whether the text may be changed now (the view's editable, footnotes and parts). */
  canWriteRef: RefObject<boolean>;
  reviewRef: RefObject<ReviewInputs>;
}

/**
 * The collaboration behind the editor page: the document's connection (its socket, the collab
 * session, the review store and the offline queue) with the view's plugins, opened while the page
 * is shown; and what the view reads of it besides its state, kept current on every render.
 */
export function useDocumentCollab(options: DocumentCollabOptions): DocumentCollab {
  const { documentId, createSocket, viewRef, labels, activeThread } = options;
  const configuration = useConfiguration();
  const user = useCurrentUser();
  const caretsRef = useRef<CaretInfo[]>([]);
  // Who our offline work is suggested as after a large divergence (issue 20).
  const reviewerRef = useRef<Reviewer | null>(null);
  const canWriteRef = useRef(false);
  const reviewRef = useRef<ReviewInputs>({
    mustSuggest: () => false,
    highlighted: new Set<number>(),
    active: null,
  });
  const editCitation = useRef(options.editCitation);

  const connection = useMemo(
    () =>
      new DocumentConnection({
        documentId,
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
            edit: () => editCitation.current(),
          }),
          reviewPlugin({
            suggesting: () => reviewRef.current.mustSuggest(),
            highlighted: () => reviewRef.current.highlighted,
            activeThread: () => reviewRef.current.active,
            colour: userColour,
          }),
        ],
      }),
    [documentId, configuration.ws_url_base, createSocket, user?.username, user?.id, viewRef, labels],
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
    [connection, viewRef],
  );
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

  caretsRef.current = [...connection.session.carets.values()].map((caret) => {
    const person = connection.participants.find((p) => p.session_id === caret.sessionId);
    return {
      sessionId: caret.sessionId,
      anchor: caret.anchor,
      head: caret.head,
      name: person?.name || person?.username || '',
      colour: userColour(caret.userId),
    };
  });
  return { connection, revision, reviewVersion, reviewer, caretsRef, canWriteRef, reviewRef };
}
