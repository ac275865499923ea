import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useLoginFormPresence, useLoginFormShown } from './login-form-presence';

function Form() {
  useLoginFormPresence();
  return <button type="button">Log in</button>;
}

/** The pre-login shell in small: the header's button and, below it, maybe a login form. */
function Shell({ formShown }: { formShown: boolean }) {
  const loginFormShown = useLoginFormShown();
  return (
    <>
      <header>{loginFormShown ? null : <button type="button">Log in</button>}</header>
      <main>{formShown ? <Form /> : null}</main>
    </>
  );
}

type Screen = 'logged-in' | 'shell' | 'shell-with-form';
let show: (screen: Screen) => void = () => {};

function App() {
  const [screen, setScreen] = useState<Screen>('logged-in');
  show = setScreen;
  return screen === 'logged-in' ? <p>Logged in</p> : <Shell formShown={screen === 'shell-with-form'} />;
}

// Outside act(): React schedules its work as in the browser, so what a test sees between two tasks
// is what this records.
beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
});
afterEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

it('never has two Log in buttons, not even between the commit and its passive effects', async () => {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const counts: number[] = [];
  const count = () => container.querySelectorAll('button').length;
  // Mutation records arrive in a microtask: after React's synchronous work, before any later task.
  const observer = new MutationObserver(() => counts.push(count()));
  observer.observe(container, { childList: true, subtree: true });
  // React renders a timer's update in a later task of its own scheduler: wait for the screen it
  // makes (a fixed wait was too short on a busy machine), a task at a time.
  const shown = (screen: Screen) => {
    const form = container.querySelector('main button') !== null;
    const header = container.querySelector('header button') !== null;
    if (screen === 'logged-in') return container.textContent === 'Logged in';
    // With the form, the header's button goes in the form's passive effect: that render too.
    return screen === 'shell' ? header && !form : form && !header;
  };
  const settled = async (screen: Screen) => {
    while (!shown(screen)) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  root.render(<App />);
  await settled('logged-in');
  expect(count()).toBe(0);
  // Updates from a timer (as after a fetch) render in the default lane, not synchronously. The
  // first mounts the shell and the form in one commit (the logged-out app after deleting the
  // account); the others add and remove the form below a mounted shell.
  for (const screen of ['shell-with-form', 'shell', 'shell-with-form', 'logged-in'] as const) {
    setTimeout(() => show(screen));
    await settled(screen);
    expect(count()).toBe(screen === 'logged-in' ? 0 : 1);
  }

  expect(counts.length).toBeGreaterThan(0);
  expect(counts.every((buttons) => buttons <= 1)).toBe(true);
  observer.disconnect();
  root.unmount();
  container.remove();
});
