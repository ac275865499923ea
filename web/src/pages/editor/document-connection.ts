import type { AccessRight } from '@scriptorium/common/api/documents';
import { DocumentConnector } from '@scriptorium/common/collab/document-connector';
import type { Reviewer } from '@scriptorium/common/editor/track-changes';
import { abilities, type DocumentAbilities } from '@scriptorium/common/rules/document-abilities';
import {
  type DocumentClientMessage,
  type DocumentServerMessage,
  type Participant,
  type RejectReason,
  receivedAbilities,
} from '@scriptorium/common/ws/document-messages';
import type { EditorState, Plugin } from 'prosemirror-state';
import {
  keepOfflineCopy,
  type PickedQueue,
  pickQueue,
  type QueueRecord,
  QueueWriter,
  queueKey,
  type Release,
} from '../../offline/document-queue';
import { isTemporaryId } from '../../offline/offline-documents';
import type { ConnectionStatus, SocketFactory } from '../../ws/connector';
import { CollabSession, type Divergence } from './collab-session';
import { ReviewStore } from './review/review-store';

export type LoadState = 'loading' | 'ready' | 'denied';

export interface DocumentConnectionOptions {
  documentId: number;
  wsUrlBase: string;
  plugins(clientId: string): Plugin[];
  createSocket?: SocketFactory;
  /**
   * The logged-in user: with it, unconfirmed steps and the document are kept in IndexedDB (the
   * offline queue), so that the document opens offline and a reload or closed tab loses nothing.
   */
  username?: string;
  /** See CollabSessionOptions.compress. */
  compress?: boolean;
  /** See CollabSessionOptions.author. */
  author?(): Reviewer | null;
  /** See CollabSessionOptions.beforeRemoteChange. */
  beforeRemoteChange?(state: EditorState): void;
}

/** The client id of the server's own steps when a revision is restored. */
const RESTORE_CLIENT_ID = 'server-restore';

/** How often our caret goes out at most while it moves. */
const CARET_INTERVAL_MS = 250;

/**
 * The document socket and the collab session behind one editor page: routes server messages to
 * the session, sends its diffs and the caret, and tells the page (subscribe) when anything changed.
 */
export class DocumentConnection {
  readonly session: CollabSession;
  /** Comment threads and revision requests (issue 18). */
  readonly review: ReviewStore;
  private connector: DocumentConnector | null = null;
  private readonly options: DocumentConnectionOptions;
  private readonly listeners = new Set<() => void>();
  load: LoadState = 'loading';
  right: AccessRight = 'read';
  isOwner = false;
  /**
   * What this user may do (toolbar, menus, read-only state, suggestion mode): as doc_data sent it
   * (the server's capability model, common/src/rules/document-abilities.ts); from the offline
   * queue's right until the server answers.
   */
  abilities: DocumentAbilities = abilities('read');
  participants: Participant[] = [];
  status: ConnectionStatus = { state: 'connecting', unsent: 0 };
  refused: RejectReason | null = null;
  lost = 0;
  /** Someone restored an earlier revision while this page was open (issue 18). */
  restored = false;
  /** Shown from the offline queue: the server has not answered yet (offline, or still connecting). */
  fromCache = false;
  /** A large or lossy merge of offline work; our previous document is kept (offline copy). */
  divergence: (Divergence & { copyId: number | null }) | null = null;
  /** Bumped on every change, for useSyncExternalStore. */
  version = 0;
  private caretTimer: ReturnType<typeof setTimeout> | null = null;
  private lastCaret = '';
  private renderPending = false;
  /** The editor state of the last change, and whether a change since the last render is painted. */
  private shown: EditorState | null = null;
  private paintPending = false;
  /** The connection was lost: relayed steps wait for the catch-up after the next doc_data. */
  private awaitingDocData = false;

  private preparing: Promise<void> | null = null;
  private active = false;
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;
  private release: Release | null = null;
  private readonly writer = new QueueWriter();
  private queue: PickedQueue | null = null;

  constructor(options: DocumentConnectionOptions) {
    this.options = options;
    this.session = new CollabSession({
      send: (message) => this.send(message),
      scheduleSend: afterPaint,
      onChange: () => this.changed(),
      plugins: options.plugins,
      onRefused: (reason) => {
        this.refused = reason;
        this.changed();
      },
      onDivergence: (divergence) => this.diverged(divergence),
      compress: options.compress,
      author: options.author,
      beforeRemoteChange: options.beforeRemoteChange,
      rebase: true,
    });
    this.review = new ReviewStore((message) => {
      this.send(message);
      return true;
    });
  }

