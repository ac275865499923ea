import { Check } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Autocomplete, I18nProvider, Input, Menu, MenuItem, SearchField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/dialog/dialog';
import { bindingLabel } from './key-binding';
import { type Action, actionChecked } from './registry';
import { matchesSearch } from './search-text';
import { actionTitle, useActions, useRegisteredActions } from './use-actions';
import '../components/menu/menu.css';
import './command-palette.css';

interface PaletteProps {
  onChoose(action: Action | null): void;
}

function PaletteList({ onChoose }: PaletteProps) {
  const { t, i18n } = useTranslation('web');
  // Live: a list that arrives while the palette is open (new categories) shows up in it.
  const actions = useRegisteredActions();
  const filter = (text: string, query: string) => matchesSearch(text, query, i18n.language);
  const items = actions.map((action) => ({ id: action.id, label: actionTitle(action, t), action }));
  return (
    <Autocomplete filter={filter}>
      <SearchField className="command-palette-search" aria-label={t('actions.palette.search')} autoFocus>
        <Input className="command-palette-input" placeholder={t('actions.palette.search')} />
      </SearchField>
      <Menu
        className="menu command-palette-list"
        aria-label={t('actions.palette.title')}
        items={items}
        onAction={(key) => onChoose(actions.find((action) => action.id === key) ?? null)}
        renderEmptyState={() => <p className="command-palette-empty">{t('actions.palette.empty')}</p>}
      >
        {(item) => (
          <MenuItem id={item.id} className="menu-item command-palette-item" textValue={item.label}>
            <span className="command-palette-label">
              <span className="command-palette-check" aria-hidden="true">
                {actionChecked(item.action) ? <Check size={14} /> : null}
              </span>
              {item.label}
            </span>
            {item.action.keys ? (
              <kbd className="command-palette-keys">{bindingLabel(item.action.keys)}</kbd>
            ) : null}
          </MenuItem>
        )}
      </Menu>
    </Autocomplete>
  );
}

/**
 * The command palette (Ctrl+K, Cmd+K on Apple keyboards): the actions available on the current
 * screen, searchable by their titles in the user's language. Arrows move, Enter runs, Escape
 * closes. The chosen action runs after the palette has closed, so that it can open a dialog of
 * its own or move the focus.
 */
export function CommandPalette() {
  const { t, i18n } = useTranslation('web');
  const [open, setOpen] = useState(false);
  const chosen = useRef<Action | null>(null);

  useActions([
    {
      id: 'app.commandPalette',
      scope: 'app',
      title: 'actions.palette.title',
      keys: 'Mod+K',
      inPalette: false,
      run: () => setOpen(true),
    },
  ]);

  useEffect(() => {
    if (open || !chosen.current) return;
    const action = chosen.current;
    chosen.current = null;
    action.run();
  }, [open]);

  if (!open) return null;
  return (
    <Dialog title={t('actions.palette.title')} onClose={() => setOpen(false)} width={520}>
      <I18nProvider locale={i18n.language}>
        <PaletteList
          onChoose={(action) => {
            chosen.current = action;
            setOpen(false);
          }}
        />
      </I18nProvider>
    </Dialog>
  );
}
