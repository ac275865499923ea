import type { AuthenticatedUser } from '@scriptorium/common/api/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { ChevronDown } from 'lucide-react';
import type { Key } from 'react-aria-components';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { Action } from '../../actions/registry';
import { actionTitle, useActions } from '../../actions/use-actions';
import { call } from '../../api/client';
import { useAppContext } from '../../app/configuration/app-context';
import { confirmLeaving, navigate } from '../../app/router/navigation';
import { showToast } from '../../components/toast/toast';
import { LOGO_TARGET } from './logo';

export const PROFILE_PATH = '/user/profile/';
export const CONTACTS_PATH = '/user/contacts/';
export const ADMIN_PATH = '/admin/';

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

  // Spec 2.2's three entries, as actions: the menu and the command palette list the same ones.
  const actions: Action[] = [
    { id: 'user.profile', scope: 'app', title: 'header.profile', run: () => navigate(PROFILE_PATH) },
    { id: 'user.contacts', scope: 'app', title: 'header.contacts', run: () => navigate(CONTACTS_PATH) },
    // Staff also reach the administration from here (issue 22); other users never see it.
    ...(user.is_staff
      ? [
          {
            id: 'user.admin',
            scope: 'app',
            title: 'title',
            ns: 'admin',
            run: () => navigate(ADMIN_PATH),
          } as const,
        ]
      : []),
    { id: 'user.logout', scope: 'app', title: 'header.logout', run: () => void logOut() },
  ];
  useActions(actions);

  function onAction(key: Key) {
    actions.find((action) => action.id === key)?.run();
  }

  return (
    <MenuTrigger>
      <Button className="user-menu-button" data-header-item="">
        <Avatar user={user} />
        <span className="user-menu-name">{user.name || user.username}</span>
        <ChevronDown className="user-menu-caret" aria-hidden="true" />
      </Button>
      <Popover placement="bottom end" className="header-menu-popover">
        <Menu className="header-menu" onAction={onAction}>
          {actions.map((action) => (
            <MenuItem key={action.id} id={action.id} className="header-menu-item">
              {actionTitle(action, t)}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
