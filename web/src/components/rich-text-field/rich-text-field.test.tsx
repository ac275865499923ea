import type { RichText } from '@scriptorium/common/bibliography/types';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { RichTextField } from './rich-text-field';

beforeAll(() => {
  // jsdom does no layout; ProseMirror measures ranges when it scrolls the selection into view.
  const rect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0 }) as DOMRect;
  Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= rect;
  Element.prototype.scrollIntoView ??= () => {};
});

const plain = (text: string): RichText => [{ type: 'text', text }];

function renderField(value: RichText, onChange = vi.fn()) {
  render(
    <>
      <span id="title-label">Title</span>
      <RichTextField
        id="title"
        aria-labelledby="title-label"
        aria-required
        value={value}
        onChange={onChange}
      />
    </>,
  );
  const editor = screen.getByRole('textbox', { name: 'Title' });
  fireEvent.focusIn(editor);
  return { editor, onChange };
}

/** A parent that stores what the field reports and passes it back, as the entry dialog does. */
function EchoingParent({ seen, expose }: { seen: RichText[]; expose(set: (value: RichText) => void): void }) {
  const [value, setValue] = useState<RichText>(plain('Start'));
  expose(setValue);
  return (
    <>
      <span id="l">Title</span>
      <RichTextField
        aria-labelledby="l"
        value={value}
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
      />
    </>
  );
}

/** Selects everything with the editor's own Mod-a binding. */
function selectAll(editor: HTMLElement) {
  fireEvent.keyDown(editor, { key: 'a', ctrlKey: true });
}

