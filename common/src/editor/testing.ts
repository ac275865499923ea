import type { EditorView } from 'prosemirror-view';

/** Types text one character at a time through the view's text input handlers, as a browser does (tests). */
export function typeInto(view: EditorView, text: string): void {
  for (const char of text) {
    const { from, to } = view.state.selection;
    const handled = view.someProp('handleTextInput', (handle) =>
      handle(view, from, to, char, () => view.state.tr),
    );
    if (!handled) view.dispatch(view.state.tr.insertText(char, from, to));
  }
}
