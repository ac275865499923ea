import { newFolderName } from '@scriptorium/common/rules/paths';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DialogSize, FormDialog } from '../dialog/dialog';
import './new-folder-dialog.css';

/** Spec sections 2.7 and 9: the new folder dialog is 400 by 150. */
export const NEW_FOLDER_DIALOG_SIZE: DialogSize = { width: 400, height: 150 };

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

  const submit = () => {
    const cleaned = newFolderName(name);
    onClose();
    if (cleaned !== null) onCreate(cleaned);
  };

  return (
    <FormDialog
      title={t('newFolderDialog.title')}
      onClose={onClose}
      {...NEW_FOLDER_DIALOG_SIZE}
      submitLabel={t('newFolderDialog.create')}
      onSubmit={submit}
      formClassName="new-folder-form"
    >
      <label htmlFor={inputId} className="visually-hidden">
        {t('newFolderDialog.name')}
      </label>
      <input
        id={inputId}
        type="text"
        className="new-folder-input"
        placeholder={t('newFolderDialog.name')}
        value={name}
        // biome-ignore lint/a11y/noAutofocus: a modal dialog's field (Biome exempts <dialog>, not FormDialog); the dialog would focus its close button first, typing is what the user came for.
        autoFocus
        onChange={(event) => setName(event.target.value)}
      />
    </FormDialog>
  );
}
