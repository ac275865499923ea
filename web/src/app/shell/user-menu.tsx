import type { AuthenticatedUser } from '@scriptorium/common/api/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import type { Key } from 'react-aria-components';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { showToast } from '../../components/toast/toast';
import { useAppContext } from '../configuration/app-context';
import { confirmLeaving, navigate } from '../router/navigation';
import { LOGO_TARGET } from './logo';

export const PROFILE_PATH = '/user/profile/';
export const CONTACTS_PATH = '/user/contacts/';

function Avatar({ user }: { user: AuthenticatedUser }) {
  if (user.avatar) return <img className="avatar" src={user.avatar} alt="" width={28} height={28} />;
  const initial = (user.name || user.username).charAt(0).toUpperCase();
  return (
    <span className="avatar avatar-initial" aria-hidden="true">
      {initial}
    </span>
  );
}

/**
 * Spec 2.2: the user menu with profile, contacts and log out. react-aria gives it arrow keys,
 * Enter, Escape, typeahead and focus return to the trigger.
 */
export function UserMenu({ user }: { user: AuthenticatedUser }) {
  const { t } = useTranslation('web');
  const { reloadConfiguration } = useAppContext();

  async function logOut() {
    if (!confirmLeaving()) return;
    try {
      await call(userApi.logout);
    } catch {
      showToast(t('header.logoutFailed'), 'error');
      return;
    }
    navigate(LOGO_TARGET, { force: true });
    await reloadConfiguration();
  }

  function onAction(key: Key) {
    if (key === 'profile') navigate(PROFILE_PATH);
    else if (key === 'contacts') navigate(CONTACTS_PATH);
    else if (key === 'logout') void logOut();
  }

  return (
    <MenuTrigger>
      <Button className="user-menu-button" data-header-item="">
        <Avatar user={user} />
        <span className="user-menu-name">{user.name || user.username}</span>
        <span className="user-menu-caret" aria-hidden="true">
          ▾
        </span>
      </Button>
      <Popover placement="bottom end" className="header-menu-popover">
        <Menu className="header-menu" onAction={onAction}>
          <MenuItem id="profile" className="header-menu-item">
            {t('header.profile')}
          </MenuItem>
          <MenuItem id="contacts" className="header-menu-item">
            {t('header.contacts')}
          </MenuItem>
          <MenuItem id="logout" className="header-menu-item">
            {t('header.logout')}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
