import { insertCrossReference } from '@scriptorium/common/editor/academic-commands';
import { numberDocument } from '@scriptorium/common/editor/academic-numbering';
import { useTranslation } from 'react-i18next';
import { applyAndClose, type DialogProps, PickDialog } from './shared';

/** Lists every heading, figure, table and equation; the reference shows the target's live number. */
export function CrossReferenceDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const targets = numberDocument(view.state.doc).targets;
  return (
    <PickDialog
      title={t('academic.crossReference.title')}
      onClose={onClose}
      width={520}
      items={targets.map((target) => ({
        key: target.id,
        content: (
          <>
            <strong>{target.label}</strong> <span>{target.text}</span>
          </>
        ),
        pick: () => applyAndClose(view, onClose, insertCrossReference(target.id, target.label)),
      }))}
      className="academic-target"
      empty={t('academic.crossReference.empty')}
    />
  );
}
