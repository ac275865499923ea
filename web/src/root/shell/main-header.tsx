import type { AuthenticatedUser } from '@scriptorium/common/api/base';
import { Menu as MenuIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button, Keyboard, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { bindingLabel } from '../../actions/key-binding';
import type { Action } from '../../actions/registry';
import { actionAttributes, actionTitle, useActions } from '../../actions/use-actions';
import type { RoutePage } from '../../app/router/routes';
import type { HeaderItem } from '../../plugins/plugin';
import { headerActions } from './header-actions';
import { Logo } from './logo';
import { UserMenu } from './user-menu';

/** Left and right arrow keys move between the header's items, like in a menu bar. */
function moveFocus(header: HTMLElement, event: KeyboardEvent) {
  const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
  // Only the items on screen: on a phone the links hide behind the menu button.
  const items = Array.from(header.querySelectorAll<HTMLElement>('[data-header-item]')).filter(
    (item) => typeof item.checkVisibility !== 'function' || item.checkVisibility(),
  );
  const index = items.indexOf(document.activeElement as HTMLElement);
  if (index < 0) return;
  event.preventDefault();
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? items.length - 1
        : (index + (event.key === 'ArrowRight' ? 1 : -1) + items.length) % items.length;
  items[next].focus();
}

/**
 * The header's links on a phone (<= 640 px, shown by CSS): one menu button with every item and
 * its shortcut, drawn from the same actions as the links.
 */
function PhoneNavMenu({
  items,
  actions,
  page,
}: {
  items: readonly HeaderItem[];
  actions: Action[];
  page: RoutePage;
}) {
  const { t } = useTranslation('web');
  return (
    <MenuTrigger>
      <Button className="icon-button phone-nav-button" aria-label={t('header.menu')}>
        <MenuIcon aria-hidden="true" />
      </Button>
      <Popover placement="bottom start" className="header-menu-popover">
        <Menu className="header-menu" onAction={(key) => actions.find((action) => action.id === key)?.run()}>
          {items.map((item, index) => {
            const action = actions[index];
            return (
              <MenuItem
                key={action.id}
                id={action.id}
                className="header-menu-item phone-nav-item"
                textValue={actionTitle(action, t)}
                aria-current={item.pages.includes(page) ? 'page' : undefined}
                aria-keyshortcuts={actionAttributes(action, t)['aria-keyshortcuts']}
              >
                <span>{actionTitle(action, t)}</span>
                {action.keys && <Keyboard className="phone-nav-keys">{bindingLabel(action.keys)}</Keyboard>}
              </MenuItem>
            );
          })}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

interface MainHeaderProps {
  user: AuthenticatedUser;
  items: readonly HeaderItem[];
  page: RoutePage;
}

/** Spec 2.2: the header of logged-in users. */
export function MainHeader({ user, items, page }: MainHeaderProps) {
  const { t } = useTranslation('web');
  const header = useRef<HTMLElement>(null);
  // The links and the Alt shortcuts are drawn from the same actions.
  const actions = headerActions(items);
  useActions(actions);
  // A native listener: React would also bubble key events from the user menu's portal up to here.
  useEffect(() => {
    const element = header.current;
    if (!element) return;
    const onKeyDown = (event: KeyboardEvent) => moveFocus(element, event);
    element.addEventListener('keydown', onKeyDown);
    return () => element.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <header ref={header} className="app-header">
      <Logo />
      <PhoneNavMenu items={items} actions={actions} page={page} />
      <nav className="main-nav" aria-label={t('header.navigation')}>
        <ul>
          {items.map((item, index) => {
            const action = actions[index];
            const { 'aria-keyshortcuts': keys, title } = actionAttributes(action, t);
            return (
              <li key={item.id}>
                <a
                  href={item.path}
                  data-header-item=""
                  aria-current={item.pages.includes(page) ? 'page' : undefined}
                  aria-keyshortcuts={keys}
                  title={title}
                >
                  {actionTitle(action, t)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="app-header-user">
        <UserMenu user={user} />
      </div>
    </header>
  );
}
