import type { CslStyleInfo } from '@scriptorium/common/bibliography/csl-compact';
import { useMemo, useState } from 'react';
import { ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { styleCatalogueUrl } from './csl/csl-assets';

/** At most this many matches are listed: enough to pick from, few enough to draw at once. */
const MAX_MATCHES = 50;

let catalogue: Promise<CslStyleInfo[]> | null = null;

/** The 2,600-style catalogue (about 150 KB), fetched the first time someone searches it. */
function loadCatalogue(): Promise<CslStyleInfo[]> {
  catalogue ??= fetch(styleCatalogueUrl())
    .then((response) => {
      if (!response.ok) throw new Error(`catalogue: ${response.status}`);
      return response.json() as Promise<CslStyleInfo[]>;
    })
    .catch((error: unknown) => {
      catalogue = null;
      throw error;
    });
  return catalogue;
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase();

/** Styles whose title or file name holds every word typed, titles starting with them first. */
export function matchStyles(styles: readonly CslStyleInfo[], query: string): CslStyleInfo[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const found = styles.filter((style) => {
    const text = fold(`${style.title} ${style.id}`);
    return words.every((word) => text.includes(word));
  });
  const first = fold(query.trim());
  return [
    ...found.filter((style) => fold(style.title).startsWith(first)),
    ...found.filter((style) => !fold(style.title).startsWith(first)),
  ].slice(0, MAX_MATCHES);
}

/** Searches every CSL style by journal, publisher or style name and picks one. */
export function StyleFinder({ onChoose }: { onChoose(style: CslStyleInfo): void }) {
  const { t } = useTranslation('bibliography');
  const [styles, setStyles] = useState<CslStyleInfo[]>([]);
  const [query, setQuery] = useState('');
  const [failed, setFailed] = useState(false);
  const matches = useMemo(() => matchStyles(styles, query), [styles, query]);

  const load = () => {
    loadCatalogue().then(
      (list) => {
        setStyles(list);
        setFailed(false);
      },
      () => setFailed(true),
    );
  };

  return (
    <ComboBox
      className="bib-style-finder"
      items={matches}
      inputValue={query}
      onInputChange={setQuery}
      // The list is filtered above (all words, any order); the combobox shows it as it is.
      defaultFilter={() => true}
      menuTrigger="input"
      allowsEmptyCollection
      onFocus={load}
      onSelectionChange={(key) => {
        const style = styles.find((s) => s.id === key);
        if (style) {
          onChoose(style);
          setQuery('');
        }
      }}
    >
      <Label>{t('findStyle')}</Label>
      <Input placeholder={t('findStylePlaceholder')} />
      {failed ? <span className="bib-field-error">{t('previewFailed')}</span> : null}
      <Popover className="menu-popover bib-style-popover" placement="bottom start">
        <ListBox<CslStyleInfo>
          className="menu"
          renderEmptyState={() => <p className="bib-hint">{t('noStyleFound')}</p>}
        >
          {(style) => (
            <ListBoxItem id={style.id} className="menu-item" textValue={style.title}>
              {style.title}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
