import type { doneResponse } from '@scriptorium/common/api/documents';
import type { Endpoint } from '@scriptorium/common/api/endpoint';
import {
  addFolder,
  folderName,
  folderOf,
  foldersOf,
  movedPath,
  subfolders,
} from '@scriptorium/common/rules/paths';
import { Folder } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call } from '../../api/client';
import { type DialogSize, FormDialog } from '../dialog/dialog';
import { NewFolderDialog } from '../new-folder-dialog/new-folder-dialog';
import { showToast } from '../toast/toast-emitter';
import './move-dialog.css';
import { LabelledInput } from '../form/labelled-input';

/** Spec sections 2.7 and 9: the move dialog is 820 by 440. */
export const MOVE_DIALOG_SIZE: DialogSize = { width: 820, height: 440 };

/** How many move calls run at once: enough to move hundreds quickly, few enough to be polite. */
const PARALLEL_MOVES = 6;

/** A file or document entry for moving (spec 3): id, title, path. */
export interface MoveFile {
  id: number;
  title: string;
  path: string;
  /** For a document inside a moved folder: its path below the folder's parent ('b/c/'). */
  keep?: string;
}

/** Any endpoint that moves one file: {id, path} in, {done: true} out (its schemas zod or zod/mini). */
export type MoveEndpoint = Endpoint<
  string,
  z.core.$ZodType<unknown, { id: unknown; path: string }>,
  typeof doneResponse
>;

export interface MoveDialogProps {
  files: MoveFile[];
  /** Known folders (paths like '/a/b/'), shown in the tree together with those of `files`. */
  folders: string[];
  /** The generic move call (spec 7): {id, path} goes to this endpoint, `done` is expected. */
  endpoint: MoveEndpoint;
  /** The caller's failure message; the error toast adds the file name (spec 8). */
  errorMessage: string;
  /** The success toast (spec 8). */
  successMessage: string;
  /** The translated 'Untitled' for files without a title. */
  untitled: string;
  /** Where the path box starts when several files move (the folder being shown). */
  initialFolder?: string;
  onClose(): void;
  /** After the calls: the files that moved, with their new paths. */
  onMoved?(moved: { id: number; path: string }[]): void;
}

async function runLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Moves files to a path typed or picked in the folder tree (spec 2.7 and 5, Move). */
export function MoveDialog(props: MoveDialogProps) {
  const { files, endpoint, errorMessage, successMessage, untitled, onClose, onMoved } = props;
  const { t } = useTranslation('documents');
  const several = files.length > 1 || files.some((file) => file.keep !== undefined);
  const single = files.length === 1 && !several ? files[0] : null;
  const [path, setPath] = useState(single ? single.path : (props.initialFolder ?? '/'));
  const [selected, setSelected] = useState(single ? folderOf(single.path) : (props.initialFolder ?? '/'));
  const [added, setAdded] = useState<string[]>([]);
  const [askFolder, setAskFolder] = useState(false);
  const [busy, setBusy] = useState(false);

  const allFolders = useMemo(
    () => foldersOf([...props.folders, ...files.map((file) => file.path), ...added]),
    [props.folders, files, added],
  );

  const pick = (folder: string) => {
    setSelected(folder);
    setPath(folder);
  };

  const createFolder = (name: string) => {
    const result = addFolder(allFolders, selected, name);
    if (result.path === null) return;
    if (!allFolders.includes(result.path)) setAdded((list) => [...list, result.path as string]);
    pick(result.path);
  };

  const submit = async () => {
    const moves = files.flatMap((file) => {
      const target = movedPath(file, path, { several, untitled });
      return target === null ? [] : [{ file, path: target }];
    });
    // Spec 5: nothing happens when the path is unchanged.
    if (moves.length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    const moved: { id: number; path: string }[] = [];
    await runLimited(moves, PARALLEL_MOVES, async (move) => {
      try {
        await call(endpoint, { id: move.file.id, path: move.path });
        moved.push({ id: move.file.id, path: move.path });
      } catch {
        const name = move.file.title.trim() || untitled;
        showToast(t('moveDialog.failed', { message: errorMessage, file: name }), 'error');
      }
    });
    if (moved.length > 0) showToast(successMessage, 'success');
    onMoved?.(moved);
    onClose();
  };

  const renderFolder = (folder: string, depth: number) => {
    const children = subfolders(allFolders, folder);
    const isSelected = folder === selected;
    return (
      <li key={folder}>
        <button
          type="button"
          className={isSelected ? 'move-tree-folder move-tree-folder-selected' : 'move-tree-folder'}
          style={{ paddingInlineStart: `${0.5 + depth * 1.1}rem` }}
          aria-pressed={isSelected}
          onClick={() => pick(folder)}
        >
          <Folder aria-hidden="true" />
          {folder === '/' ? t('allDocuments') : folderName(folder)}
        </button>
        {children.length > 0 ? <ul>{children.map((child) => renderFolder(child, depth + 1))}</ul> : null}
      </li>
    );
  };

  return (
    <>
      <FormDialog
        title={t('moveDialog.title')}
        onClose={onClose}
        {...MOVE_DIALOG_SIZE}
        submitLabel={t('moveDialog.move')}
        onSubmit={submit}
        busy={busy}
        formClassName="move-dialog"
      >
        <LabelledInput
          className="wrap-row move-dialog-path"
          label={t('moveDialog.path')}
          value={path}
          autoFocus
          onChange={setPath}
        />
        <div className="move-dialog-tree-bar">
          <span>{t('moveDialog.folders')}</span>
          <button type="button" className="button" onClick={() => setAskFolder(true)}>
            {t('newFolder')}
          </button>
        </div>
        <ul className="move-tree" aria-label={t('moveDialog.folders')}>
          {renderFolder('/', 0)}
        </ul>
      </FormDialog>
      {askFolder ? <NewFolderDialog onCreate={createFolder} onClose={() => setAskFolder(false)} /> : null}
    </>
  );
}
