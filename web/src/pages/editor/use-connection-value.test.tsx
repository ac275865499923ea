// @vitest-environment jsdom
import { abilities } from '@scriptorium/common/rules/document-abilities';
import type { FakeServer } from '@scriptorium/common/ws/fake-server';
import { act, render } from '@testing-library/react';
import { TextSelection } from 'prosemirror-state';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentConnection } from './document-connection';
import { fakeDocumentConnection, openWithDocData } from './fake-document-connection';
import { FollowConnection, useConnectionValue } from './use-connection-value';

// Issue 55, item 9: a keystroke must not render the editor page again. The page reads the
// connection through useConnectionValue (what it shows: load, rights, the title) and renders
// again only when that changed; what follows the text (the toolbar) renders in FollowConnection.

let server: FakeServer;
let connection: DocumentConnection;

beforeEach(() => {
  vi.useFakeTimers();
  ({ server, connection } = fakeDocumentConnection());
});

afterEach(() => {
  connection.close();
  vi.useRealTimers();
});

const pass = (ms: number) => server.pass(ms, (step) => act(() => vi.advanceTimersByTimeAsync(step)));

async function receiveDocData(): Promise<void> {
  await openWithDocData(
    server,
    connection,
    { access_right: 'write', is_owner: true, abilities: abilities('write', { owner: true }) },
    (step) => act(() => vi.advanceTimersByTimeAsync(step)),
  );
  // The fake server reads no diffs: what is typed stays unconfirmed.
  server.blackHole = true;
}

/** A typed character at the end of the title, as the view dispatches it. */
function typeInTitle(): void {
  const state = connection.session.state;
  if (!state) throw new Error('no state');
  const end = state.doc.firstChild?.nodeSize ?? 2;
  connection.session.apply(
    state.tr.setSelection(TextSelection.create(state.doc, end - 1)).insertText('x', end - 1),
  );
}

/** Shows load and rights, and counts its renders and those of what follows the text. */
function Page({ counts, seen }: { counts: { page: number; follower: number }; seen: string[] }) {
  counts.page++;
  const load = useConnectionValue(connection, () => connection.load);
  const canWrite = useConnectionValue(connection, () => connection.canWrite);
  return (
    <div>
      <span>{`${load} ${canWrite}`}</span>
      <FollowConnection connection={connection}>
        {() => {
          counts.follower++;
          seen.push(connection.session.state?.doc.firstChild?.textContent ?? '');
          return null;
        }}
      </FollowConnection>
    </div>
  );
}

/** Keeps each value useConnectionValue hands it. */
function Rights({ values }: { values: object[] }) {
  const value = useConnectionValue(
    connection,
    () => ({ load: connection.load }),
    (a, b) => a.load === b.load,
  );
  values.push(value);
  return null;
}

describe('useConnectionValue: renders only when what is shown changes', () => {
  it('a page of load and rights does not render on keystrokes; a FollowConnection child does', async () => {
    const counts = { page: 0, follower: 0 };
    const seen: string[] = [];
    const { container } = render(<Page counts={counts} seen={seen} />);
    expect(container.textContent).toBe('loading false');
    await receiveDocData();
    expect(container.textContent).toBe('ready true');
    const page = counts.page;
    const follower = counts.follower;
    for (let i = 0; i < 5; i++) {
      act(() => typeInTitle());
      // The frame after the keystroke (the page's render task) and its diff sent.
      await pass(120);
    }
    expect(connection.session.state?.doc.firstChild?.textContent).toBe('xxxxx');
    // Five keystrokes: the page rendered not once, what follows the text after each one.
    expect(counts.page).toBe(page);
    expect(counts.follower).toBeGreaterThanOrEqual(follower + 5);
    expect(seen.at(-1)).toBe('xxxxx');
  });

  it('hands on the same value while it is equal, and a new one when it changed', async () => {
    const values: object[] = [];
    render(<Rights values={values} />);
    await receiveDocData();
    act(() => typeInTitle());
    await pass(120);
    const distinct = [...new Set(values)];
    expect(distinct.map((value) => (value as { load: string }).load)).toEqual(['loading', 'ready']);
  });
});
