import { type Command, NodeSelection } from 'prosemirror-state';
import { useTranslation } from 'react-i18next';
import { brokenReferences } from '../academic-plugin';
import { applyAndClose, type DialogProps, PickDialog } from './shared';

/** Tools: cross-references whose target was deleted; choosing one selects it in the text. */
export function BrokenReferencesDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const broken = brokenReferences(view.state);
  const select =
    (pos: number): Command =>
    (state, dispatch) => {
      dispatch?.(state.tr.setSelection(NodeSelection.create(state.doc, pos)).scrollIntoView());
      return true;
    };
  return (
    <PickDialog
      title={t('academic.broken.title')}
      onClose={onClose}
      width={480}
      items={broken.map((ref) => ({
        key: String(ref.pos),
        content: t('academic.broken.item', { title: ref.title || ref.id }),
        pick: () => applyAndClose(view, onClose, select(ref.pos)),
      }))}
      className="doc-missing"
      empty={t('academic.broken.none')}
    />
  );
}
