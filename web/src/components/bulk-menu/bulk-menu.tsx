import { ChevronDown } from 'lucide-react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import '../menu/menu.css';
import './bulk-menu.css';

/** Spec section 2.7 and 9: the bulk-action menu of tables is 280 px wide. */
export const BULK_MENU_WIDTH = 280;

export interface BulkAction {
  label: string;
  onSelect(): void;
  disabled?: boolean;
}

export interface BulkMenuProps {
  allSelected: boolean;
  onSelectAll(checked: boolean): void;
  actions: BulkAction[];
  /** Some but not all rows selected: the checkbox shows a mixed state. */
  someSelected?: boolean;
  /**
   * No rows (still loading, or an empty list): the checkbox is disabled, so a click cannot select
   * "all" of nothing and leave the box unchecked.
   */
  nothingToSelect?: boolean;
  /** Controlled open state, so that an Alt shortcut of the surrounding menu can open the dropdown. */
  isOpen?: boolean;
  onOpenChange?(open: boolean): void;
}

/** Select-all checkbox plus a dropdown of bulk actions (arrows move, Enter runs, Escape closes). */
export function BulkMenu({
  allSelected,
  onSelectAll,
  actions,
  someSelected,
  nothingToSelect,
  isOpen,
  onOpenChange,
}: BulkMenuProps) {
  const { t } = useTranslation('components');
  const disabledKeys = actions.flatMap((action, index) => (action.disabled ? [String(index)] : []));
  return (
    <div className="bulk-menu">
      <input
        type="checkbox"
        className="bulk-menu-checkbox"
        aria-label={t('bulkSelectAll')}
        checked={allSelected}
        disabled={nothingToSelect}
        ref={(box) => {
          if (box) box.indeterminate = !allSelected && Boolean(someSelected);
        }}
        onChange={(event) => onSelectAll(event.target.checked)}
      />
      <MenuTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
        <Button className="bulk-menu-trigger" aria-label={t('bulkActions')}>
          <ChevronDown aria-hidden="true" />
        </Button>
        <Popover
          className="menu-popover bulk-menu-popover"
          placement="bottom start"
          style={{ width: BULK_MENU_WIDTH }}
        >
          <Menu
            className="menu"
            aria-label={t('bulkActions')}
            disabledKeys={disabledKeys}
            onAction={(key) => actions[Number(key)]?.onSelect()}
          >
            {actions.map((action, index) => (
              <MenuItem key={action.label} id={String(index)} className="menu-item" textValue={action.label}>
                {action.label}
              </MenuItem>
            ))}
          </Menu>
        </Popover>
      </MenuTrigger>
    </div>
  );
}
