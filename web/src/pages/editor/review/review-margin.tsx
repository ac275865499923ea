import { firstChangeFrom } from '@scriptorium/common/editor/review-index';
import {
  addCommentAnchor,
  currentChanges,
  decideChanges,
  isCellChange,
  recordedStructure,
  type TrackedChange,
} from '@scriptorium/common/editor/track-changes';
import type { CommentThread, ReviewError } from '@scriptorium/common/ws/review-messages';
import { TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import {
  type FormEvent,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../../components/form/select';
import { changeQuote, type QuoteKind } from './change-quote';
import { reviewIndexOf } from './review-plugin';
import type { ReviewRequest, ReviewStore } from './review-store';
import { shownLeafText } from './shown-leaf-text';
import './review.css';

/** What this user may do in the margin. */
export interface ReviewRights {
  userId: number;
  /** Accept and reject anyone's suggestions (the write right). */
  decide: boolean;
  /** Write comments. */
  comment: boolean;
}

/** A new thread being written: where it will be anchored, and its id. */
export interface PendingComment {
  id: number;
  from: number;
  to: number;
}

export interface ReviewMarginProps {
  view: EditorView;
  store: ReviewStore;
  rights: ReviewRights;
  /** Changes whenever the document or the threads do. */
  revision: number;
  pending: PendingComment | null;
  onPendingDone(): void;
  active: number | null;
  onActivate(thread: number | null): void;
  colour(userId: number): string;
  notify(message: string): void;
}

/** Cards drawn beyond the visible part of the text, before and after it (smooth scrolling). */
const SLACK = 20;
/** On a phone the cards follow the text: this many at first, then more on request. */
const PHONE_PAGE = 50;
const PHONE_QUERY = '(max-width: 640px), (max-height: 500px)';

/** The document positions of the text on screen (the part of the editor inside the window). */
function visibleRange(view: EditorView): { from: number; to: number } {
  const size = view.state.doc.content.size;
  const rect = view.dom.getBoundingClientRect();
  const x = rect.left + Math.min(48, rect.width / 2);
  const at = (y: number, fallback: number) => {
    const top = Math.max(rect.top + 1, Math.min(rect.bottom - 1, y));
    return view.posAtCoords({ left: x, top })?.pos ?? fallback;
  };
  return { from: at(0, 0), to: at(window.innerHeight, size) };
}

/** Counts scrolls and resizes (once per frame): the cards near the visible text are drawn again. */
function useViewportTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let frame = 0;
    const changed = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          setTick((n) => n + 1);
        });
    };
    window.addEventListener('scroll', changed, { capture: true, passive: true });
    window.addEventListener('resize', changed);
    return () => {
      window.removeEventListener('scroll', changed, { capture: true });
      window.removeEventListener('resize', changed);
      cancelAnimationFrame(frame);
    };
  }, []);
  return tick;
}

