import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import type {
  CommentThread,
  ReviewClientMessage,
  ReviewError,
  ReviewPerson,
  RevisionEntry,
} from '@scriptorium/common/ws/review-messages';

/** A review message without its rid (the store numbers requests). */
export type ReviewRequest = ReviewClientMessage extends infer M
  ? M extends unknown
    ? Omit<M, 'rid'>
    : never
  : never;

export type ReviewAnswer =
  | { ok: true; message: DocumentServerMessage }
  | { ok: false; error: ReviewError | 'offline' };

/**
 * The review side of one editor page: the comment threads this user may see (the server filters
 * them), the co-authors, and requests (comments, revisions) answered by rid. The page subscribes
 * to changes like it does to the document connection.
 */
export class ReviewStore {
  threads = new Map<number, CommentThread>();
  people: ReviewPerson[] = [];
  /** Bumped on every change, for useSyncExternalStore. */
  version = 0;
  private nextRid = 1;
  private readonly waiting = new Map<number, (answer: ReviewAnswer) => void>();
  /** Requests that change something (a comment, a revision) and are not answered yet. */
  private readonly writes = new Set<number>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly send: (message: ReviewClientMessage) => boolean) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** A server message; answers true when it was a review message. */
  receive(message: DocumentServerMessage): boolean {
    switch (message.type) {
      case 'threads':
        this.threads = new Map(message.threads.map((thread) => [thread.id, thread]));
        this.people = message.people;
        break;
      case 'thread':
        this.threads.set(message.thread.id, message.thread);
        break;
      case 'thread_removed':
        this.threads.delete(message.thread);
        break;
      case 'review_answer':
        this.answer(message.rid, message.error ? { ok: false, error: message.error } : { ok: true, message });
        break;
      case 'revisions':
      case 'revision':
        this.answer(message.rid, { ok: true, message });
        break;
      default:
        return false;
    }
    this.changed();
    return true;
  }

  /** Sends a request; resolves with the server's answer. */
  request(message: ReviewRequest): Promise<ReviewAnswer> {
    const rid = this.nextRid++;
    return new Promise((resolve) => {
      this.waiting.set(rid, resolve);
      const write = !READS.has(message.type);
      if (write) this.writes.add(rid);
      if (!this.send({ ...message, rid } as ReviewClientMessage)) {
        this.waiting.delete(rid);
        this.writes.delete(rid);
        resolve({ ok: false, error: 'offline' });
      } else if (write) this.changed();
    });
  }

  personName(id: number | null): string {
    const person = this.people.find((p) => p.id === id);
    return person ? person.name || person.username : '';
  }

  /** Whether a change of the user's (a comment, a revision) still waits for the server. */
  get unsaved(): boolean {
    return this.writes.size > 0;
  }

  private answer(rid: number, answer: ReviewAnswer): void {
    this.waiting.get(rid)?.(answer);
    this.waiting.delete(rid);
    this.writes.delete(rid);
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

/** Requests that only read: leaving while one is out loses nothing. */
const READS = new Set<ReviewRequest['type']>(['revisions_list', 'revision_get']);

/** The revisions answer's list, or an empty one. */
export function revisionsOf(answer: ReviewAnswer): RevisionEntry[] {
  return answer.ok && answer.message.type === 'revisions' ? answer.message.revisions : [];
}
