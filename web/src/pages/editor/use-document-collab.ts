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
  /** Moves when the review store changed (threads, requests): the page renders again. */
  reviewVersion: number;
  /** The user as the review marks name them. */
  reviewer: Reviewer;
  /** Others' carets, with the participants' names and colours. */
  caretsRef: RefObject<CaretInfo[]>;
  /**
   * Reads the carets, rights and highlighted threads into the refs above, from the connection as
   * it is now: on every render, and after every painted frame (the page does not render then).
   */
  readInputs(): void;
  /** Whether the text may be changed now (the view's editable, notes and parts). */
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
  const review = connection.review;
  const reviewVersion = useSyncExternalStore(review.subscribe, review.getVersion);
  const reviewer = {
    id: user?.id ?? 0,
    username: user ? `${user.first_name} ${user.last_name}`.trim() || user.username : '',
  };
  reviewerRef.current = user ? reviewer : null;
  reviewRef.current.active = activeThread;
  // What the view reads besides its state; the page does not render on a keystroke, so this is
  // read again after each painted frame as well (useEditorView).
  const readInputs = () => {
    canWriteRef.current = connection.canWrite && !connection.refused;
    reviewRef.current.mustSuggest = () => connection.mustSuggest;
    reviewRef.current.highlighted = new Set(
      [...review.threads.values()].filter((thread) => !thread.resolved).map((thread) => thread.id),
    );
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
  };
  readInputs();
  return { connection, reviewVersion, reviewer, caretsRef, readInputs, canWriteRef, reviewRef };
}
