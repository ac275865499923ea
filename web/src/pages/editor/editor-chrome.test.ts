// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { followVisualViewport } from './editor-chrome';
import { fitCount } from './editor-compact-toolbar';

/** A visual viewport that a soft keyboard shrinks and scrolls, as a phone's does. */
class FakeViewport extends EventTarget {
  offsetTop = 0;
  keyboard(offsetTop: number) {
    this.offsetTop = offsetTop;
    this.dispatchEvent(new Event('resize'));
  }
  scrollTo(offsetTop: number) {
    this.offsetTop = offsetTop;
    this.dispatchEvent(new Event('scroll'));
  }
}

describe('followVisualViewport', () => {
  it('keeps the bar at the top of what is on screen while a soft keyboard is open, and lets go after', () => {
    const bar = document.createElement('div');
    const viewport = new FakeViewport();
    const stop = followVisualViewport(bar, viewport);
    expect(bar.style.getPropertyValue('--visual-top')).toBe('0px');
    viewport.keyboard(312.4);
    expect(bar.style.getPropertyValue('--visual-top')).toBe('312px');
    viewport.scrollTo(280);
    expect(bar.style.getPropertyValue('--visual-top')).toBe('280px');
    viewport.keyboard(0);
    expect(bar.style.getPropertyValue('--visual-top')).toBe('0px');
    stop();
    expect(bar.style.getPropertyValue('--visual-top')).toBe('');
    viewport.keyboard(100);
    expect(bar.style.getPropertyValue('--visual-top')).toBe('');
  });

  it('does nothing where the browser has no visual viewport', () => {
    const bar = document.createElement('div');
    followVisualViewport(bar, null)();
    expect(bar.getAttribute('style')).toBeNull();
  });
});

describe('fitCount', () => {
  // 44 px buttons with a 2 px gap: a slot is 46 px.
  it('shows every tool when all fit, with no More button', () => {
    expect(fitCount(5 * 46 - 2, 46, 2, 5)).toBe(5);
  });

  it('keeps a place for More when not all fit', () => {
    // 390 px phone: room for 7 slots, 6 tools and More.
    expect(fitCount(320, 46, 2, 24)).toBe(6);
    expect(fitCount(5 * 46 - 3, 46, 2, 5)).toBe(3);
  });

  it('never goes below none', () => {
    expect(fitCount(30, 46, 2, 24)).toBe(0);
    expect(fitCount(-10, 46, 2, 24)).toBe(0);
  });
});
