import type { AdminPresenceUser } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { SYSTEM_MESSAGE_MAX_LENGTH } from '@scriptorium/common/ws/messages';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { Column } from '../../components/data-table/data-table';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { Form } from '../../components/form/form';
import { showToast } from '../../components/toast/toast';
import { FormErrorList, useAdminSubmit } from './admin-form';
import { AdminTable } from './admin-table';
import { useAdminQuery } from './use-admin-query';

/** /admin/messages/: a system message to everyone connected, and who is connected now. */
export function MessagesSection() {
  const { t } = useTranslation('admin');
  const { t: tws } = useTranslation('ws');
  const messageId = useId();
  const [message, setMessage] = useState('');
  const [preview, setPreview] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { busy, fields, general, submit } = useAdminSubmit();
  const load = useCallback(() => call(adminApi.presence), []);
  const { data, loading, reload } = useAdminQuery(load, t('messages.presenceError'));

  const send = async () => {
    const ok = await submit(async () => {
      const { processes } = await call(adminApi.sendSystemMessage, { message });
      showToast(t('messages.sent', { count: processes }), 'success');
      setMessage('');
      setPreview(false);
    });
    if (!ok) throw new Error('not sent');
  };

  const columns: Column<AdminPresenceUser>[] = [
    { id: 'username', header: t('users.columns.username'), cell: (user) => user.username },
    { id: 'name', header: t('users.columns.name'), className: 'admin-col-minor', cell: (user) => user.name },
    {
      id: 'sockets',
      header: t('messages.connections'),
      className: 'admin-col-number',
      cell: (user) => user.sockets,
    },
    {
      id: 'documents',
      header: t('messages.openDocuments'),
      cell: (user) =>
        user.documents.length ? (
          <ul className="plain-list">
            {user.documents.map((document) => (
              <li key={document.id}>
                <a href={`/document/${document.id}/`}>{document.title || t('messages.untitled')}</a>
              </li>
            ))}
          </ul>
        ) : (
          t('messages.noDocuments')
        ),
    },
  ];

  const trimmed = message.trim();
  return (
    <>
      <h2>{t('sections.messages')}</h2>
      <Form
        className="form admin-editor"
        onSubmit={() => {
          if (trimmed) setConfirming(true);
        }}
      >
        <FormErrorList errors={general} />
        <div className="form-field">
          <label htmlFor={messageId}>{t('messages.message')}</label>
          <textarea
            id={messageId}
            rows={4}
            value={message}
            maxLength={SYSTEM_MESSAGE_MAX_LENGTH}
            aria-invalid={(fields.message?.length ?? 0) > 0}
            onChange={(event) => setMessage(event.target.value)}
          />
          <p className="admin-hint">{t('messages.hint')}</p>
        </div>
        <div className="form-actions">
          <button type="button" className="button" disabled={!trimmed} onClick={() => setPreview(true)}>
            {t('messages.preview')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy || !trimmed}>
            {t('messages.send')}
          </button>
        </div>
        {preview && trimmed ? (
          <section className="admin-preview-box" aria-label={t('messages.previewLabel')}>
            <h3>{tws('systemMessageTitle')}</h3>
            <p className="system-message-text">{trimmed}</p>
          </section>
        ) : null}
      </Form>
      {confirming ? (
        <ConfirmDialog
          title={t('messages.confirmTitle')}
          message={t('messages.confirmQuestion', { count: data?.users.length ?? 0 })}
          confirmLabel={t('messages.send')}
          onClose={() => setConfirming(false)}
          onConfirm={send}
        />
      ) : null}

      <h2>{t('messages.connected')}</h2>
      <div className="admin-toolbar">
        <p className="admin-summary" aria-live="polite">
          {data
            ? t('messages.summary', {
                users: data.users.length,
                sockets: data.sockets,
                processes: data.processes,
              })
            : null}
        </p>
        <button type="button" className="button" onClick={() => void reload()}>
          {t('messages.refresh')}
        </button>
      </div>
      <AdminTable
        rows={data?.users ?? []}
        columns={columns}
        label={t('messages.connected')}
        loading={loading}
        empty={t('messages.nobody')}
      />
    </>
  );
}
