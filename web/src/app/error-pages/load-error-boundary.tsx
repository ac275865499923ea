import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function LoadError() {
  const { t } = useTranslation('web');
  return (
    <section className="page page-message" role="alert" aria-labelledby="load-error-heading">
      <h1 id="load-error-heading">{t('app.loadError.heading')}</h1>
      <p>{t('app.loadError.text')}</p>
      <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
        {t('app.reloadPage')}
      </button>
    </section>
  );
}

interface Props {
  children: ReactNode;
}

/**
 * Spec 8: a script chunk that fails to load is reported as a load error instead of a blank page.
 * Give it a `key` per route so that navigating elsewhere tries again.
 */
export class LoadErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? <LoadError /> : this.props.children;
  }
}
