import { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, TextSelection } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { applyLink, insertLinkedText, linkRange, pasteAsLink, pastedAddress } from './links';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { partStart } from './testing';

const link = (href: string) => ({ type: 'link', attrs: { href, title: '' } });

/** A Standard article whose body holds one paragraph of `content`; selection from..to inside it (offsets). */
function stateWith(content: unknown[], from: number, to = from): EditorState {
  const json = createDocument(schema, standardArticle, { title: 'T' }).toJSON();
  json.content[json.content.length - 1].content = [{ type: 'paragraph', content }];
  const doc = PMNode.fromJSON(schema, json);
  const start = partStart(doc, 'body') + 1;
  return EditorState.create({ doc, selection: TextSelection.create(doc, start + from, start + to) });
}

function run(state: EditorState, command: Command): EditorState | null {
  let next: EditorState | null = null;
  const ok = command(state, (tr) => {
    next = state.apply(tr);
  });
  return ok ? next : null;
}

/** The body paragraph as [text, href or ''] runs. */
function runs(state: EditorState): [string, string][] {
  const paragraph = state.doc.lastChild!.firstChild!;
  const out: [string, string][] = [];
  paragraph.forEach((child) => {
    const mark = schema.marks.link.isInSet(child.marks);
    out.push([child.text ?? '', mark ? String(mark.attrs.href) : '']);
  });
  return out;
}

describe('links', () => {
  it('inserts linked text at the caret; what is typed after it is not linked', () => {
    const state = stateWith([{ type: 'text', text: 'See here' }], 4);
    const linked = run(state, insertLinkedText('the site', 'https://example.org'))!;
    expect(runs(linked)).toEqual([
      ['See ', ''],
      ['the site', 'https://example.org'],
      ['here', ''],
    ]);
    const typed = linked.apply(linked.tr.insertText(' '));
    expect(runs(typed)[2]).toEqual([' here', '']);
  });

  it('keeps the formatting at the caret, and refuses empty text and unsafe addresses', () => {
    const state = stateWith([{ type: 'text', text: 'bold', marks: [{ type: 'strong' }] }], 2);
    const linked = run(state, insertLinkedText('X', 'mailto:a@b.org'))!;
    const inserted = linked.doc.lastChild!.firstChild!.child(1);
    expect(inserted.text).toBe('X');
    expect(inserted.marks.map((mark) => mark.type.name).sort()).toEqual(['link', 'strong']);
    expect(run(state, insertLinkedText('', 'https://example.org'))).toBeNull();
    for (const unsafe of ['javascript:alert(1)', 'data:text/html,x', 'example.org', 'file:///etc/passwd'])
      expect(run(state, insertLinkedText('X', unsafe))).toBeNull();
  });

  it('finds the range to link: the selection, or the whole link around the caret', () => {
    const content = [
      { type: 'text', text: 'a ' },
      { type: 'text', text: 'li', marks: [link('https://x.org')] },
      { type: 'text', text: 'nk', marks: [link('https://x.org'), { type: 'em' }] },
      { type: 'text', text: ' b' },
    ];
    const caret = stateWith(content, 3);
    const start = caret.selection.from - 3;
    const range = linkRange(caret)!;
    expect([range.from - start, range.to - start, range.mark?.attrs.href]).toEqual([2, 6, 'https://x.org']);
    expect(linkRange(stateWith(content, 0))).toBeNull();
    const selected = linkRange(stateWith(content, 0, 1))!;
    expect([selected.from - start, selected.to - start, selected.mark]).toEqual([0, 1, null]);

    // Changing the address with the caret in the link changes the whole link; an empty one removes it.
    const changed = run(caret, applyLink('https://y.org'))!;
    expect(runs(changed).map(([text, href]) => `${text}:${href}`)).toEqual([
      'a :',
      'li:https://y.org',
      'nk:https://y.org',
      ' b:',
    ]);
    expect(runs(run(caret, applyLink(''))!).every(([, href]) => href === '')).toBe(true);
    expect(run(caret, applyLink('javascript:alert(1)'))).toBeNull();
  });

  it('makes selected text a link when an address is pasted over it', () => {
    expect(pastedAddress(' https://example.org/a?b=c \n')).toBe('https://example.org/a?b=c');
    expect(pastedAddress('MAILTO:ann@example.org')).toBe('MAILTO:ann@example.org');
    for (const text of [
      'javascript:alert(1)',
      'see https://example.org',
      'www.example.org',
      'ftp://x.org',
      '',
    ])
      expect(pastedAddress(text)).toBeNull();

    const state = stateWith([{ type: 'text', text: 'read this now' }], 5, 9);
    const linked = run(state, pasteAsLink('http://example.org'))!;
    expect(runs(linked)).toEqual([
      ['read ', ''],
      ['this', 'http://example.org'],
      [' now', ''],
    ]);
    // Nothing selected, or not an address: the paste goes on as usual.
    expect(
      run(stateWith([{ type: 'text', text: 'read' }], 2), pasteAsLink('https://example.org')),
    ).toBeNull();
    expect(run(state, pasteAsLink('javascript:alert(1)'))).toBeNull();
    expect(run(state, pasteAsLink('plain words'))).toBeNull();
  });
});
