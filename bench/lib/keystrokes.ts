import type { Page } from '@playwright/test';

/**
 * Keystroke to paint: from the key event's time stamp to the frame after it (requestAnimationFrame,
 * then the task after that frame), for `count` keys typed into the focused editor. The input delay
 * of each key (how long the page's main thread kept it waiting before its first handler ran) is
 * kept for `inputDelays`.
 */
export async function measureKeystrokes(page: Page, count: number): Promise<number[]> {
  await page.evaluate(() => {
    const win = window as unknown as {
      __latencies: number[];
      __delays: number[];
      __pending: Promise<void> | null;
      __measuring?: boolean;
    };
    win.__latencies = [];
    win.__delays = [];
    // Once per page: a second listener (a second measurement on the same page) counted each key twice.
    if (win.__measuring) return;
    win.__measuring = true;
    document.addEventListener(
      'keydown',
      (event) => {
        win.__delays.push(performance.now() - event.timeStamp);
        win.__pending = new Promise((resolve) => {
          requestAnimationFrame(() =>
            setTimeout(() => {
              win.__latencies.push(performance.now() - event.timeStamp);
              resolve();
            }, 0),
          );
        });
      },
      { capture: true },
    );
  });
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(i % 10 === 9 ? 'Space' : 'KeyA');
    await page.evaluate(() => (window as unknown as { __pending: Promise<void> | null }).__pending);
  }
  return page.evaluate(() => (window as unknown as { __latencies: number[] }).__latencies);
}

/** The input delays of the keys of the last measureKeystrokes on this page, in the order typed. */
export function inputDelays(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __delays: number[] }).__delays);
}
