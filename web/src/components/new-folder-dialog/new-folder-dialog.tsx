import { newFolderName } from '@scriptorium/common/rules/paths';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../dialog/dialog';
import './new-folder-dialog.css';

/** Spec sections 2.7 and 9: the new folder dialog is 400 by 150. */
export const NEW_FOLDER_DIALOG_WIDTH = 400;
export const NEW_FOLDER_DIALOG_HEIGHT = 150;

export interface NewFolderDialogProps {
  /** Called with the cleaned name (slashes stripped); an empty name closes without a call. */
  onCreate(name: string): void;
  onClose(): void;
}

/** Asks for a folder name (spec 5, New folder: empty names are ignored, slashes are stripped). */
export function NewFolderDialog({ onCreate, onClose }: NewFolderDialogProps) {
  const { t } = useTranslation('documents');
  const [name, setName] = useState('');
  const inputId = useId();
  const formId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cleaned = newFolderName(name);
    onClose();
    if (cleaned !== null) onCreate(cleaned);
  };

  return (
    <Dialog
      title={t('newFolderDialog.title')}
      onClose={onClose}
      width={NEW_FOLDER_DIALOG_WIDTH}
      height={NEW_FOLDER_DIALOG_HEIGHT}
      buttons={
        <>
          <button type="submit" form={formId} className="button button-primary">
            {t('newFolderDialog.create')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </>
      }
    >
      <form id={formId} className="new-folder-form" onSubmit={submit}>
        <label htmlFor={inputId} className="visually-hidden">
          {t('newFolderDialog.name')}
        </label>
        <input
          id={inputId}
          type="text"
          className="new-folder-input"
          placeholder={t('newFolderDialog.name')}
          value={name}
          autoFocus
          onChange={(event) => setName(event.target.value)}
        />
      </form>
    </Dialog>
  );
}