describe('RichTextField', () => {
  it('is an accessible single-line text box', () => {
    const { editor } = renderField(plain('Deep learning'));
    expect(editor).toHaveProperty('id', 'title');
    expect(editor.getAttribute('aria-multiline')).toBe('false');
    expect(editor.getAttribute('aria-required')).toBe('true');
    expect(editor.getAttribute('contenteditable')).toBe('true');
    expect(editor.textContent).toBe('Deep learning');
    expect(screen.getByRole('toolbar', { name: 'Text formatting' })).toBeTruthy();
  });

  it('toggles a mark with the toolbar button and reports the new value', () => {
    const { editor, onChange } = renderField(plain('Deep learning'));
    const italic = screen.getByRole('button', { name: 'Italic (Ctrl+I)' });
    expect(italic.getAttribute('type')).toBe('button');
    expect(italic.getAttribute('aria-pressed')).toBe('false');
    expect(italic.getAttribute('title')).toBe('Italic (Ctrl+I)');
    selectAll(editor);
    fireEvent.click(italic);
    expect(onChange).toHaveBeenLastCalledWith([
      { type: 'text', text: 'Deep learning', marks: [{ type: 'em' }] },
    ]);
    expect(editor.querySelector('em')?.textContent).toBe('Deep learning');
    expect(italic.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(italic);
    expect(onChange).toHaveBeenLastCalledWith(plain('Deep learning'));
    expect(italic.getAttribute('aria-pressed')).toBe('false');
  });

  it('toggles marks with the keyboard shortcuts and undoes them', () => {
    const { editor, onChange } = renderField(plain('H2O'));
    selectAll(editor);
    fireEvent.keyDown(editor, { key: 'b', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith([{ type: 'text', text: 'H2O', marks: [{ type: 'strong' }] }]);
    expect(screen.getByRole('button', { name: /^Bold/ }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(editor, { key: 'K', ctrlKey: true, shiftKey: true });
    expect(onChange).toHaveBeenLastCalledWith([
      { type: 'text', text: 'H2O', marks: [{ type: 'strong' }, { type: 'smallcaps' }] },
    ]);
    fireEvent.keyDown(editor, { key: 'z', ctrlKey: true });
    fireEvent.keyDown(editor, { key: 'z', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith(plain('H2O'));
    fireEvent.keyDown(editor, { key: 'y', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith([{ type: 'text', text: 'H2O', marks: [{ type: 'strong' }] }]);
  });

  it('does nothing on Enter in a single-line field', () => {
    const { editor, onChange } = renderField(plain('One line'));
    const event = fireEvent.keyDown(editor, { key: 'Enter' });
    expect(event).toBe(false); // default prevented: no line break, no form submission
    expect(onChange).not.toHaveBeenCalled();
    expect(editor.querySelectorAll('p')).toHaveLength(1);
  });

  it('shows unresolved macros as chips that cannot be edited, and keeps them', () => {
    const value: RichText = [{ type: 'variable', attrs: { variable: 'pami' } }, ...plain(' journal')];
    const { editor, onChange } = renderField(value);
    const chip = editor.querySelector('.rt-variable');
    expect(chip?.textContent).toBe('pami');
    expect(chip?.getAttribute('contenteditable')).toBe('false');
    expect(chip?.getAttribute('title')).toBe('Unresolved @string macro: pami');
    selectAll(editor);
    fireEvent.click(screen.getByRole('button', { name: /^Quotation marks/ }));
    expect(onChange).toHaveBeenLastCalledWith([
      { type: 'variable', attrs: { variable: 'pami' } },
      { type: 'text', text: ' journal', marks: [{ type: 'enquote' }] },
    ]);
  });

  it('makes a list field multi-line, one paragraph per item', () => {
    const onChange = vi.fn();
    render(
      <>
        <span id="loc">Location</span>
        <RichTextField
          list
          aria-labelledby="loc"
          value={[plain('Berlin'), plain('Paris')]}
          onChange={onChange}
        />
      </>,
    );
    const editor = screen.getByRole('textbox', { name: 'Location' });
    expect(editor.getAttribute('aria-multiline')).toBe('true');
    expect([...editor.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Berlin', 'Paris']);
    fireEvent.focusIn(editor);
    selectAll(editor);
    fireEvent.keyDown(editor, { key: ',', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith([
      [{ type: 'text', text: 'Berlin', marks: [{ type: 'sub' }] }],
      [{ type: 'text', text: 'Paris', marks: [{ type: 'sub' }] }],
    ]);
  });

  it('keeps its view while the parent echoes values, and takes a value from outside', () => {
    const seen: RichText[] = [];
    let setOutside: (value: RichText) => void = () => {};
    render(<EchoingParent seen={seen} expose={(set) => (setOutside = set)} />);
    const editor = screen.getByRole('textbox', { name: 'Title' });
    fireEvent.focusIn(editor);
    selectAll(editor);
    fireEvent.click(screen.getByRole('button', { name: /^Superscript/ }));
    expect(seen).toEqual([[{ type: 'text', text: 'Start', marks: [{ type: 'sup' }] }]]);
    // The same element: the view was not made anew when the echoed value came back.
    expect(screen.getByRole('textbox', { name: 'Title' })).toBe(editor);
    expect(editor.querySelector('sup')?.textContent).toBe('Start');
    act(() => setOutside(plain('Replaced')));
    expect(screen.getByRole('textbox', { name: 'Title' })).toBe(editor);
    expect(editor.textContent).toBe('Replaced');
    expect(seen).toHaveLength(1);
  });

  it('moves along the toolbar with the arrow keys, one Tab stop in all', () => {
    renderField(plain('x'));
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.tabIndex)).toEqual([0, -1, -1, -1, -1, -1, -1]);
    buttons[0].focus();
    fireEvent.keyDown(buttons[0], { key: 'ArrowRight' });
    expect(document.activeElement).toBe(buttons[1]);
    fireEvent.keyDown(buttons[1], { key: 'End' });
    expect(document.activeElement).toBe(buttons[6]);
    expect(buttons[6].tabIndex).toBe(0);
    fireEvent.keyDown(buttons[6], { key: 'ArrowRight' });
    expect(document.activeElement).toBe(buttons[0]);
  });
});
