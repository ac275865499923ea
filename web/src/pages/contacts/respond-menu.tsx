import { ChevronDown } from 'lucide-react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import '../../components/menu/menu.css';

export interface RespondMenuProps {
  /** Whose invitation this is, for the button's accessible name. */
  name: string;
  onAccept(): void;
  onDecline(): void;
}

/** Spec 2.4: a received invite shows Respond, with accept and decline (arrows move, Escape closes). */
export function RespondMenu({ name, onAccept, onDecline }: RespondMenuProps) {
  const { t } = useTranslation('contacts');
  return (
    <MenuTrigger>
      <Button className="button contacts-respond" aria-label={t('respondTo', { name })}>
        {t('respond')}
        <ChevronDown aria-hidden="true" />
      </Button>
      <Popover className="menu-popover" placement="bottom end">
        <Menu
          className="menu"
          aria-label={t('respondTo', { name })}
          onAction={(key) => (key === 'accept' ? onAccept() : onDecline())}
        >
          <MenuItem id="accept" className="menu-item">
            {t('accept')}
          </MenuItem>
          <MenuItem id="decline" className="menu-item">
            {t('decline')}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
