import type { TFunction } from 'i18next';
import { Check, ChevronRight } from 'lucide-react';
import type { EditorView } from 'prosemirror-view';
import { memo, useMemo } from 'react';
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
import { Select } from '../../components/form/select';
import { EDITOR_ACTIONS, type EditorActionSpec, MENUS } from './editor-actions';
import { CompactToolbar } from './editor-compact-toolbar';
import type { MenuProps, ToolbarButtonsProps } from './toolbar-props';
import '../../components/menu/menu.css';

export type { MenuProps } from './toolbar-props';

/** The title with its shortcut, for tooltips: 'Bold (Ctrl+B)'. */
export function actionTooltip(action: EditorActionSpec, t: TFunction): string {
  const label = t(action.title, { ns: 'editor', ...action.titleOptions });
  return action.keys ? t('header.shortcut', { ns: 'web', label, key: bindingLabel(action.keys) }) : label;
}

export function isEnabled(action: EditorActionSpec, view: EditorView): boolean {
  if (action.enabled) return action.enabled(view.state);
  if (action.command) return action.command(view.state);
  return true;
}

export function visible(action: EditorActionSpec, canWrite: boolean): boolean {
  return canWrite || !action.writes;
}

export function runLater(
  actions: readonly EditorActionSpec[],
  key: unknown,
  run: (action: EditorActionSpec) => void,
) {
  const action = actions.find((a) => a.id === key);
  // After the menu has closed and handed the focus back, so that the action can move it
  // on (into the text, a new note, a dialog).
  if (action) setTimeout(() => run(action), 0);
}

export function disabledKeys(actions: readonly EditorActionSpec[], view: EditorView): string[] {
  return actions.filter((action) => !isEnabled(action, view)).map((action) => action.id);
}

function menuItem(action: EditorActionSpec, view: EditorView, t: TFunction) {
  const checked = action.active?.(view.state);
  return (
    <MenuItem
      key={action.id}
      id={action.id}
      className="menu-item editor-menu-item"
      textValue={t(action.title, action.titleOptions)}
    >
      <span className="editor-menu-check" aria-hidden="true">
        {checked ? <Check size={16} /> : null}
      </span>
      <span className="editor-menu-label">{t(action.title, action.titleOptions)}</span>
      {action.keys ? <kbd className="editor-menu-keys">{bindingLabel(action.keys)}</kbd> : null}
    </MenuItem>
  );
}

/**
 * One menu's items. Rendered only while the menu is open (a closed Popover renders nothing):
 * which items are enabled and checked is worked out then, not on every keystroke.
 */
export function EditorMenuItems({
  label,
  actions,
  view,
  run,
  submenu = false,
}: {
  label: string;
  actions: readonly EditorActionSpec[];
  view: EditorView;
  run: MenuProps['run'];
  /** The items of a submenu (File > Export): listed as they are, no groups or submenus. */
  submenu?: boolean;
}) {
  const { t } = useTranslation('editor');
  const own = submenu ? actions : actions.filter((action) => !action.submenu);
  const groups = [...new Set(actions.map((action) => action.group))];
  return (
    <Menu
      className="menu"
      aria-label={label}
      onAction={(key) => runLater(own, key, run)}
      disabledKeys={disabledKeys(own, view)}
    >
      {submenu
        ? own.map((action) => menuItem(action, view, t))
        : groups.flatMap((group, index) => {
            const inGroup = actions.filter((action) => action.group === group);
            const submenus = [...new Set(inGroup.flatMap((action) => action.submenu ?? []))];
            return [
              ...(index > 0 ? [<Separator key={`sep-${group}`} className="menu-separator" />] : []),
              ...submenus.map((name) => {
                const items = inGroup.filter((action) => action.submenu === name);
                const submenuLabel = t(`${name}:submenu`);
                return (
                  <SubmenuTrigger key={`submenu-${name}`}>
                    <MenuItem
                      id={`submenu-${name}`}
                      className="menu-item editor-menu-item"
                      textValue={submenuLabel}
                    >
                      <span className="editor-menu-check" aria-hidden="true" />
                      <span className="editor-menu-label">{submenuLabel}</span>
                      <ChevronRight aria-hidden="true" size={16} />
                    </MenuItem>
                    <Popover className="menu-popover">
                      <EditorMenuItems label={submenuLabel} actions={items} view={view} run={run} submenu />
                    </Popover>
                  </SubmenuTrigger>
                );
              }),
              ...inGroup.filter((action) => !action.submenu).map((action) => menuItem(action, view, t)),
            ];
          })}
    </Menu>
  );
}

