import type { Flatpage } from '@scriptorium/common/api/base';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { NotFoundPage } from '../../app/error-pages/not-found-page';
import { usePageTitle } from '../../app/page-title';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';
import { sanitizeHtml } from './sanitize-html';

type State = { status: 'loading' } | { status: 'ready'; page: Flatpage } | { status: 'failed' };

function FlatpageContent({ page }: { page: Flatpage }) {
  usePageTitle(page.title);
  const content = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    content.current?.replaceChildren(sanitizeHtml(page.content));
  }, [page.content]);
  return (
    <article className="page flatpage" aria-labelledby="page-heading">
      <h1 id="page-heading">{page.title}</h1>
      <div ref={content} className="flatpage-content" />
    </article>
  );
}

/** Spec 2.3: a static page fetched by its address (/pages/terms/ asks for url "/terms/"); 404 text on failure. */
export function FlatPage({ name }: { name: string }) {
  const { t } = useTranslation('web');
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    call(baseApi.flatpage, { url: `/${name}/` }).then(
      (page) => current && setState({ status: 'ready', page }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [name]);

  if (state.status === 'failed') return <NotFoundPage />;
  if (state.status === 'ready') return <FlatpageContent page={state.page} />;
  return <WaitOverlay active message={t('app.loading')} />;
}
