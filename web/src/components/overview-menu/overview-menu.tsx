import { ChevronDown } from 'lucide-react';
import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ariaKeyShortcuts } from '../../actions/key-binding';
import type { Action } from '../../actions/registry';
import { useActions } from '../../actions/use-actions';
import { type BulkAction, BulkMenu } from '../bulk-menu/bulk-menu';
import { SearchBox } from '../search-box/search-box';
import '../menu/menu.css';
import './overview-menu.css';

interface ItemBase {
  id: string;
  /** One letter or digit: Alt plus this key triggers the item from anywhere on the page. */
  shortcut?: string;
  disabled?: boolean;
}

export interface DropdownOption {
  id: string;
  label: string;
  onSelect(): void;
}

/** A clickable text entry, e.g. 'Invite contact'. */
export interface TextMenuItem extends ItemBase {
  type: 'text';
  title: string;
  onSelect(): void;
}

/** An icon button; `title` is its accessible name. */
export interface ButtonMenuItem extends ItemBase {
  type: 'button';
  title: string;
  icon: ReactNode;
  onSelect(): void;
}

/**
 * A dropdown of options. With `selectedId` it is a filter (e.g. 'All categories' plus each
 * category) that shows the chosen option; without it, a plain menu of actions under `title`.
 */
export interface DropdownMenuItem extends ItemBase {
  type: 'dropdown';
  title: string;
  options: DropdownOption[];
  selectedId?: string;
}

export interface SearchMenuItem extends ItemBase {
  type: 'search';
  title: string;
  value: string;
  onChange(value: string): void;
}

/** Select-all checkbox plus bulk actions (spec 2.7). */
export interface SelectActionMenuItem extends ItemBase {
  type: 'select-action';
  allSelected: boolean;
  someSelected?: boolean;
  /** No rows yet or none at all: the select-all checkbox is disabled. */
  nothingToSelect?: boolean;
  onSelectAll(checked: boolean): void;
  actions: BulkAction[];
}

export type OverviewMenuItem =
  | TextMenuItem
  | ButtonMenuItem
  | DropdownMenuItem
  | SearchMenuItem
  | SelectActionMenuItem;

export interface OverviewMenuProps {
  items: OverviewMenuItem[];
  /** Accessible name of the toolbar; defaults to 'Page menu'. */
  label?: string;
}

interface MenuControls {
  /** Opens a dropdown or the bulk menu. */
  open(id: string): void;
  /** Puts the caret into a search box. */
  focus(id: string): void;
}

function shortcutKeys(item: OverviewMenuItem): string | undefined {
  return item.shortcut ? `Alt+${item.shortcut.toUpperCase()}` : undefined;
}

/**
 * The menu's items as actions. A dropdown's options and the bulk actions are actions of their
 * own too, so that the palette finds 'Delete selected' or a category by name.
 */
function overviewActions(items: readonly OverviewMenuItem[], controls: MenuControls): Action[] {
  return items.flatMap((item) => itemActions(item, controls));
}

function itemActions(item: OverviewMenuItem, controls: MenuControls): Action[] {
  const base = {
    id: `overview.${item.id}`,
    scope: 'page',
    title: item.id,
    keys: shortcutKeys(item),
    enabled: !item.disabled,
  };
  switch (item.type) {
    case 'text':
    case 'button':
      return [{ ...base, label: item.title, run: () => item.onSelect() }];
    case 'search':
      return [{ ...base, label: item.title, run: () => controls.focus(item.id) }];
    case 'dropdown':
      return [
        { ...base, label: item.title, inPalette: false, run: () => controls.open(item.id) },
        ...item.options.map((option) => ({
          id: `overview.${item.id}.${option.id}`,
          scope: 'page',
          title: option.id,
          label: `${item.title}: ${option.label}`,
          enabled: !item.disabled,
          checked: item.selectedId === undefined ? undefined : item.selectedId === option.id,
          run: () => option.onSelect(),
        })),
      ];
    case 'select-action':
      return [
        { ...base, title: 'bulk', label: item.id, inPalette: false, run: () => controls.open(item.id) },
        ...item.actions.map((action, index) => ({
          id: `overview.${item.id}.${index}`,
          scope: 'page',
          title: action.label,
          label: action.label,
          enabled: !item.disabled && !action.disabled,
          run: () => action.onSelect(),
        })),
      ];
  }
}

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(target.type))
  );
}

