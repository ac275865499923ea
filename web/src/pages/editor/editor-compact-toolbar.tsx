import { Check, ChevronRight, Ellipsis } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import {
  Button,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Separator,
  SubmenuTrigger,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { bindingLabel } from '../../actions/key-binding';
import { EDITOR_ACTIONS, type EditorActionSpec } from './editor-actions';
import type { ToolbarButtonsProps } from './toolbar-props';

/**
 * The tools a phone shows first, most used first (Google Docs' phone bar: undo, then the marks).
 * The other buttons follow in the table's order; whatever does not fit in the row goes into More.
 */
const PHONE_ORDER = [
  'editor.undo',
  'editor.bold',
  'editor.italic',
  'editor.comment',
  'editor.bulletList',
  'editor.link',
  'editor.redo',
  'editor.underline',
  'editor.orderedList',
  'editor.citation',
  'editor.footnote',
  'editor.equation',
];

const rank = (id: string) => {
  const index = PHONE_ORDER.indexOf(id);
  return index < 0 ? PHONE_ORDER.length : index;
};

/**
 * How many of `total` buttons of `slot` px (a button and the gap after it) fit in `width` px:
 * all of them, or as many as leave room for the More button.
 */
export function fitCount(width: number, slot: number, gap: number, total: number): number {
  if (slot <= 0) return total;
  const room = Math.floor((width + gap) / slot);
  return room >= total ? total : Math.max(0, room - 1);
}

/** Measures the toolbar's row (it is as wide as its place, whatever it holds) on every resize. */
function useFit(total: number) {
  const toolbar = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(0);
  useLayoutEffect(() => {
    const element = toolbar.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const width =
        element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const gap = Number.parseFloat(style.columnGap) || 0;
      const button = element.querySelector<HTMLElement>('.editor-tool');
      setFit(fitCount(width, (button?.offsetWidth ?? 0) + gap, gap, total));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [total]);
  return { toolbar, fit };
}

function later(actions: readonly EditorActionSpec[], key: unknown, run: (action: EditorActionSpec) => void) {
  const action = actions.find((a) => a.id === key);
  // After the menu has closed and handed the focus back: the action moves it on (into the text).
  if (action) setTimeout(() => run(action), 0);
}

/**
 * The toolbar on a phone: one row of the most used tools, and More (a menu, keyboard operable)
 * with the text style and every tool that did not fit.
 */
export function CompactToolbar({
  buttons,
  canWrite,
  run,
  activeBlock,
  disabledBlocks,
  pressed,
  enabled,
}: ToolbarButtonsProps) {
  const { t } = useTranslation('editor');
  const tools = buttons
    .map((action, index) => ({ action, pressed: pressed[index] === '1', enabled: enabled[index] === '1' }))
    .sort((a, b) => rank(a.action.id) - rank(b.action.id));
  const { toolbar, fit } = useFit(tools.length);
  const shown = tools.slice(0, fit);
  const more = tools.slice(fit);
  const blocks = canWrite ? EDITOR_ACTIONS.filter((action) => BLOCK_IDS.includes(action.id)) : [];
  const disabled = new Set(disabledBlocks.split(' '));
  return (
    <div
      ref={toolbar}
      className="editor-toolbar editor-toolbar-compact"
      role="toolbar"
      aria-label={t('toolbar')}
    >
      {shown.map(({ action, pressed: on, enabled: can }) => {
        const Icon = action.icon;
        const label = t(action.title, action.titleOptions);
        return (
          <button
            key={action.id}
            type="button"
            className={`editor-tool editor-tool-${action.id.replace('editor.', '')}`}
            title={action.keys ? `${label} (${bindingLabel(action.keys)})` : label}
            aria-label={label}
            aria-keyshortcuts={action.keys ? action.keys.replace('Mod', 'Control') : undefined}
            aria-pressed={action.active ? on : undefined}
            disabled={!can}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(action)}
          >
            {Icon && <Icon aria-hidden="true" size={18} />}
          </button>
        );
      })}
      {more.length || blocks.length ? (
        <MenuTrigger>
          <Button className="editor-tool editor-tool-more" aria-label={t('compact.more')}>
            <Ellipsis aria-hidden="true" size={18} />
          </Button>
          <Popover className="menu-popover editor-compact-menu" placement="bottom end">
            <Menu
              className="menu"
              aria-label={t('compact.more')}
              onAction={(key) =>
                later(
                  more.map((tool) => tool.action),
                  key,
                  run,
                )
              }
              disabledKeys={more.filter((tool) => !tool.enabled).map((tool) => tool.action.id)}
            >
              {blocks.length ? (
                <SubmenuTrigger>
                  <MenuItem id="blockType" className="menu-item editor-menu-item" textValue={t('blockType')}>
                    <span className="editor-menu-check" aria-hidden="true" />
                    <span className="editor-menu-label">{t('blockType')}</span>
                    <ChevronRight aria-hidden="true" size={16} />
                  </MenuItem>
                  <Popover className="menu-popover editor-compact-menu">
                    <Menu
                      className="menu"
                      aria-label={t('blockType')}
                      onAction={(key) => later(blocks, key, run)}
                      disabledKeys={blocks.filter((action) => disabled.has(action.id)).map((a) => a.id)}
                    >
                      {blocks.map((action) => (
                        <MenuItem
                          key={action.id}
                          id={action.id}
                          className="menu-item editor-menu-item"
                          textValue={t(action.title, action.titleOptions)}
                        >
                          <span className="editor-menu-check" aria-hidden="true">
                            {activeBlock === action.id ? <Check size={16} /> : null}
                          </span>
                          <span className="editor-menu-label">{t(action.title, action.titleOptions)}</span>
                        </MenuItem>
                      ))}
                    </Menu>
                  </Popover>
                </SubmenuTrigger>
              ) : null}
              {blocks.length && more.length ? <Separator className="menu-separator" /> : null}
              {more.map(({ action, pressed: on }) => {
                const Icon = action.icon;
                const label = t(action.title, action.titleOptions);
                return (
                  <MenuItem
                    key={action.id}
                    id={action.id}
                    className="menu-item editor-menu-item"
                    textValue={label}
                  >
                    <span className="editor-menu-check" aria-hidden="true">
                      {on ? <Check size={16} /> : Icon ? <Icon size={16} /> : null}
                    </span>
                    <span className="editor-menu-label">{label}</span>
                    {action.keys ? <kbd className="editor-menu-keys">{bindingLabel(action.keys)}</kbd> : null}
                  </MenuItem>
                );
              })}
            </Menu>
          </Popover>
        </MenuTrigger>
      ) : null}
    </div>
  );
}

const BLOCK_IDS = [
  'editor.paragraph',
  ...[1, 2, 3, 4, 5, 6].map((level) => `editor.heading${level}`),
  'editor.codeBlock',
];
