import { X } from 'lucide-react';
import {
  type CSSProperties,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Heading, Modal, Dialog as ModalDialog, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Form } from '../form/form';
import { showToast } from '../toast/toast-emitter';
import { nextDialogLayer, takeDialogLayer } from './dialog-layers';
import { useFocusOpenerAtClose, useFocusReturn, useOpener } from './focus-return';
import './dialog.css';
import { IconButton } from '../button/icon-button';

export interface DialogProps {
  title: string;
  onClose(): void;
  /** Width in px on a desktop (spec section 9 gives e.g. 350 for add contact); text wraps inside. */
  width?: number;
  /** Height in px on a desktop: a minimum, content that needs more grows the dialog. */
  height?: number;
  children: ReactNode;
  /** The action buttons, shown in the dialog's footer. */
  buttons?: ReactNode;
  /** Instead of `buttons`: the dialog's command, and Cancel that closes the dialog. */
  command?: DialogCommand;
}

/** A dialog's size, e.g. one the spec gives, spread into the dialog's props. */
export type DialogSize = Pick<DialogProps, 'width' | 'height'>;

/** A dialog's command (see DialogButtons); its Cancel is the dialog's close. */
export type DialogCommand = Omit<DialogButtonsProps, 'onCancel'>;

/**
 * A body that scrolls must be reachable by keyboard (WCAG 2.1.1, axe's scrollable-region-focusable)
 * when nothing inside it takes the focus (e.g. the editor's shortcut table): it becomes a Tab stop
 * only while its content is taller than it.
 */
function useFocusableWhenScrolling(ref: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const body = ref.current;
    if (!body || typeof ResizeObserver === 'undefined') return;
    const update = () => {
      if (body.scrollHeight > body.clientHeight + 1) body.tabIndex = 0;
      else body.removeAttribute('tabindex');
    };
    const resize = new ResizeObserver(update);
    const observeChildren = () => {
      resize.disconnect();
      resize.observe(body);
      for (const child of Array.from(body.children)) resize.observe(child);
    };
    observeChildren();
    const mutation = new MutationObserver(observeChildren);
    mutation.observe(body, { childList: true });
    return () => {
      resize.disconnect();
      mutation.disconnect();
    };
  }, [ref]);
}

/**
 * A modal dialog: react-aria traps focus inside, returns it to where it was on close, hides the
 * rest of the page from assistive technology and closes on Escape (only the topmost dialog).
 */
export function Dialog({ title, onClose, width, height, children, buttons, command }: DialogProps) {
  const { t } = useTranslation('components');
  // Custom properties rather than width/height: dialog.css turns them into a default that never
  // clips (and into full screen on a phone).
  const size = {
    '--dialog-width': width === undefined ? undefined : `${width}px`,
    '--dialog-height': height === undefined ? undefined : `${height}px`,
  } as CSSProperties;
  const [layer] = useState(nextDialogLayer);
  useLayoutEffect(() => takeDialogLayer(layer), [layer]);
  const opener = useOpener();
  useFocusReturn(opener);
  const body = useRef<HTMLDivElement>(null);
  useFocusableWhenScrolling(body);

  return (
    <ModalOverlay
      isOpen
      isKeyboardDismissDisabled={false}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="dialog-overlay"
      style={{ zIndex: layer }}
      data-layer={layer}
    >
      <Modal className="dialog-modal" style={size}>
        <ModalDialog className="dialog">
          <header className="dialog-header">
            <Heading slot="title" className="dialog-title">
              {title}
            </Heading>
            <IconButton label={t('close')} icon={X} onPress={onClose} className="dialog-close" />
          </header>
          <div ref={body} className="dialog-body">
            {children}
          </div>
          <FocusOpenerAtClose opener={opener} dialog={body} />
          {buttons || command ? (
            <footer className="dialog-buttons">
              {command ? <DialogButtons {...command} onCancel={onClose} /> : buttons}
            </footer>
          ) : null}
        </ModalDialog>
      </Modal>
    </ModalOverlay>
  );
}

/** Inside react-aria's focus scope, so that its clean-up runs once the scope no longer holds the focus. */
function FocusOpenerAtClose({
  opener,
  dialog,
}: {
  opener: HTMLElement | null;
  dialog: RefObject<HTMLDivElement | null>;
}) {
  useFocusOpenerAtClose(opener, dialog);
  return null;
}

