import { schema } from '@scriptorium/common/editor/schema';
import { documentFromDefinition } from '@scriptorium/common/plugins/template-document';
import { standardDefinition } from '@scriptorium/common/plugins/templates-api';
import { EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { partLabelPlugin } from './editor-plugins';

/** Issue 21: a part's help text from the document's template is shown above it and describes it. */

let view: EditorView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
});

function editorOf(helps: Record<string, string>, hidden: string[] = []): HTMLElement {
  const definition = standardDefinition();
  definition.parts = definition.parts.map((part) => ({
    ...part,
    help: helps[part.id] ?? '',
    hidden: hidden.includes(part.id),
  }));
  const doc = documentFromDefinition(schema, 'template-3', 'Chapter', definition);
  const mount = document.body.appendChild(document.createElement('div'));
  view = new EditorView(mount, {
    state: EditorState.create({ doc, plugins: [partLabelPlugin({ carets: () => [], label: (key) => key })] }),
  });
  return view.dom;
}

describe('part help texts', () => {
  it('draws each help text above its part, not editable, and names it as the part\u2019s description', () => {
    const dom = editorOf({ abstract: 'At most 200 words.', body: 'Start with the question.' });
    const lines = [...dom.querySelectorAll<HTMLElement>('.doc-part-help')];
    expect(lines.map((line) => line.textContent)).toEqual(['At most 200 words.', 'Start with the question.']);
    for (const line of lines) {
      expect(line.getAttribute('contenteditable')).toBe('false');
      const part = line.nextElementSibling as HTMLElement;
      expect(part.classList.contains('doc-part')).toBe(true);
      expect(part.getAttribute('aria-describedby')).toBe(line.id);
    }
    expect((lines[0].nextElementSibling as HTMLElement).dataset.partId).toBe('abstract');
    // The help is no part of the document's text.
    expect(view?.state.doc.textContent).toBe('');
  });

  it('shows nothing for parts without help and for hidden parts', () => {
    const dom = editorOf({ subtitle: 'A subtitle says what the title cannot.' }, ['subtitle']);
    expect(dom.querySelectorAll('.doc-part-help')).toHaveLength(0);
    expect(dom.querySelector('[aria-describedby]')).toBeNull();
  });
});
