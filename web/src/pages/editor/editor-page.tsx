import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { displayTitle, documentUrl, folderName, folderOf, folderUrl } from '@scriptorium/common/rules/paths';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useCurrentUser } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { navigate } from '../../app/router/navigation';
import { useOnline } from '../../components/online/use-online';
import { Page } from '../../components/page/page';
import { creationsOf } from '../../offline/document-queue';
import { isTemporaryId, pendingEntry, syncCreation } from '../../offline/offline-documents';
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
  | { status: 'missing' | 'failed' }
  /** A document created offline is being created on the server (issue 20). */
  | { status: 'creating'; document: DocumentEntry };

/** Pauses between tries while the closing editor still holds the document's queue. */
const CREATE_RETRY_MS = 100;

/**
 * /document/{path}/{id}: asks the API whether the document is there for this user (so that a
 * missing one says so at once), then opens the live editor on its websocket.
 */
export function EditorPage({ id, createSocket }: EditorPageProps) {
  const { t } = useTranslation('documents');
  const { t: tEditor } = useTranslation('editor');
  const [state, setState] = useState<State>({ status: 'loading' });
  const numericId = /^-?\d+$/.test(id) ? Number(id) : null;
  const online = useOnline();
  const username = useCurrentUser()?.username;

  useEffect(() => {
    if (numericId === null) {
      setState({ status: 'missing' });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    const load =
      isTemporaryId(numericId) && username
        ? pendingEntry(username, numericId).then((entry) => {
            if (!entry) throw new ApiError(404, 'Not Found', null);
            return entry;
          })
        : fetchDocument(numericId);
    load
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
  }, [numericId, username]);

  // Back online with a document created offline: the editor lets go of it (its last state is
  // written to the queue), then it is created on the server and the page moves to its real id.
  const temporary =
    (state.status === 'ready' || state.status === 'creating') && isTemporaryId(state.document.id)
      ? state.document
      : null;
  const temporaryRef = useRef(temporary);
  temporaryRef.current = temporary;
  const temporaryId = temporary?.id ?? null;
  useEffect(() => {
    const document = temporaryRef.current;
    if (!online || temporaryId === null || document?.id !== temporaryId || !username) return;
    let live = true;
    setState({ status: 'creating', document });
    void (async () => {
      const creation = (await creationsOf(username)).find((item) => item.tempId === document.id);
      if (!creation) {
        // Another tab created it meanwhile.
        if (live) setState({ status: 'missing' });
        return;
      }
      for (;;) {
        try {
          const created = await syncCreation(creation);
          if (created) {
            navigate(documentUrl(created.path, created.id), { replace: true, force: true });
            return;
          }
        } catch {
          // The server is not reachable after all: edit on, and try again when online.
          if (live) setState({ status: 'ready', document });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, CREATE_RETRY_MS));
        if (!live) return;
      }
    })();
    return () => {
      live = false;
    };
  }, [online, temporaryId, username]);

  const title =
    state.status === 'ready' || state.status === 'creating'
      ? displayTitle(state.document.title, t('untitled'))
      : t('editor.title');
  usePageTitle(title);
  if (state.status === 'ready')
    return <DocumentEditor document={state.document} createSocket={createSocket} />;

  const folder = '/';
  return (
    <Page heading={title} className="editor-placeholder">
      {state.status === 'loading' ? <p>{tEditor('status.loading')}</p> : null}
      {state.status === 'creating' ? <p role="status">{tEditor('status.creating')}</p> : null}
      {state.status === 'missing' ? <p role="alert">{tEditor('status.missing')}</p> : null}
      {state.status === 'failed' ? <p role="alert">{tEditor('status.failed')}</p> : null}
      <p>
        <a href={folderUrl(folder)}>
          {t('editor.back', { folder: folder === '/' ? t('allDocuments') : folderName(folderOf(folder)) })}
        </a>
      </p>
    </Page>
  );
}
