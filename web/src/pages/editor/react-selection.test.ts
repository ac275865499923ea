// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { keepSelectionFromReact } from './react-selection';

describe('keepSelectionFromReact', () => {
  it("answers React's contenteditable check with 'inherit' and leaves the attribute to the editor", () => {
    const dom = document.createElement('div');
    dom.setAttribute('contenteditable', 'true');
    keepSelectionFromReact(dom);
    // React saves (walks) the selection of a focused element whose property reads 'true'.
    expect(dom.contentEditable).toBe('inherit');
    expect(dom.getAttribute('contenteditable')).toBe('true');
    // A read-only editor still reads as such.
    dom.setAttribute('contenteditable', 'false');
    expect(dom.contentEditable).toBe('false');
    dom.contentEditable = 'true';
    expect(dom.getAttribute('contenteditable')).toBe('true');
    expect(dom.contentEditable).toBe('inherit');
  });
});