export interface DialogButtonsProps {
  /** The label of the dialog's command (Save, Delete, ...). */
  label: string;
  /** Omitted when the command submits the dialog's form (see `form`). */
  onAction?(): void;
  /** The id of the form the command submits: Enter in a field and the button do the same. */
  form?: string;
  onCancel(): void;
  busy?: boolean;
  /** Not available at all (e.g. nothing loaded to save yet), unlike busy. */
  disabled?: boolean;
  tone?: 'primary' | 'danger';
}

/**
 * A dialog's footer: its command and Cancel. While busy the command is aria-disabled rather than
 * disabled, so that the focus stays on it (a disabled button drops the focus out of the dialog).
 */
export function DialogButtons({
  label,
  onAction,
  form,
  onCancel,
  busy = false,
  disabled,
  tone = 'primary',
}: DialogButtonsProps) {
  const { t } = useTranslation('components');
  return (
    <>
      <button
        type={form ? 'submit' : 'button'}
        form={form}
        className={`button button-${tone}`}
        disabled={disabled}
        aria-disabled={busy || undefined}
        onClick={(event) => {
          if (busy) event.preventDefault();
          else onAction?.();
        }}
      >
        {label}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        {t('cancel')}
      </button>
    </>
  );
}

export interface FormDialogProps extends Omit<DialogProps, 'buttons'> {
  /** The label of the command that submits the form. */
  submitLabel: string;
  /** Runs on the command and on Enter in a field; not while busy. */
  onSubmit(): void | Promise<void>;
  busy?: boolean;
  /** The command is not available (e.g. offline), unlike busy. */
  disabled?: boolean;
  tone?: 'primary' | 'danger';
  /** Classes of the form (default "form": fields stacked). */
  formClassName?: string;
}

/** A dialog around one form: fields in the body, the command and Cancel in the footer. */
export function FormDialog({
  submitLabel,
  onSubmit,
  busy = false,
  disabled,
  tone,
  formClassName = 'form',
  children,
  ...dialog
}: FormDialogProps) {
  const formId = useId();
  return (
    <Dialog {...dialog} command={{ label: submitLabel, form: formId, busy, disabled, tone }}>
      <Form
        id={formId}
        className={formClassName}
        noValidate
        onSubmit={() => {
          if (!busy && !disabled) void onSubmit();
        }}
      >
        {children}
      </Form>
    </Dialog>
  );
}

/**
 * A dialog's command that takes a while (a confirmation, a share dialog's Save): busy while `run`
 * runs, then the dialog closes. If it fails the dialog stays open with the command offered again;
 * the failure is toasted when `texts` give one (otherwise `run` reports it), success likewise.
 */
export function useClosingCommand(
  run: () => unknown,
  onClose: () => void,
  texts: { done?: string; failed?: string } = {},
): Required<Pick<DialogCommand, 'busy' | 'onAction'>> {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      await run();
    } catch {
      if (texts.failed) showToast(texts.failed, 'error');
      setBusy(false);
      return;
    }
    if (texts.done) showToast(texts.done, 'success');
    onClose();
  };
  return { busy, onAction: () => void start() };
}

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  /** May return a promise: the dialog waits for it and stays open (buttons enabled again) if it fails. */
  onConfirm(): void | Promise<void>;
  onClose(): void;
  width?: number;
  height?: number;
}

/** A yes/no question such as 'Delete ... ?'; confirming runs onConfirm and then closes. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
  width,
  height,
}: ConfirmDialogProps) {
  const command = useClosingCommand(onConfirm, onClose);

  return (
    <Dialog
      title={title}
      onClose={onClose}
      width={width}
      height={height}
      command={{ label: confirmLabel, ...command }}
    >
      <p className="dialog-message">{message}</p>
    </Dialog>
  );
}

/**
 * An overview's question before deleting rows: the texts come from the page's namespace
 * (`confirmDeleteTitle`, `confirmDeleteText` with the count, `delete`).
 */
export function ConfirmDeleteDialog({
  namespace,
  ids,
  onConfirm,
  onClose,
}: {
  namespace: 'bibliography' | 'usermedia';
  ids: number[];
  onConfirm(ids: number[]): void | Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation(namespace);
  return (
    <ConfirmDialog
      title={t('confirmDeleteTitle')}
      message={t('confirmDeleteText', { count: ids.length })}
      confirmLabel={t('delete')}
      onConfirm={() => onConfirm(ids)}
      onClose={onClose}
    />
  );
}
