import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessagePage, Page } from '../../components/page/page';

/**
 * Loads the item a plugin's editor shows: `loaded` gets it, unless the editor has gone meanwhile.
 * Answers whether the item is missing: it could not be loaded, or there is no id at all.
 */
export function useItemLoad<Item>(
  id: number | null,
  load: (id: number) => Promise<Item>,
  loaded: (item: Item) => void,
): boolean {
  const [missing, setMissing] = useState(id === null);
  // The caller's latest `loaded`: a new function each render, not a reason to load again.
  const latestLoaded = useRef(loaded);
  latestLoaded.current = loaded;
  useEffect(() => {
    if (id === null) return;
    let live = true;
    load(id).then(
      (item) => {
        if (live) latestLoaded.current(item);
      },
      () => {
        if (live) setMissing(true);
      },
    );
    return () => {
      live = false;
    };
  }, [id, load]);
  return missing;
}

export interface ItemPendingProps {
  /** The plugin's namespace: texts notFound.title, notFound.text and loading. */
  ns: 'templates' | 'books';
  /** The item could not be loaded (or its address names none). */
  missing: boolean;
  /** The editor page's heading while the item loads. */
  heading: string;
}

/** A plugin item's editor before it can show the item: the not-found page, or the page saying it loads. */
export function ItemPending({ ns, missing, heading }: ItemPendingProps) {
  const { t } = useTranslation(ns);
  if (missing)
    return (
      <MessagePage heading={t('notFound.title')} text={t('notFound.text')} title={t('notFound.title')} />
    );
  return (
    <Page heading={heading} title={heading}>
      <p>{t('loading')}</p>
    </Page>
  );
}