/**
 * File, Edit, Insert, Format, Tools, Help: menus of the action table (File > Export a submenu).
 * Memoised: typing re-renders the editor page on every keystroke, the menu bar only when the
 * rights (may, canWrite) or the language change; give it a stable `run` and `may`.
 */
export const EditorMenuBar = memo(function EditorMenuBar({ view, canWrite, run, may }: MenuProps) {
  const { t } = useTranslation('editor');
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of menu buttons, not a form's fieldset
    <div className="editor-menubar" role="group" aria-label={t('menu.bar')}>
      {MENUS.map((menu) => {
        const actions = EDITOR_ACTIONS.filter(
          (action) => action.menu === menu && (may ? may(action) : visible(action, canWrite)),
        );
        if (!actions.length) return null;
        return (
          <MenuTrigger key={menu}>
            <Button className="editor-menu-button">{t(`menu.${menu}`)}</Button>
            <Popover className="menu-popover" placement="bottom start">
              <EditorMenuItems label={t(`menu.${menu}`)} actions={actions} view={view} run={run} />
            </Popover>
          </MenuTrigger>
        );
      })}
    </div>
  );
});

const BLOCK_TYPES = [
  'editor.paragraph',
  ...[1, 2, 3, 4, 5, 6].map((level) => `editor.heading${level}`),
  'editor.codeBlock',
];

export const BLOCK_ACTIONS = EDITOR_ACTIONS.filter((action) => BLOCK_TYPES.includes(action.id));

/**
 * The toolbar: text style, then the actions that have an icon. A keystroke asks each button's
 * command whether it is enabled and pressed; the buttons are drawn again (and their labels
 * translated) only when one of those answers changed. `compact` (phones): one row of the most
 * used tools, the rest in a More menu (editor-compact-toolbar.tsx).
 */
export function EditorToolbar({
  view,
  canWrite,
  run,
  may,
  compact = false,
}: MenuProps & { compact?: boolean }) {
  // Someone who cannot write gets a toolbar only for commenting (read rights: no editing tools).
  const buttons = useMemo(
    () =>
      EDITOR_ACTIONS.filter(
        (action) => action.icon && (may ? may(action) : true) && (canWrite || action.need === 'comment'),
      ),
    [may, canWrite],
  );
  if (!canWrite && buttons.length === 0) return null;
  const state = view.state;
  return (
    <ToolbarButtons
      compact={compact}
      buttons={buttons}
      canWrite={canWrite}
      run={run}
      activeBlock={BLOCK_ACTIONS.find((action) => action.active?.(state))?.id ?? null}
      disabledBlocks={BLOCK_ACTIONS.filter((action) => !isEnabled(action, view))
        .map((action) => action.id)
        .join(' ')}
      pressed={buttons.map((action) => (action.active?.(state) ? '1' : '0')).join('')}
      enabled={buttons.map((action) => (isEnabled(action, view) ? '1' : '0')).join('')}
    />
  );
}

const ToolbarButtons = memo(function ToolbarButtons(props: ToolbarButtonsProps) {
  const { buttons, canWrite, run, activeBlock, disabledBlocks, pressed, enabled } = props;
  const { t } = useTranslation('editor');
  if (props.compact) return <CompactToolbar {...props} />;
  const disabled = new Set(disabledBlocks.split(' '));
  return (
    <div className="editor-toolbar" role="toolbar" aria-label={t('toolbar')}>
      {canWrite ? (
        <Select
          className="editor-block-type"
          label={t('blockType')}
          hideLabel
          value={activeBlock}
          // Where none of the styles is active (e.g. several kinds of block selected), none is shown.
          placeholder=""
          options={BLOCK_ACTIONS.map((action) => ({
            value: action.id,
            label: t(action.title, action.titleOptions),
            disabled: disabled.has(action.id),
          }))}
          onChange={(id) => runLater(BLOCK_ACTIONS, id, run)}
        />
      ) : null}
      {buttons.map((action, index) => {
        const Icon = action.icon;
        return (
          <button
            key={action.id}
            type="button"
            className={`editor-tool editor-tool-${action.id.replace('editor.', '')}`}
            title={actionTooltip(action, t)}
            aria-label={t(action.title, action.titleOptions)}
            aria-keyshortcuts={action.keys ? action.keys.replace('Mod', 'Control') : undefined}
            aria-pressed={action.active ? pressed[index] === '1' : undefined}
            disabled={enabled[index] !== '1'}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(action)}
          >
            {Icon && <Icon aria-hidden="true" size={18} />}
          </button>
        );
      })}
    </div>
  );
});
