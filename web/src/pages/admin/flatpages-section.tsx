import type { AdminFlatpage } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useUnsavedChanges } from '../../app/router/hooks';
import type { Column } from '../../components/data-table/data-table';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { Form } from '../../components/form/form';
import { LabelledInput } from '../../components/form/labelled-input';
import { showToast } from '../../components/toast/toast';
import { sanitizeHtml } from '../flatpage/sanitize-html';
import { FormErrorList, useAdminSubmit } from './admin-form';
import { AdminTable } from './admin-table';
import { useAdminQuery } from './use-admin-query';

/** Where a page is read: /terms/ and /privacy/ as they are, any other page under /pages/. */
export function flatpageAddress(url: string): string {
  return url === '/terms/' || url === '/privacy/' ? url : `/pages${url}`;
}

/** Linked from every footer: the server refuses to delete them, so no button offers it. */
const KEPT_PAGES = new Set(['/terms/', '/privacy/']);

const NEW_PAGE = { id: 0, url: '', title: '', content: '', seeded: false };

/** The stored (sanitised) HTML, shown as the flat page shows it. */
function Preview({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(sanitizeHtml(html));
  }, [html]);
  return <div ref={ref} className="flatpage-content admin-preview" />;
}

function PageEditor({
  page,
  onSaved,
  onCancel,
  onDeleted,
}: {
  page: AdminFlatpage;
  onSaved(page: AdminFlatpage): void;
  onCancel(): void;
  onDeleted(): void;
}) {
  const { t } = useTranslation('admin');
  const [form, setForm] = useState({ url: page.url, title: page.title, content: page.content });
  const [preview, setPreview] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { busy, fields, general, submit } = useAdminSubmit();
  const contentId = useId();
  const dirty = form.url !== page.url || form.title !== page.title || form.content !== page.content;
  useUnsavedChanges(dirty);

  const save = () =>
    submit(async () => {
      const saved = await call(adminApi.saveFlatpage, { id: page.id, ...form });
      showToast(t('pages.saved', { url: saved.page.url }), 'success');
      onSaved(saved.page);
    });

  /** The page's address and title: required, each with the server's errors beside it. */
  const requiredField = (name: 'url' | 'title', hint?: string) => (
    <LabelledInput
      label={t(`pages.fields.${name}`)}
      value={form[name]}
      onChange={(value) => setForm({ ...form, [name]: value })}
      errors={fields[name]}
      required
      hint={hint}
    />
  );

  const showPreview = () =>
    submit(async () => {
      setPreview((await call(adminApi.previewFlatpage, { content: form.content })).content);
    });

  return (
    <Form
      className="form admin-editor"
      aria-label={page.id ? t('pages.editTitle', { url: page.url }) : t('pages.newTitle')}
      onSubmit={save}
    >
      <h3>{page.id ? t('pages.editTitle', { url: page.url }) : t('pages.newTitle')}</h3>
      {page.seeded ? <p className="admin-hint">{t('pages.seededHint')}</p> : null}
      <FormErrorList errors={general} />
      {requiredField('url', t('pages.urlHint'))}
      {requiredField('title')}
      <div className="form-field">
        <label htmlFor={contentId}>{t('pages.fields.content')}</label>
        <textarea
          id={contentId}
          rows={14}
          value={form.content}
          spellCheck={false}
          aria-describedby={`${contentId}-hint`}
          onChange={(event) => setForm({ ...form, content: event.target.value })}
        />
        <p id={`${contentId}-hint`} className="admin-hint">
          {t('pages.contentHint')}
        </p>
      </div>
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void showPreview()}>
          {t('pages.preview')}
        </button>
        {page.id && !KEPT_PAGES.has(page.url) ? (
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => setConfirmDelete(true)}
          >
            {t('pages.delete')}
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('save')}
        </button>
      </div>
      {preview !== null ? (
        <section className="admin-preview-box" aria-label={t('pages.previewLabel')}>
          <h4>{form.title}</h4>
          <Preview html={preview} />
        </section>
      ) : null}
      {confirmDelete ? (
        <ConfirmDialog
          title={t('pages.deleteTitle')}
          message={t('pages.deleteQuestion', { url: page.url })}
          confirmLabel={t('pages.delete')}
          onClose={() => setConfirmDelete(false)}
          onConfirm={async () => {
            const ok = await submit(async () => {
              await call(adminApi.deleteFlatpage, { id: page.id });
            });
            if (!ok) throw new Error('not deleted');
            showToast(t('pages.deleted', { url: page.url }), 'success');
            onDeleted();
          }}
        />
      ) : null}
    </Form>
  );
}

/** /admin/pages/: the flat pages (terms, privacy, any /pages/<name>/). */
export function FlatpagesSection() {
  const { t } = useTranslation('admin');
  const load = useCallback(async () => (await call(adminApi.flatpages)).pages, []);
  const { data, loading, reload } = useAdminQuery(load, t('pages.loadError'));
  const [editing, setEditing] = useState<AdminFlatpage | null>(null);
  // A new editor after each save: the form starts again from what was stored (sanitised).
  const [saves, setSaves] = useState(0);

  const columns: Column<AdminFlatpage>[] = [
    {
      id: 'url',
      header: t('pages.fields.url'),
      cell: (page) => (
        <button type="button" className="admin-link-button" onClick={() => setEditing(page)}>
          {page.url}
        </button>
      ),
    },
    { id: 'title', header: t('pages.fields.title'), cell: (page) => page.title },
    {
      id: 'view',
      header: t('pages.view'),
      className: 'admin-col-minor',
      cell: (page) => <a href={flatpageAddress(page.url)}>{flatpageAddress(page.url)}</a>,
    },
  ];

  return (
    <>
      <h2>{t('sections.pages')}</h2>
      <div className="admin-toolbar">
        <button type="button" className="button button-primary" onClick={() => setEditing({ ...NEW_PAGE })}>
          {t('pages.new')}
        </button>
      </div>
      <AdminTable
        rows={data ?? []}
        columns={columns}
        label={t('sections.pages')}
        loading={loading}
        empty={t('pages.empty')}
        onActivate={(page) => setEditing(page)}
      />
      {editing ? (
        <PageEditor
          key={`${editing.id}-${saves}`}
          page={editing}
          onCancel={() => setEditing(null)}
          onSaved={(page) => {
            setEditing(page);
            setSaves((count) => count + 1);
            void reload();
          }}
          onDeleted={() => {
            setEditing(null);
            void reload();
          }}
        />
      ) : null}
    </>
  );
}
