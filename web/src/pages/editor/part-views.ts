import { addKeywords, removeContributor, removeKeyword } from '@scriptorium/common/editor/commands';
import type { LucideIconData } from 'lucide-react/types';
import type { Node as PMNode } from 'prosemirror-model';
import type { Decoration, EditorView, NodeView } from 'prosemirror-view';
import { iconElement, PENCIL_ICON, PLUS_ICON, X_ICON } from '../../components/icons/icon-element';
import type { TocLine } from './editor-plugins';

/** What the part views need from the page: texts, rights and the author dialog. */
export interface PartViewContext {
  t(key: string, options?: Record<string, unknown>): string;
  editable(): boolean;
  editContributor(index: number | null): void;
}

function indexIn(view: EditorView, getPos: () => number | undefined): number {
  const pos = getPos();
  if (pos === undefined) return -1;
  const $pos = view.state.doc.resolve(pos);
  return $pos.index();
}

/** A chip's button: a lucide icon, and the label beside it when `showLabel` (else its name only). */
function button(
  label: string,
  icon: LucideIconData,
  onClick: () => void,
  showLabel = false,
): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'doc-chip-button';
  element.setAttribute('aria-label', label);
  element.title = label;
  element.appendChild(iconElement(icon));
  if (showLabel) element.append(` ${label}`);
  // mousedown would move the editor's selection before the click arrives.
  element.addEventListener('mousedown', (event) => event.preventDefault());
  element.addEventListener('click', onClick);
  return element;
}

/** One author: the name, and buttons to edit and remove (authors change through the dialog). */
export function contributorView(context: PartViewContext) {
  return (node: PMNode, view: EditorView, getPos: () => number | undefined): NodeView => {
    const dom = document.createElement('div');
    dom.className = 'doc-contributor';
    const render = (current: PMNode) => {
      dom.textContent = '';
      const name = [current.attrs.firstname, current.attrs.lastname].filter(Boolean).join(' ');
      const text = dom.appendChild(document.createElement('span'));
      text.className = 'doc-contributor-name';
      text.textContent = name;
      if (current.attrs.institution) {
        const institution = dom.appendChild(document.createElement('span'));
        institution.className = 'doc-contributor-institution';
        institution.textContent = current.attrs.institution;
      }
      if (context.editable()) {
        dom.append(
          button(context.t('contributors.edit', { name }), PENCIL_ICON, () =>
            context.editContributor(indexIn(view, getPos)),
          ),
          button(context.t('contributors.remove', { name }), X_ICON, () => {
            removeContributor(indexIn(view, getPos))(view.state, view.dispatch);
          }),
        );
      }
    };
    render(node);
    return {
      dom,
      update: (next) => {
        if (next.type !== node.type) return false;
        render(next);
        return true;
      },
      stopEvent: (event) => event.target instanceof HTMLButtonElement,
      ignoreMutation: () => true,
    };
  };
}

/** A table of contents: the part's title and the headings the tocPlugin's decoration holds, as links. */
export function tocPartView() {
  return (
    node: PMNode,
    _view: EditorView,
    _getPos: unknown,
    decorations: readonly Decoration[],
  ): NodeView => {
    const dom = document.createElement('nav');
    dom.className = 'doc-part doc-toc_part';
    dom.setAttribute('data-part', 'toc_part');
    dom.setAttribute('data-part-id', String(node.attrs.id));
    dom.setAttribute('contenteditable', 'false');
    const heading = dom.appendChild(document.createElement('div'));
    heading.className = 'doc-toc-title';
    heading.id = `doc-toc-${String(node.attrs.id)}`;
    dom.setAttribute('aria-labelledby', heading.id);
    const list = dom.appendChild(document.createElement('ol'));
    list.className = 'doc-toc-entries';
    let drawn = '';
    const render = (current: PMNode, decos: readonly Decoration[]) => {
      heading.textContent = String(current.attrs.title);
      const lines =
        (decos.find((deco) => (deco.spec as { toc?: unknown }).toc)?.spec as { toc: TocLine[] } | undefined)
          ?.toc ?? [];
      const key = JSON.stringify(lines);
      if (key === drawn) return;
      drawn = key;
      list.replaceChildren(
        ...lines.map((line) => {
          const item = document.createElement('li');
          item.className = `doc-toc-level-${line.level}`;
          const link = item.appendChild(document.createElement(line.id ? 'a' : 'span'));
          if (line.id) link.setAttribute('href', `#${line.id}`);
          link.textContent = line.text;
          return item;
        }),
      );
    };
    render(node, decorations);
    return {
      dom,
      update: (next, decos) => {
        if (next.type !== node.type) return false;
        render(next, decos);
        return true;
      },
      stopEvent: () => true,
      ignoreMutation: () => true,
    };
  };
}

