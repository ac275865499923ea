import type { Page } from '@playwright/test';

/**
 * Keystroke to paint: from each key event's time stamp to the frame after it
 * (requestAnimationFrame, then the task after that frame), for `count` keys typed one by one.
 */
export async function measureKeystrokes(page: Page, count: number): Promise<number[]> {
  await page.evaluate(() => {
    const win = window as unknown as { __latencies: number[]; __pending: Promise<void> | null };
    win.__latencies = [];
    document.addEventListener(
      'keydown',
      (event) => {
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