  /** Connects (after picking this tab's offline queue, which may show the document at once). */
  open(): void {
    this.active = true;
    window.addEventListener('pagehide', this.leaving);
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    this.preparing ??= this.prepare();
    void this.preparing.then(() => {
      if (this.active) this.connector?.open();
    });
  }

  close(): void {
    this.active = false;
    window.removeEventListener('pagehide', this.leaving);
    if (this.caretTimer) clearTimeout(this.caretTimer);
    this.connector?.close();
    this.persist();
    // React may open the same connection again at once (StrictMode): keep the queue's lock until
    // the page really let go of it, and only after the last write.
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      if (this.active) return;
      void this.writer.idle().then(() => {
        if (this.active) return;
        this.release?.();
        this.release = null;
        this.preparing = null;
        this.queue = null;
      });
    }, 0);
  }

  /** A reload or a closed tab: what waits for the next frame (sending, the queue record) goes now. */
  private readonly leaving = (): void => {
    this.session.flush();
    const record = this.queueRecord();
    if (record) this.writer.writeNow(record);
  };

  /** Resolves once the offline queue holds the current state (tests, leaving the page). */
  saved(): Promise<void> {
    this.persist();
    return this.writer.idle();
  }

  private async prepare(): Promise<void> {
    const { username, documentId } = this.options;
    if (username) {
      const picked = await pickQueue(username, documentId);
      this.queue = picked;
      this.release = picked.release;
      if (picked.saved && !this.session.state) {
        try {
          this.lost += this.session.restore(picked.saved).lost;
          this.right = picked.saved.right;
          this.isOwner = picked.saved.isOwner;
          this.abilities = abilities(this.right, { owner: this.isOwner });
          this.load = 'ready';
          this.fromCache = true;
        } catch {
          // A record the current schema cannot read: the server's document comes instead.
        }
      }
    }
    // A document created offline (temporary id) has no socket: it lives in the queue until the
    // editor page creates it on the server (offline-documents.ts) and opens the real one.
    if (isTemporaryId(documentId)) {
      this.changed();
      return;
    }
    this.connector ??= new DocumentConnector({
      wsUrlBase: this.options.wsUrlBase,
      documentId,
      createSocket: this.options.createSocket,
      sessionId: this.queue?.clientId,
      onStatus: (status) => {
        if (status.state === 'disconnected') {
          this.awaitingDocData = true;
          this.session.disconnected();
        }
        this.status = status;
        this.changed();
      },
      onAccessDenied: () => {
        this.load = 'denied';
        this.connector?.close();
        this.changed();
      },
      onMessage: (message) => this.receive(message),
    });
    this.changed();
  }

  /** Writes the queue record of this tab (coalesced: at most one write at a time, the newest state). */
  private persist(defer?: (start: () => void) => void): void {
    const record = this.queueRecord();
    if (record) this.writer.schedule(record, defer);
  }

  /** What builds this tab's queue record when its write starts; null without a queue to write. */
  private queueRecord(): (() => QueueRecord | null) | null {
    const { username, documentId } = this.options;
    const queue = this.queue;
    if (!username || !queue || this.load !== 'ready') return null;
    return (): QueueRecord | null => {
      const saved = this.session.saved();
      if (!saved || saved.clientId !== queue.clientId) return null;
      return {
        ...saved,
        key: queueKey(username, documentId, queue.clientId),
        username,
        documentId,
        right: this.right,
        isOwner: this.isOwner,
        savedAt: Date.now(),
      };
    };
  }

  private diverged(divergence: Divergence): void {
    this.divergence = { ...divergence, copyId: null };
    const { username, documentId } = this.options;
    if (username)
      void keepOfflineCopy({ username, documentId, doc: divergence.offline, savedAt: Date.now() }).then(
        (copyId) => {
          if (this.divergence) this.divergence.copyId = copyId;
          this.changed();
        },
        () => {},
      );
    this.changed();
  }

  /** The user has seen the merge notice. */
  dismissDivergence(): void {
    this.divergence = null;
    this.changed();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /**
   * Whether this user may change the text: write freely, write-tracked and review only in
   * suggestion mode (mustSuggest), so that the server never has to refuse text they typed.
   * comment only anchors comments (not by typing).
   */
  get canWrite(): boolean {
    return this.abilities.edit;
  }

  get mustSuggest(): boolean {
    return this.abilities.suggestOnly;
  }

  get canComment(): boolean {
    return this.abilities.comment;
  }

  /**
   * Work of the user's the server has not confirmed: steps, or a comment or revision request. Not
   * the transport's unacknowledged messages: a caret waiting for its ack is nothing to lose, and
   * counting it made leaving a just-opened document ask "unsaved changes?" on a slow connection.
   */
  get unsaved(): boolean {
    return this.session.unconfirmed > 0 || this.review.unsaved;
  }

  /** Sends our caret soon (at most every CARET_INTERVAL_MS). */
  caretMoved(): void {
    if (this.caretTimer || this.load !== 'ready') return;
    this.caretTimer = setTimeout(() => {
      this.caretTimer = null;
      const message = this.session.caretMessage();
      if (message?.type !== 'caret') return;
      const key = `${message.v}:${message.anchor}:${message.head}`;
      if (key === this.lastCaret) return;
      this.lastCaret = key;
      this.send(message);
    }, CARET_INTERVAL_MS);
  }

  private send(message: DocumentClientMessage): void {
    this.connector?.send(message);
  }

  /** One server message, read once by the connector (DOCUMENT_SERVER_APP_SCHEMAS). */
  private receive(message: DocumentServerMessage): void {
    if (this.review.receive(message)) return;
    switch (message.type) {
      case 'doc_data': {
        this.awaitingDocData = false;
        this.right = message.access_right;
        this.isOwner = message.is_owner;
        this.abilities = receivedAbilities(message);
        this.participants = message.participants;
        this.load = 'ready';
        this.fromCache = false;
        this.lost += this.session.receiveDocData(message).lost;
        break;
      }
      case 'diff':
        if (message.cids.includes(RESTORE_CLIENT_ID)) this.restored = true;
        // Back from a lost connection, a resumed session first replays what was relayed meanwhile;
        // doc_data follows, and its catch-up brings the same steps at once, so that a large
        // divergence is seen whole (CollabSession.receiveDiff) rather than relay by relay.
        if (!this.awaitingDocData) this.session.receiveDiff(message);
        break;
      case 'confirm_diff':
        this.session.confirm(message);
        this.caretMoved();
        break;
      case 'reject_diff':
        this.session.reject(message);
        break;
      case 'participants':
        this.participants = message.participants;
        this.session.keepCarets(message.participants.map((p) => p.session_id));
        break;
      case 'caret':
        this.session.receiveCaret(message);
        break;
    }
    this.changed();
  }

  /**
   * Listeners hear every change at once (the view follows the session's state in the same task),
   * but the page's version moves once per painted frame: React re-renders the page (toolbar, menus,
   * status) after the frame that shows a keystroke, once for all the changes of that frame
   * (a keystroke alone changes the state, the outbox and the save status).
   */
  private changed(): void {
    // Only a new document or selection is sure to be painted. Asking for a frame that paints
    // nothing (a confirmation, a status) holds Chromium's next frame, the one of the next
    // keystroke, until a whole refresh interval has passed; and a plain task for them lands
    // between the next keystroke and its frame as often as not: those render when idle.
    const state = this.session.state;
    const painted =
      state !== null && (state.doc !== this.shown?.doc || !state.selection.eq(this.shown.selection));
    this.shown = state;
    // The queue record (a copy of the document and its steps) is written after a keystroke's
    // frame, not before it; after a change that paints nothing (a confirmation), when idle.
    this.persist(painted ? afterPaint : whenIdle);
    for (const listener of this.listeners) listener();
    if (painted) this.paintPending = true;
    if (this.renderPending) return;
    this.renderPending = true;
    const render = () => {
      this.renderPending = false;
      this.paintPending = false;
      this.version++;
      for (const listener of this.listeners) listener();
    };
    if (this.paintPending) afterPaint(render);
    else whenIdle(render);
  }
}

/** A frame is due within this long; a page hidden meanwhile has none (no animation frames). */
const FRAME_FALLBACK_MS = 100;

/** Runs after the next frame is painted (a task after requestAnimationFrame); soon where there are no frames. */
function afterPaint(callback: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    callback();
  };
  if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
    requestAnimationFrame(() => setTimeout(run, 0));
    setTimeout(run, FRAME_FALLBACK_MS);
  } else setTimeout(run, 0);
}

/** At most this long before what waits for an idle moment runs anyway (a status, a queue write). */
const IDLE_TIMEOUT_MS = 250;

/**
 * Runs when the page is idle: between keystrokes, not in the middle of one (a plain task there
 * holds up that keystroke's frame); within IDLE_TIMEOUT_MS in any case.
 */
function whenIdle(callback: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(callback, 0);
}

const COLOURS = ['#d81b60', '#1e88e5', '#43a047', '#f4511e', '#8e24aa', '#00897b', '#6d4c41', '#3949ab'];

/** A stable colour per user, the same in every co-author's browser. */
export function userColour(userId: number): string {
  return COLOURS[userId % COLOURS.length];
}