function usePhone(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(PHONE_QUERY);
    const changed = () => setPhone(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return phone;
}

type Card =
  | { kind: 'thread'; key: string; top: number; thread: CommentThread; from: number; to: number }
  | { kind: 'pending'; key: string; top: number; pending: PendingComment }
  | { kind: 'change'; key: string; top: number; change: TrackedChange };

/** The same object every time, so that the cards' layout effect does not run again for nothing. */
const NOTHING_TO_REVIEW: { cards: Card[]; orphans: CommentThread[]; hidden: number } = {
  cards: [],
  orphans: [],
  hidden: 0,
};

function useErrorText() {
  const { t } = useTranslation('review');
  return (error: ReviewError | 'offline') => t(`error.${error}`);
}

/**
 * The review margin beside the text: comment threads and tracked changes, each aligned with its
 * place in the text (pushed down where they would overlap), then the threads whose text was
 * deleted. Keyboard: every control is a button or a field; a card's quote moves the caret there.
 */
export function ReviewMargin(props: ReviewMarginProps) {
  const { view, store, rights, revision, pending, active } = props;
  const { t } = useTranslation('review');
  const [showResolved, setShowResolved] = useState(false);
  const [author, setAuthor] = useState<number | 'all'>('all');
  const column = useRef<HTMLDivElement>(null);
  const errorText = useErrorText();
  // While typing, the margin follows once the typing pauses: thousands of cards are not laid out
  // again on every keystroke (bench/review.ts).
  const [settled, setSettled] = useState(revision);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(revision), 200);
    return () => clearTimeout(timer);
  }, [revision]);

  const viewport = useViewportTick();
  const phone = usePhone();
  const [phoneCount, setPhoneCount] = useState(PHONE_PAGE);
  const { changes, anchors } = reviewIndexOf(view.state);

  // Only the cards near the visible text are drawn (and measured): a review of thousands of
  // changes opens and types nearly as fast as the text alone (bench/review.ts). On a phone the
  // cards follow the text in order, a page at a time.
  // biome-ignore lint/correctness/useExhaustiveDependencies: settled changes whenever the document or the threads do; viewport on scrolling.
  const { cards, orphans, hidden } = useMemo(() => {
    // Nothing to review (most documents): no positions to read, which would lay the page out on
    // every keystroke that scrolls it.
    if (!changes.length && !store.threads.size && !pending) return NOTHING_TO_REVIEW;
    const doc = view.state.doc;
    const list: Card[] = [];
    const top = (pos: number) => {
      if (phone) return 0;
      try {
        return view.coordsAtPos(Math.min(pos, doc.content.size)).top;
      } catch {
        return 0;
      }
    };
    let first = 0;
    let last = phone ? Math.min(changes.length, phoneCount) : changes.length;
    let range = { from: 0, to: doc.content.size };
    if (!phone) {
      const visible = visibleRange(view);
      first = Math.max(0, firstChangeFrom(changes, visible.from) - SLACK);
      last = Math.min(changes.length, firstChangeFrom(changes, visible.to + 1) + SLACK);
      range = {
        from: Math.min(visible.from, changes[first]?.from ?? visible.from),
        to: Math.max(visible.to, changes[last - 1]?.to ?? visible.to),
      };
    } else if (last < changes.length) range = { from: 0, to: changes[last].from };
    const orphaned: CommentThread[] = [];
    for (const thread of store.threads.values()) {
      if (thread.resolved && !showResolved) continue;
      const anchor = anchors.get(thread.id);
      if (!anchor) orphaned.push(thread);
      else if ((anchor.from >= range.from && anchor.from <= range.to) || thread.id === active)
        list.push({ kind: 'thread', key: `t${thread.id}`, top: top(anchor.from), thread, ...anchor });
    }
    if (pending) list.push({ kind: 'pending', key: 'pending', top: top(pending.from), pending });
    // A column is one card: its first cell stands for the others (decided with it).
    const columns = new Set<string>();
    for (const change of changes.slice(first, last)) {
      if (isCellChange(change)) {
        const column = JSON.stringify(change.mark);
        if (columns.has(column)) continue;
        columns.add(column);
      }
      list.push({
        kind: 'change',
        key: `c${change.block ? 'b' : ''}${change.type}${change.from}`,
        top: top(change.from),
        change,
      });
    }
    list.sort((a, b) => a.top - b.top || cardPos(a) - cardPos(b));
    return { cards: list, orphans: orphaned, hidden: phone ? changes.length - last : 0 };
  }, [view, store, settled, pending, showResolved, viewport, phone, phoneCount, active]);

  // Align each card with its anchor, pushed below the card before it. While a pointer is pressed
  // in the margin the cards drawn keep their places (new ones are placed): a card that moved
  // between press and release (a co-author's comment coming in above it) would lose the click.
  const pressed = useRef(false);
  const layOut = useCallback(() => {
    const element = column.current;
    if (!element) return;
    const origin = element.getBoundingClientRect().top;
    let bottom = 0;
    const cards = element.querySelectorAll<HTMLElement>('[data-card-top]');
    // On a phone the cards follow each other under the text (review.css): nothing to align.
    if (cards.length && getComputedStyle(cards[0]).position !== 'absolute') {
      element.style.minHeight = '';
      return;
    }
    // All heights first, then all positions: one layout, not one per card.
    const heights = [...cards].map((card) => card.offsetHeight);
    cards.forEach((card, index) => {
      const held = pressed.current && card.style.top !== '';
      const placed = held
        ? Number.parseFloat(card.style.top)
        : Math.max(Number(card.dataset.cardTop) - origin, bottom);
      card.style.top = `${placed}px`;
      bottom = Math.max(bottom, placed + heights[index] + 8);
    });
    element.style.minHeight = `${bottom}px`;
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: laid out again when the cards change
  useLayoutEffect(layOut, [cards, active]);
  const hold = () => {
    pressed.current = true;
    const release = () => {
      window.removeEventListener('pointerup', release, true);
      window.removeEventListener('pointercancel', release, true);
      // After the click that follows the release, in the same input task.
      setTimeout(() => {
        pressed.current = false;
        layOut();
      });
    };
    window.addEventListener('pointerup', release, true);
    window.addEventListener('pointercancel', release, true);
  };

  const authors = useStableAuthors(changes);
  const decide = (list: readonly TrackedChange[], accept: boolean) => {
    const tr = view.state.tr;
    // The cards follow the text only once typing pauses: a card's positions may be older than
    // the document (a co-author's edit, the card decided just before).
    const done = decideChanges(tr, currentChanges(tr.doc, list), accept);
    if (done < list.length) props.notify(t('alreadyDecided'));
    if (done) view.dispatch(tr);
  };
  // The bar reads the changes when a button is pressed: it is not drawn again on every keystroke
  // (its author list is a collection that would take a second render).
  const latest = useRef({ changes, decide });
  latest.current = { changes, decide };
  const decideAll = useCallback((chosen: number | 'all', accept: boolean) => {
    const { changes, decide } = latest.current;
    decide(chosen === 'all' ? changes : changes.filter((c) => c.user === chosen), accept);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the cards change with the document (settled), the threads and the focus
  const renderedCards = useMemo(
    () => (
      <div className="review-cards" ref={column}>
        {cards.map((card) => (
          <div
            key={card.key}
            className={`review-card review-card-${card.kind}${card.kind === 'thread' && card.thread.id === active ? ' review-card-active' : ''}`}
            data-card-top={card.top}
          >
            {card.kind === 'thread' ? (
              <ThreadCard
                {...props}
                thread={card.thread}
                from={card.from}
                to={card.to}
                errorText={errorText}
              />
            ) : card.kind === 'pending' ? (
              <NewComment {...props} pending={card.pending} errorText={errorText} />
            ) : (
              <ChangeCard
                change={card.change}
                quote={changeQuote(view.state.doc, card.change, shownLeafText(view.state))}
                colour={props.colour(card.change.user)}
                canDecide={rights.decide}
                own={card.change.user === rights.userId}
                onDecide={(accept) => decide([card.change], accept)}
              />
            )}
          </div>
        ))}
      </div>
    ),
    [cards, active, rights.decide, rights.comment, rights.userId],
  );

  return (
    <aside className="review-margin" aria-label={t('margin')} onPointerDown={hold}>
      <MarginBar
        showResolved={showResolved}
        onShowResolved={setShowResolved}
        decide={rights.decide && changes.length > 0}
        authors={authors}
        author={author}
        onAuthor={setAuthor}
        onDecideAll={decideAll}
      />
      {renderedCards}
      {hidden > 0 ? (
        <button type="button" className="button" onClick={() => setPhoneCount((n) => n + PHONE_PAGE)}>
          {t('moreCards', { count: Math.min(hidden, PHONE_PAGE) })}
        </button>
      ) : null}
      {orphans.length ? (
        <section className="review-orphans" aria-label={t('orphans')}>
          <h3>{t('orphans')}</h3>
          {orphans.map((thread) => (
            <div key={thread.id} className="review-card review-card-thread">
              <ThreadCard {...props} thread={thread} from={null} to={null} errorText={errorText} />
            </div>
          ))}
        </section>
      ) : null}
    </aside>
  );
}

/** The authors of the changes (id, name) in order of their first change; the same array while they stay. */
function useStableAuthors(changes: readonly TrackedChange[]): [number, string][] {
  const list = [...new Map(changes.map((c) => [c.user, c.username])).entries()];
  const key = JSON.stringify(list);
  const kept = useRef({ key, list });
  if (kept.current.key !== key) kept.current = { key, list };
  return kept.current.list;
}

/** Above the cards: resolved threads shown or not, and deciding all changes (of one author). */
const MarginBar = memo(function MarginBar(props: {
  showResolved: boolean;
  onShowResolved(shown: boolean): void;
  /** Whether to offer accepting and rejecting all (the write right, and changes to decide). */
  decide: boolean;
  authors: [number, string][];
  author: number | 'all';
  onAuthor(author: number | 'all'): void;
  onDecideAll(author: number | 'all', accept: boolean): void;
}) {
  const { t } = useTranslation('review');
  const { author, onDecideAll } = props;
  return (
    <div className="review-margin-bar">
      <label className="editor-check">
        <input
          type="checkbox"
          checked={props.showResolved}
          onChange={(e) => props.onShowResolved(e.target.checked)}
        />
        {t('showResolved')}
      </label>
      {props.decide ? (
        <div className="review-decide-all">
          <Select
            label={t('author')}
            hideLabel
            value={String(author)}
            options={[
              { value: 'all', label: t('allAuthors') },
              ...props.authors.map(([id, name]) => ({ value: String(id), label: name })),
            ]}
            onChange={(value) => props.onAuthor(value === 'all' ? 'all' : Number(value))}
          />
          <button type="button" className="button" onClick={() => onDecideAll(author, true)}>
            {t('acceptAll')}
          </button>
          <button type="button" className="button" onClick={() => onDecideAll(author, false)}>
            {t('rejectAll')}
          </button>
        </div>
      ) : null}
    </div>
  );
});

/** Where a card's anchor is in the document (the order of cards at the same height). */
function cardPos(card: Card): number {
  return card.kind === 'thread' ? card.from : card.kind === 'pending' ? card.pending.from : card.change.from;
}

/** What a whole block is called in a card's text (insertTable, deleteRow, ...). */
const BLOCK_NAMES: Record<string, string> = {
  table: 'Table',
  table_row: 'Row',
  table_cell: 'Column',
  table_header: 'Column',
  bullet_list: 'List',
  ordered_list: 'List',
};

/**
 * The text key of a change: on a paragraph or list item, an insertion is a new paragraph and a
 * deletion a join; on any other block they are the block inserted or deleted; a block change is a
 * style, a list made, an item lifted out, items indented or an item outdented.
 */
function changeKey(change: TrackedChange): string {
  if (!change.block) return change.type;
  const node = change.node ?? '';
  if (change.type === 'block_change') {
    const structure = recordedStructure(change.mark);
    if (structure === 'lift' || structure === 'sink' || structure === 'outdent') return structure;
    if (structure === 'wrap') return BLOCK_NAMES[node] === 'List' ? 'wrapList' : 'wrapBlock';
    return change.type;
  }
  const name = change.whole ? (BLOCK_NAMES[node] ?? 'Block') : null;
  if (change.type === 'insertion') return name ? `insert${name}` : 'split';
  return name ? `delete${name}` : 'join';
}

function ChangeCard(props: {
  change: TrackedChange;
  quote: { kind: QuoteKind; text: string } | null;
  colour: string;
  canDecide: boolean;
  own: boolean;
  onDecide(accept: boolean): void;
}) {
  const { t, i18n } = useTranslation('review');
  const { change } = props;
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(
    change.date,
  );
  const formats =
    change.type === 'format_change' ? [...change.mark.attrs.after, ...change.mark.attrs.before] : [];
  const text = t(`change.${changeKey(change)}`, { name: change.username });
  return (
    <article aria-label={text}>
      <p className="review-card-head">
        <span className="review-dot" style={{ background: props.colour }} aria-hidden="true" />
        <strong>{change.username}</strong> <time dateTime={new Date(change.date).toISOString()}>{time}</time>
      </p>
      <p className="review-change-text" data-change={change.type}>
        {text}
        {formats.length
          ? ` (${formats.map((name: string) => t(`format.${name}`, { defaultValue: name })).join(', ')})`
          : ''}
      </p>
      {props.quote ? (
        <p className="review-change-quote" data-quote={props.quote.kind}>
          {t(`quote.${props.quote.kind}`, { text: props.quote.text })}
        </p>
      ) : null}
      <div className="review-card-actions">
        {props.canDecide ? (
          <>
            <button type="button" className="button" onClick={() => props.onDecide(true)}>
              {t('accept')}
            </button>
            <button type="button" className="button" onClick={() => props.onDecide(false)}>
              {t('reject')}
            </button>
          </>
        ) : props.own ? (
          <button type="button" className="button" onClick={() => props.onDecide(false)}>
            {t('withdraw')}
          </button>
        ) : null}
      </div>
    </article>
  );
}

type CardProps = ReviewMarginProps & { errorText(error: ReviewError | 'offline'): string };

/** Sends a request to the review store and reports a refusal; resolves with whether it went through. */
async function send(props: CardProps, message: ReviewRequest): Promise<boolean> {
  const answer = await props.store.request(message);
  if (!answer.ok) props.notify(props.errorText(answer.error));
  return answer.ok;
}

function NewComment(props: CardProps & { pending: PendingComment }) {
  const { t } = useTranslation('review');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || busy) return;
    setBusy(true);
    const { view, pending } = props;
    // The thread first: an anchor without its thread would show nothing to anyone.
    const ok = await send(props, { type: 'thread_create', thread: pending.id, text });
    setBusy(false);
    if (!ok) return;
    const doc = view.state.doc;
    const from = Math.min(pending.from, doc.content.size);
    const to = Math.min(pending.to, doc.content.size);
    if (from < to) view.dispatch(addCommentAnchor(view.state.tr, from, to, pending.id));
    props.onPendingDone();
    props.onActivate(pending.id);
  };
  return (
    <form className="review-form" onSubmit={submit} aria-label={t('newComment')}>
      <label className="visually-hidden" htmlFor="review-new-comment">
        {t('newComment')}
      </label>
      <textarea
        id="review-new-comment"
        // biome-ignore lint/a11y/noAutofocus: the comment action opens this field to type into
        autoFocus
        value={text}
        placeholder={t('placeholder')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onPendingDone();
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
      />
      <p className="review-hint">{t('mentionHint')}</p>
      <div className="review-card-actions">
        <button type="submit" className="button button-primary" disabled={!text.trim() || busy}>
          {t('comment')}
        </button>
        <button type="button" className="button" onClick={props.onPendingDone}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

function ThreadCard(props: CardProps & { thread: CommentThread; from: number | null; to: number | null }) {
  const { t, i18n } = useTranslation('review');
  const { thread, store, rights, view } = props;
  const [answer, setAnswer] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const quote =
    props.from !== null && props.to !== null
      ? view.state.doc.textBetween(props.from, props.to, ' ').slice(0, 80)
      : '';
  const reply = async (event: FormEvent) => {
    event.preventDefault();
    if (!answer.trim()) return;
    if (await send(props, { type: 'comment_answer', thread: thread.id, text: answer })) setAnswer('');
  };
  const assigned = thread.assigned ? store.personName(thread.assigned) : '';
  // Only the thread in focus shows its answers and controls: a long review stays light.
  if (props.active !== thread.id) {
    const first = thread.comments[0];
    return (
      <article aria-label={t('thread', { name: first.name })} data-thread={thread.id}>
        <button type="button" className="review-open-thread" onClick={() => props.onActivate(thread.id)}>
          <strong>{first.name}</strong> <span className="review-comment-text">{first.text}</span>
          {thread.comments.length > 1 ? (
            <span className="review-answers">{t('answers', { count: thread.comments.length - 1 })}</span>
          ) : null}
        </button>
        {thread.resolved ? <p className="review-resolved">{t('resolved')}</p> : null}
        {assigned ? <p className="review-assigned">{t('assignedTo', { name: assigned })}</p> : null}
      </article>
    );
  }
  return (
    <article aria-label={t('thread', { name: thread.comments[0].name })} data-thread={thread.id}>
      {quote ? (
        <button
          type="button"
          className="review-quote"
          onClick={() => {
            props.onActivate(thread.id);
            if (props.from === null) return;
            view.dispatch(
              view.state.tr.setSelection(TextSelection.create(view.state.doc, props.from)).scrollIntoView(),
            );
            view.focus();
          }}
        >
          “{quote}”
        </button>
      ) : null}
      {thread.resolved ? <p className="review-resolved">{t('resolved')}</p> : null}
      {assigned ? <p className="review-assigned">{t('assignedTo', { name: assigned })}</p> : null}
      <ol className="review-comments">
        {thread.comments.map((comment) => (
          <li key={comment.id}>
            <p className="review-card-head">
              <strong>{comment.name}</strong>{' '}
              <time dateTime={new Date(comment.created).toISOString()}>{format.format(comment.created)}</time>
              {comment.updated !== comment.created ? ` ${t('edited')}` : ''}
            </p>
            {editing === comment.id ? (
              <form
                className="review-form"
                onSubmit={async (event) => {
                  event.preventDefault();
                  if (await send(props, { type: 'comment_edit', comment: comment.id, text: draft }))
                    setEditing(null);
                }}
              >
                <textarea
                  aria-label={t('edit')}
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
                />
                <div className="review-card-actions">
                  <button type="submit" className="button button-primary" disabled={!draft.trim()}>
                    {t('save')}
                  </button>
                  <button type="button" className="button" onClick={() => setEditing(null)}>
                    {t('cancel')}
                  </button>
                </div>
              </form>
            ) : (
              <p className="review-comment-text">{comment.text}</p>
            )}
            {comment.user === rights.userId && rights.comment && editing !== comment.id ? (
              <div className="review-card-actions review-own">
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setEditing(comment.id);
                    setDraft(comment.text);
                  }}
                >
                  {t('edit')}
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => void send(props, { type: 'comment_delete', comment: comment.id })}
                >
                  {t('delete')}
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {rights.comment ? (
        <>
          <form className="review-form" onSubmit={reply}>
            <textarea
              aria-label={t('answer')}
              placeholder={t('answerPlaceholder')}
              value={answer}
              onChange={(e) => setAnswer(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void reply(e);
              }}
            />
            <div className="review-card-actions">
              <button type="submit" className="button" disabled={!answer.trim()}>
                {t('answer')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() =>
                  void send(props, { type: 'thread_resolve', thread: thread.id, resolved: !thread.resolved })
                }
              >
                {thread.resolved ? t('reopen') : t('resolve')}
              </button>
            </div>
          </form>
          {store.people.length > 1 ? (
            <Select
              className="review-assign"
              inline
              label={t('assign')}
              value={thread.assigned === null ? '' : String(thread.assigned)}
              options={[
                { value: '', label: t('nobody') },
                ...store.people.map((person) => ({
                  value: String(person.id),
                  label: person.name || person.username,
                })),
              ]}
              onChange={(value) =>
                void send(props, {
                  type: 'thread_assign',
                  thread: thread.id,
                  user: value ? Number(value) : null,
                })
              }
            />
          ) : null}
        </>
      ) : null}
    </article>
  );
}
