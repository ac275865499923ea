import type { ReviewClientMessage } from '@scriptorium/common/ws/review-messages';
import { describe, expect, it } from 'vitest';
import { ReviewStore } from './review-store';

describe('ReviewStore', () => {
  it('counts a comment as unsaved until the server answers it; a read never', async () => {
    const sent: ReviewClientMessage[] = [];
    const store = new ReviewStore((message) => {
      sent.push(message);
      return true;
    });
    const list = store.request({ type: 'revisions_list' });
    expect(store.unsaved).toBe(false);
    const comment = store.request({ type: 'comment_answer', thread: 3, text: 'Agreed.' });
    expect(store.unsaved).toBe(true);
    store.receive({ type: 'revisions', rid: sent[0].rid, revisions: [] });
    expect(store.unsaved).toBe(true);
    store.receive({ type: 'review_answer', rid: sent[1].rid });
    expect(store.unsaved).toBe(false);
    expect(await comment).toMatchObject({ ok: true });
    expect(await list).toMatchObject({ ok: true });
  });

  it('is not left unsaved by a request that could not be sent', async () => {
    const store = new ReviewStore(() => false);
    expect(await store.request({ type: 'comment_delete', comment: 4 })).toEqual({
      ok: false,
      error: 'offline',
    });
    expect(store.unsaved).toBe(false);
  });
});
