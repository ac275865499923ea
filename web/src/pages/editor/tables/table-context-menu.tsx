import { Check } from 'lucide-react';
import { TextSelection } from 'prosemirror-state';
import { isInTable } from 'prosemirror-tables';
import type { EditorView } from 'prosemirror-view';
import { Fragment, useEffect, useRef, useState } from 'react';
import { Menu, MenuItem, Popover, Separator } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { EditorActionSpec } from '../editor-action-spec';
import { isEnabled } from '../editor-menus';
import { TABLE_ACTIONS } from './table-actions';
import '../../../components/menu/menu.css';

interface Props {
  view: EditorView;
  /** Whether this user may use an action (the page's rights rule). */
  may(action: EditorActionSpec): boolean;
  run(action: EditorActionSpec): void;
}

/** Whether a key opens the context menu: the context-menu key or Shift+F10. */
export function opensContextMenu(event: {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}) {
  if (event.ctrlKey || event.altKey || event.metaKey) return false;
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

/**
 * The table cell's context menu (issue 55): right-click on a cell, or the context-menu key or
 * Shift+F10 with the caret in a table. The Table menu's commands (table-actions.ts), for those who
 * may change the document; others keep the browser's own menu. Elsewhere the browser's menu stays
 * too (spelling suggestions).
 */
export function TableContextMenu({ view, may, run }: Props) {
  const { t } = useTranslation('tables');
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  const anchor = useRef<HTMLDivElement>(null);
  const actions = TABLE_ACTIONS.filter(may);
  const usable = useRef(false);
  usable.current = actions.length > 0;

  useEffect(() => {
    const dom = view.dom;
    const onContextMenu = (event: MouseEvent) => {
      if (!usable.current || !view.editable) return;
      const cell = (event.target as Element | null)?.closest('td, th');
      // A cell of a nested editor (a note's) is not one of this document's tables.
      if (!cell || !dom.contains(cell) || cell.closest('.ProseMirror') !== dom) return;
      event.preventDefault();
      // A right-click in another cell moves the caret there first (a cell selection stays).
      const found = view.posAtCoords({ left: event.clientX, top: event.clientY });
      const { from, to } = view.state.selection;
      if (found && (found.pos < from || found.pos > to)) {
        const $pos = view.state.doc.resolve(found.pos);
        if ($pos.parent.inlineContent)
          view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, found.pos)));
      }
      setAt({ x: event.clientX, y: event.clientY });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (!usable.current || !view.editable || !opensContextMenu(event) || !isInTable(view.state)) return;
      event.preventDefault();
      const caret = view.coordsAtPos(view.state.selection.head);
      setAt({ x: caret.left, y: caret.bottom });
    };
    dom.addEventListener('contextmenu', onContextMenu);
    dom.addEventListener('keydown', onKeyDown);
    return () => {
      dom.removeEventListener('contextmenu', onContextMenu);
      dom.removeEventListener('keydown', onKeyDown);
    };
  }, [view]);

  const close = () => {
    setAt(null);
    view.focus();
  };
  const groups = [...new Set(actions.map((action) => action.group))];
  const disabled = at ? actions.filter((action) => !isEnabled(action, view)).map((action) => action.id) : [];

  return (
    <>
      <div
        ref={anchor}
        className="table-context-anchor"
        style={at ? { left: at.x, top: at.y } : undefined}
        aria-hidden="true"
      />
      <Popover
        triggerRef={anchor}
        isOpen={at !== null}
        onOpenChange={(open) => {
          if (!open) close();
        }}
        placement="bottom start"
        className="menu-popover"
      >
        <Menu
          className="menu"
          aria-label={t('contextMenu.label')}
          autoFocus="first"
          disabledKeys={disabled}
          onAction={(key) => {
            const action = actions.find((candidate) => candidate.id === key);
            setAt(null);
            // After the menu has closed and handed the focus back to the text.
            if (action) setTimeout(() => run(action), 0);
          }}
        >
          {groups.map((group, index) => (
            <Fragment key={group}>
              {index > 0 ? <Separator className="menu-separator" /> : null}
              {actions
                .filter((action) => action.group === group)
                .map((action) => (
                  <MenuItem
                    key={action.id}
                    id={action.id}
                    className="menu-item editor-menu-item"
                    textValue={t(action.title, { ns: 'editor' })}
                  >
                    <span className="editor-menu-check" aria-hidden="true">
                      {at && action.active?.(view.state) ? <Check size={16} /> : null}
                    </span>
                    <span className="editor-menu-label">{t(action.title, { ns: 'editor' })}</span>
                  </MenuItem>
                ))}
            </Fragment>
          ))}
        </Menu>
      </Popover>
    </>
  );
}
