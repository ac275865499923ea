import { insertCrossReference } from '@scriptorium/common/editor/academic-commands';
import {
  CROSS_REFERENCE_FORMS,
  type CrossReferenceForm,
  crossReferenceForm,
} from '@scriptorium/common/editor/academic-nodes';
import { numberDocument } from '@scriptorium/common/editor/academic-numbering';
import { NodeSelection } from 'prosemirror-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyAndClose, type DialogProps, PickDialog } from './shared';

const FORM_LABELS: Record<CrossReferenceForm, string> = {
  number: 'academic.crossReference.formNumber',
  page: 'academic.crossReference.formPage',
  'number-page': 'academic.crossReference.formNumberPage',
};

/**
 * Lists every heading, figure, table and equation; the reference shows the target's live number,
 * its page or both (the form, chosen above the list: radio buttons, arrow keys move between them).
 * With a cross-reference selected, the pick replaces it (a change of its form or target).
 */
export function CrossReferenceDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  // A selected cross-reference is replaced by the pick: its form is the one offered.
  const [form, setForm] = useState<CrossReferenceForm>(() => {
    const { selection } = view.state;
    return selection instanceof NodeSelection && selection.node.type.name === 'cross_reference'
      ? crossReferenceForm(selection.node.attrs.form)
      : 'number';
  });
  const targets = numberDocument(view.state.doc).targets;
  return (
    <PickDialog
      title={t('academic.crossReference.title')}
      onClose={onClose}
      width={520}
      header={
        <fieldset className="cross-reference-form">
          <legend>{t('academic.crossReference.form')}</legend>
          {CROSS_REFERENCE_FORMS.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="cross-reference-form"
                value={value}
                checked={form === value}
                onChange={() => setForm(value)}
              />{' '}
              {t(FORM_LABELS[value])}
            </label>
          ))}
        </fieldset>
      }
      items={targets.map((target) => ({
        key: target.id,
        content: (
          <>
            <strong>{target.label}</strong> <span>{target.text}</span>
          </>
        ),
        pick: () => applyAndClose(view, onClose, insertCrossReference(target.id, target.label, form)),
      }))}
      className="academic-target"
      empty={t('academic.crossReference.empty')}
    />
  );
}
