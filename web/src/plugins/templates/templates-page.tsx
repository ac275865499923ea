import {
  type TemplateFile,
  type TemplateListEntry,
  templateFile,
} from '@scriptorium/common/plugins/templates-api';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router/navigation';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { useOverviewRows } from '../../components/overview/use-overview-rows';
import { useOverviewState } from '../../components/overview/use-overview-state';
import { showToast } from '../../components/toast/toast-emitter';
import { downloadText } from '../../pages/bibliography/download';
import { ItemOverview, useDeleteItems } from '../shared/item-overview';
import { BuiltinTemplates } from './builtin-templates';
import {
  copyTemplate,
  createTemplate,
  deleteTemplates,
  fetchTemplate,
  fetchTemplates,
} from './templates-api';

export function templateUrl(id: number): string {
  return `/templates/${id}/`;
}

/** The file name of an exported template: its title made safe for file systems. */
function exportName(title: string): string {
  const base = title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'template';
  return `${base}.json`;
}

/** Reads an exported template; null when the file is not one. */
export function readTemplateFile(text: string): TemplateFile | null {
  try {
    const parsed = templateFile.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Document templates overview (plugin, spec 2.1): the user's templates and the site's. */
export function TemplatesPage() {
  const { t } = useTranslation('templates');
  const overview = useOverviewState();
  const { finishLoad, clearSelection } = overview;
  const { rows, reload } = useOverviewRows(fetchTemplates, finishLoad, t('loadFailed'));
  const [deleting, setDeleting] = useState<TemplateListEntry[] | null>(null);
  const importInput = useRef<HTMLInputElement>(null);

  const newTemplate = async () => {
    try {
      navigate(templateUrl(await createTemplate(t('newTitle'))));
    } catch {
      showToast(t('createFailed'), 'error');
    }
  };

  const copySelected = async (selected: TemplateListEntry[]) => {
    try {
      for (const row of selected) await copyTemplate(row.id);
      showToast(t('copied', { count: selected.length }), 'success');
      clearSelection();
      await reload();
    } catch {
      showToast(t('copyFailed'), 'error');
    }
  };

  const exportTemplate = async (row: TemplateListEntry) => {
    try {
      const template = await fetchTemplate(row.id);
      const file: TemplateFile = {
        scriptorium_template: 1,
        title: template.title,
        definition: template.definition,
      };
      downloadText(JSON.stringify(file, null, 2), exportName(template.title), 'application/json');
    } catch {
      showToast(t('exportFailed'), 'error');
    }
  };

  const importFile = async (file: File) => {
    const parsed = readTemplateFile(await file.text());
    if (!parsed) {
      showToast(t('importInvalid', { name: file.name }), 'error');
      return;
    }
    try {
      await createTemplate(parsed.title, parsed.definition);
      showToast(t('imported', { title: parsed.title }), 'success');
      await reload();
    } catch {
      showToast(t('importFailed'), 'error');
    }
  };

  const remove = useDeleteItems<TemplateListEntry>('templates', deleteTemplates, clearSelection, reload);

  return (
    <ItemOverview
      ns="templates"
      rows={rows}
      overview={overview}
      href={(row) => templateUrl(row.id)}
      extraColumns={[
        {
          id: 'kind',
          header: t('columns.kind'),
          className: 'plugin-overview-minor',
          sortValue: (row) => (row.site ? 1 : 0),
          cell: (row) => (row.site ? t('kind.site') : t('kind.own')),
        },
      ]}
      actionColumns={[
        {
          id: 'actions',
          header: t('columns.actions'),
          cell: (row) => (
            <button
              type="button"
              className="button"
              aria-label={t('exportNamed', { name: row.title || t('untitled') })}
              onClick={() => void exportTemplate(row)}
            >
              {t('export')}
            </button>
          ),
        },
      ]}
      bulkActions={(selected) => [
        { label: t('bulk.copy'), onSelect: () => void copySelected(selected) },
        {
          label: t('bulk.delete'),
          disabled: selected.some((row) => !row.is_owner),
          onSelect: () => setDeleting(selected),
        },
      ]}
      menuItems={[
        {
          id: 'new-template',
          type: 'text',
          shortcut: 'n',
          title: t('newTemplate'),
          disabled: !overview.online,
          onSelect: () => void newTemplate(),
        },
        {
          id: 'import-template',
          type: 'text',
          shortcut: 'i',
          title: t('import'),
          disabled: !overview.online,
          onSelect: () => importInput.current?.click(),
        },
      ]}
      onDelete={(row) => {
        if (row.is_owner) setDeleting([row]);
      }}
    >
      <BuiltinTemplates online={overview.online} onCopied={() => void reload()} />
      <input
        ref={importInput}
        type="file"
        accept="application/json,.json"
        className="visually-hidden"
        aria-label={t('import')}
        tabIndex={-1}
        data-testid="template-import"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
      {deleting ? (
        <ConfirmDialog
          title={t('deleteDialog.title')}
          message={t('deleteDialog.message', { count: deleting.length })}
          confirmLabel={t('deleteDialog.confirm')}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </ItemOverview>
  );
}