/** The authors part: the list, and an Add author button outside the editable content. */
export function contributorsPartView(context: PartViewContext) {
  return (node: PMNode): NodeView => {
    const dom = document.createElement('div');
    dom.className = 'doc-part doc-contributors_part';
    dom.setAttribute('data-part-id', String(node.attrs.id));
    const contentDOM = dom.appendChild(document.createElement('div'));
    contentDOM.className = 'doc-contributors';
    if (context.editable()) {
      const add = button(context.t('action.addAuthor'), PLUS_ICON, () => context.editContributor(null), true);
      add.contentEditable = 'false';
      dom.appendChild(add);
    }
    return {
      dom,
      contentDOM,
      update: (next) => next.type === node.type && next.attrs.hidden === node.attrs.hidden,
      stopEvent: (event) => event.target instanceof HTMLButtonElement,
      ignoreMutation: (mutation) => !contentDOM.contains(mutation.target),
    };
  };
}

/** A keyword as a chip with a remove button. */
export function keywordView(context: PartViewContext) {
  return (node: PMNode, view: EditorView, getPos: () => number | undefined): NodeView => {
    const dom = document.createElement('span');
    dom.className = 'doc-keyword';
    dom.append(String(node.attrs.keyword));
    if (context.editable()) {
      dom.append(
        button(context.t('keywords.remove', { keyword: node.attrs.keyword }), X_ICON, () => {
          removeKeyword(indexIn(view, getPos))(view.state, view.dispatch);
        }),
      );
    }
    return {
      dom,
      stopEvent: (event) => event.target instanceof HTMLButtonElement,
      ignoreMutation: () => true,
    };
  };
}

/** The keywords part: chips, then a field that adds what is typed on Enter (or a comma). */
export function tagsPartView(context: PartViewContext) {
  return (node: PMNode, view: EditorView): NodeView => {
    const dom = document.createElement('div');
    dom.className = 'doc-part doc-tags_part';
    dom.setAttribute('data-part-id', String(node.attrs.id));
    const contentDOM = dom.appendChild(document.createElement('span'));
    contentDOM.className = 'doc-keywords';
    let input: HTMLInputElement | null = null;
    if (context.editable()) {
      input = dom.appendChild(document.createElement('input'));
      input.className = 'doc-keyword-input';
      input.placeholder = context.t('keywords.placeholder');
      input.setAttribute('aria-label', context.t('keywords.add'));
      input.contentEditable = 'false';
      const field = input;
      const commit = () => {
        if (addKeywords(field.value)(view.state, view.dispatch)) field.value = '';
      };
      field.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ',') {
          event.preventDefault();
          commit();
        }
      });
      field.addEventListener('blur', commit);
    }
    return {
      dom,
      contentDOM,
      update: (next) => next.type === node.type,
      stopEvent: (event) => event.target === input || event.target instanceof HTMLButtonElement,
      ignoreMutation: (mutation) => !contentDOM.contains(mutation.target),
    };
  };
}

/** The node views of the template's parts: authors, keywords, tables of contents (editor and print page). */
export function partNodeViews(context: PartViewContext) {
  return {
    contributor: contributorView(context),
    contributors_part: contributorsPartView(context),
    keyword: keywordView(context),
    tags_part: tagsPartView(context),
    toc_part: tocPartView(),
  };
}
