import { setTableCaption } from '@scriptorium/common/editor/academic-commands';
import { isInTable } from 'prosemirror-tables';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../../components/dialog/dialog';
import { applyAndClose, type DialogProps } from './shared';

export function TableCaptionDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const inTable = isInTable(view.state);
  const id = useId();
  const current = useMemo(() => {
    const { $from } = view.state.selection;
    for (let depth = $from.depth; depth > 0; depth--)
      if ($from.node(depth).type.name === 'table') return String($from.node(depth).attrs.caption);
    return '';
  }, [view.state]);
  const [caption, setCaption] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    applyAndClose(view, onClose, setTableCaption(caption.trim()));
  };
  return (
    <Dialog
      title={t('academic.tableCaption.title')}
      onClose={onClose}
      width={420}
      buttons={
        inTable ? (
          <button type="submit" form={`${id}-form`} className="button button-primary">
            {t('academic.update')}
          </button>
        ) : undefined
      }
    >
      {inTable ? (
        <form id={`${id}-form`} className="editor-form" onSubmit={submit}>
          <label htmlFor={id}>{t('academic.tableCaption.caption')}</label>
          <input id={id} autoFocus value={caption} onChange={(event) => setCaption(event.target.value)} />
        </form>
      ) : (
        <p>{t('academic.tableCaption.notInTable')}</p>
      )}
    </Dialog>
  );
}
