import { type BibLabels, bibLabels } from '@scriptorium/common/bibliography/labels';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Titles of entry types, fields and options in the interface language (see labels.ts). */
export function useBibLabels(): BibLabels {
  const { i18n } = useTranslation();
  return useMemo(() => bibLabels(i18n.language), [i18n.language]);
}
