import type { Command } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, FormDialog, type FormDialogProps } from '../../../../components/dialog/dialog';

/** Runs the command on the editor and closes the dialog (which gives the text the focus back). */
export function applyAndClose(view: EditorView, onClose: () => void, command: Command) {
  command(view.state, view.dispatch);
  onClose();
}

/** A dialog around the form of something the editor inserts, or updates when it is selected. */
export function InsertDialog({
  updating,
  formClassName,
  ...dialog
}: Omit<FormDialogProps, 'submitLabel'> & { updating: boolean; formClassName: string }) {
  const { t } = useTranslation('editor');
  return (
    <FormDialog
      {...dialog}
      submitLabel={updating ? t('academic.update') : t('academic.insert')}
      formClassName={`editor-form ${formClassName}`}
    />
  );
}

/** A dialog listing things to pick, one button each (or the `empty` text when there are none). */
export function PickDialog({
  title,
  onClose,
  width,
  items,
  className,
  empty,
  header,
}: {
  title: string;
  onClose(): void;
  width: number;
  items: { key: string; content: ReactNode; pick(): void }[];
  className: string;
  empty: string;
  /** Shown above the list (choices that apply to the pick). */
  header?: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={onClose} width={width}>
      {items.length ? header : null}
      {items.length ? (
        <ul className="academic-targets">
          {items.map((item) => (
            <li key={item.key}>
              <button type="button" className={`button ${className}`} onClick={item.pick}>
                {item.content}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>{empty}</p>
      )}
    </Dialog>
  );
}

export interface DialogProps {
  view: EditorView;
  onClose(): void;
}