/** The menu bar of the overview pages (documents, bibliography, images, contacts). */
export function OverviewMenu({ items, label }: OverviewMenuProps) {
  const { t } = useTranslation('components');
  const [openItem, setOpenItem] = useState<string | null>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const controls = useRef(new Map<string, HTMLElement>());

  // Every item is an action of the screen (scope 'page'): its Alt shortcut is handled by the
  // action registry, which keeps quiet behind dialogs, and the command palette lists it.
  useActions(
    overviewActions(items, {
      open: (id) => setOpenItem(id),
      focus: (id) => {
        const box = controls.current.get(id);
        if (box instanceof HTMLInputElement) {
          box.focus();
          box.select();
        }
      },
    }),
  );

  // Left and right arrows walk along the bar (except inside the search box, where they move the caret).
  const onBarKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const bar = barRef.current;
    const target = event.target;
    // Keys from the portalled dropdowns bubble here through React; they are not ours.
    if (!bar || !(target instanceof HTMLElement) || !bar.contains(target) || isTextField(target)) return;
    const focusable = Array.from(
      bar.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled])'),
    );
    const index = focusable.indexOf(target);
    if (index < 0) return;
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const next = focusable[(index + step + focusable.length) % focusable.length];
    event.preventDefault();
    next.focus();
  };

  const register = (id: string) => (element: HTMLElement | null) => {
    if (element) controls.current.set(id, element);
    else controls.current.delete(id);
  };

  const openProps = (id: string) => ({
    isOpen: openItem === id,
    onOpenChange: (open: boolean) => setOpenItem(open ? id : null),
  });

  const renderItem = (item: OverviewMenuItem) => {
    const binding = shortcutKeys(item);
    const keys = binding ? ariaKeyShortcuts(binding) : undefined;
    switch (item.type) {
      case 'text':
      case 'button': {
        // A text entry shows its title; an icon button is named by it.
        const icon = item.type === 'button';
        return (
          <button
            type="button"
            className={`control-surface ${icon ? 'overview-menu-button' : 'overview-menu-text'}`}
            disabled={item.disabled}
            aria-label={icon ? item.title : undefined}
            title={icon ? item.title : undefined}
            aria-keyshortcuts={keys}
            onClick={() => item.onSelect()}
          >
            {icon ? item.icon : item.title}
          </button>
        );
      }
      case 'search':
        return (
          <SearchBox
            ref={register(item.id)}
            label={item.title}
            value={item.value}
            onChange={item.onChange}
            className="overview-menu-search"
          />
        );
      case 'select-action':
        return (
          <BulkMenu
            allSelected={item.allSelected}
            someSelected={item.someSelected}
            nothingToSelect={item.nothingToSelect}
            onSelectAll={item.onSelectAll}
            actions={item.actions}
            {...openProps(item.id)}
          />
        );
      case 'dropdown':
        return <Dropdown item={item} keys={keys} {...openProps(item.id)} />;
    }
  };

  return (
    <div
      ref={barRef}
      role="toolbar"
      aria-label={label ?? t('menuLabel')}
      className="overview-menu"
      onKeyDown={onBarKeyDown}
    >
      {items.map((item) => (
        <div key={item.id} className={`overview-menu-item overview-menu-item-${item.type}`}>
          {renderItem(item)}
        </div>
      ))}
    </div>
  );
}

function Dropdown({
  item,
  keys,
  isOpen,
  onOpenChange,
}: {
  item: DropdownMenuItem;
  keys?: string;
  isOpen: boolean;
  onOpenChange(open: boolean): void;
}) {
  const selected = item.options.find((option) => option.id === item.selectedId);
  const isFilter = item.selectedId !== undefined;
  const run = (key: string | number) => item.options.find((option) => option.id === String(key))?.onSelect();
  return (
    <MenuTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
      <Button
        className="control-surface overview-menu-dropdown"
        isDisabled={item.disabled}
        // The name starts with what the bar says (e.g. 'Category: All categories'), as WCAG 2.5.3 asks.
        aria-label={isFilter && selected ? `${item.title}: ${selected.label}` : undefined}
        aria-keyshortcuts={keys}
      >
        <span>{isFilter && selected ? selected.label : item.title}</span>
        <ChevronDown aria-hidden="true" className="overview-menu-caret" />
      </Button>
      <Popover className="menu-popover" placement="bottom start">
        {isFilter ? (
          <Menu
            className="menu"
            aria-label={item.title}
            selectionMode="single"
            disallowEmptySelection
            selectedKeys={item.selectedId ? [item.selectedId] : []}
            onSelectionChange={(keys) => {
              if (keys !== 'all') for (const key of keys) run(key);
            }}
          >
            {item.options.map((option) => (
              <MenuItem key={option.id} id={option.id} className="menu-item" textValue={option.label}>
                {option.label}
              </MenuItem>
            ))}
          </Menu>
        ) : (
          <Menu className="menu" aria-label={item.title} onAction={run}>
            {item.options.map((option) => (
              <MenuItem key={option.id} id={option.id} className="menu-item" textValue={option.label}>
                {option.label}
              </MenuItem>
            ))}
          </Menu>
        )}
      </Popover>
    </MenuTrigger>
  );
}
