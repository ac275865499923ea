import { setCitationStyle } from '@scriptorium/common/editor/academic-commands';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../../../components/form/select';
import { CSL_STYLES } from '../../../bibliography/csl/csl-assets';
import { StyleFinder } from '../../../bibliography/style-finder';
import { DoneDialog } from '../../editor-panels';
import type { DialogProps } from './shared';

/** The document's citation style: the common ones, or any of the catalogue by search. */
export function CitationStyleDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const [style, setStyle] = useState(String(view.state.doc.attrs.citationstyle));
  const choose = (value: string) => {
    setStyle(value);
    setCitationStyle(value)(view.state, view.dispatch);
  };
  const listed = CSL_STYLES.some((s) => s.id === style);
  return (
    <DoneDialog title={t('academic.style.title')} onClose={onClose} width={520}>
      <Select
        label={t('academic.style.style')}
        value={style}
        options={[
          ...(listed ? [] : [{ value: style, label: style }]),
          ...CSL_STYLES.map((s) => ({ value: s.id, label: s.label })),
        ]}
        onChange={choose}
      />
      <StyleFinder onChoose={(found) => choose(found.id)} />
    </DoneDialog>
  );
}
