/**
 * Before each of its commits, React saves the selection of the focused element when it is a text
 * field or a contenteditable (to restore it should the focus move during the commit); for a
 * contenteditable it counts the characters of every text node inside. With the editor focused
 * that is a walk of the whole paper for every re-render of the toolbar or status line (about 7 ms
 * per keystroke in a paper of 500 paragraphs with math and citations). ProseMirror keeps and
 * restores its own selection, so the editor's element answers React's question (the property
 * `contentEditable === 'true'`) with "inherit": the attribute, which the browser edits by and
 * ProseMirror sets, is left as it is, and so is `isContentEditable`.
 */
export function keepSelectionFromReact(dom: HTMLElement): void {
  Object.defineProperty(dom, 'contentEditable', {
    configurable: true,
    get: () => (dom.getAttribute('contenteditable') === 'false' ? 'false' : 'inherit'),
    set: (value: string) => dom.setAttribute('contenteditable', value),
  });
}
