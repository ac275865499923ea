import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { displayTitle, folderName, folderOf, folderUrl } from '@scriptorium/common/rules/paths';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { usePageTitle } from '../../app/page-title';
import { fetchDocument } from '../documents/documents-api';

export interface EditorPageProps {
  /** The document id: the last segment of /document/{path...}/{id}. */
  id: string;
  /** The folder path made of the other segments, e.g. "/" or "/thesis/". */
  path: string;
}

type State =
  | { status: 'loading' }
  | { status: 'ready'; document: DocumentEntry }
  | { status: 'missing' | 'failed' };

/** Until the editor issue lands: the document's title and a note that the editor comes next. */
export function EditorPage({ id }: EditorPageProps) {
  const { t } = useTranslation('documents');
  const [state, setState] = useState<State>({ status: 'loading' });
  const numericId = /^\d+$/.test(id) ? Number(id) : null;

  useEffect(() => {
    if (numericId === null) {
      setState({ status: 'missing' });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    fetchDocument(numericId)
      .then((document) => {
        if (live) setState({ status: 'ready', document });
      })
      .catch((error: unknown) => {
        if (live)
          setState({ status: error instanceof ApiError && error.status === 404 ? 'missing' : 'failed' });
      });
    return () => {
      live = false;
    };
  }, [numericId]);

  const title =
    state.status === 'ready' ? displayTitle(state.document.title, t('untitled')) : t('editor.title');
  usePageTitle(title);
  const folder = state.status === 'ready' ? folderOf(state.document.path) : '/';

  return (
    <section className="page editor-placeholder" aria-labelledby="page-heading">
      <h1 id="page-heading">{title}</h1>
      {state.status === 'loading' ? <p>{t('loading')}</p> : null}
      {state.status === 'ready' ? <p>{t('editor.note')}</p> : null}
      {state.status === 'missing' ? <p role="alert">{t('editor.missing')}</p> : null}
      {state.status === 'failed' ? <p role="alert">{t('editor.failed')}</p> : null}
      <p>
        <a href={folderUrl(folder)}>
          {t('editor.back', { folder: folder === '/' ? t('allDocuments') : folderName(folder) })}
        </a>
      </p>
    </section>
  );
}
