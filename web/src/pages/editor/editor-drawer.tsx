import { ChevronDown, Menu as MenuIcon, X } from 'lucide-react';
import { type ReactNode, useCallback, useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { EDITOR_ACTIONS, type EditorActionSpec, MENUS, type MenuId } from './editor-actions';
import { EditorMenuItems, type MenuProps, visible } from './editor-menus';

/**
 * The menu bar on a phone: one button opens a drawer with `children` (the way back, who is here)
 * and the menus (File, Edit, ...), each opened in place. Choosing an item closes the drawer.
 */
export function EditorMenuDrawer({
  view,
  canWrite,
  run,
  may,
  children,
}: MenuProps & { children?: ReactNode }) {
  const { t } = useTranslation(['editor', 'components']);
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState<MenuId | null>(null);
  // A menu item closes the drawer as it is chosen (react-aria's menu closes its overlay); the
  // action runs after react-aria has given the focus back to the drawer's button (in the frame
  // after closing), so that the action can move it on.
  const choose = useCallback(
    (action: EditorActionSpec) => {
      setOpen(false);
      requestAnimationFrame(() => setTimeout(() => run(action), 0));
    },
    [run],
  );
  const label = t('compact.menus');
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setExpanded(null);
      }}
    >
      <Button className="editor-tool editor-drawer-button" aria-label={label}>
        <MenuIcon aria-hidden="true" size={20} />
      </Button>
      <ModalOverlay isDismissable className="editor-drawer-overlay">
        <Modal className="editor-drawer">
          <Dialog className="editor-drawer-dialog" aria-label={label}>
            <div className="editor-drawer-header">
              <Heading slot="title" className="editor-drawer-title">
                {label}
              </Heading>
              <Button
                className="editor-tool"
                aria-label={t('close', { ns: 'components' })}
                onPress={() => setOpen(false)}
              >
                <X aria-hidden="true" size={20} />
              </Button>
            </div>
            {children}
            <ul className="editor-drawer-menus">
              {MENUS.map((menu) => {
                const actions = EDITOR_ACTIONS.filter(
                  (action) => action.menu === menu && (may ? may(action) : visible(action, canWrite)),
                );
                if (!actions.length) return null;
                const name = t(`menu.${menu}`);
                const isOpen = expanded === menu;
                return (
                  <li key={menu}>
                    <Button
                      className="editor-drawer-section"
                      aria-expanded={isOpen}
                      onPress={() => setExpanded(isOpen ? null : menu)}
                    >
                      <span>{name}</span>
                      <ChevronDown aria-hidden="true" size={18} />
                    </Button>
                    {isOpen ? (
                      <EditorMenuItems label={name} actions={actions} view={view} run={choose} />
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
