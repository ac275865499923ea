import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { displayTitle, folderName, folderOf, folderUrl } from '@scriptorium/common/rules/paths';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { usePageTitle } from '../../app/page-title';
import type { SocketFactory } from '../../ws/connector';
import { fetchDocument } from '../documents/documents-api';
import { DocumentEditor } from './document-editor';

export interface EditorPageProps {
  /** The document id: the last segment of /document/{path...}/{id}. */
  id: string;
  /** The folder path made of the other segments, e.g. "/" or "/thesis/". */
  path: string;
  /** Tests hand in fake sockets. */
  createSocket?: SocketFactory;
}

type State =
  | { status: 'loading' }
  | { status: 'ready'; document: DocumentEntry }
  | { status: 'missing' | 'failed' };

/**
 * /document/{path}/{id}: asks the API whether the document is there for this user (so that a
 * missing one says so at once), then opens the live editor on its websocket.
 */
export function EditorPage({ id, createSocket }: EditorPageProps) {
  const { t } = useTranslation('documents');
  const { t: tEditor } = useTranslation('editor');
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
  if (state.status === 'ready')
    return <DocumentEditor document={state.document} createSocket={createSocket} />;

  const folder = '/';
  return (
    <section className="page editor-placeholder" aria-labelledby="page-heading">
      <h1 id="page-heading">{title}</h1>
      {state.status === 'loading' ? <p>{tEditor('status.loading')}</p> : null}
      {state.status === 'missing' ? <p role="alert">{tEditor('status.missing')}</p> : null}
      {state.status === 'failed' ? <p role="alert">{tEditor('status.failed')}</p> : null}
      <p>
        <a href={folderUrl(folder)}>
          {t('editor.back', { folder: folder === '/' ? t('allDocuments') : folderName(folderOf(folder)) })}
        </a>
      </p>
    </section>
  );
}
