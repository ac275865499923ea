import { Fragment, type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page/page';
import { ACCESS_TOKENS_LINK } from './api-reference-path';
import {
  anchorOf,
  errorsOf,
  type Field,
  type Group,
  groupsOf,
  OPENAPI_URL,
  type OpenApiDocument,
  type Operation,
  type ShapeNode,
} from './openapi-view';
import './api-reference.css';

type Load =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'loaded'; groups: Group[]; errors: { status: string; description: string }[] };

const ERRORS_ID = 'api-errors';

/** The document's texts are Markdown-ish: `code` spans are shown as code. */
function Prose({ text }: { text: string }) {
  const parts = text.split('`');
  return (
    <>
      {parts.map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
        index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>,
      )}
    </>
  );
}

function Badges({ children }: { children: ReactNode }) {
  return <span className="api-badges">{children}</span>;
}

function FieldList({ fields }: { fields: Field[] }) {
  const { t } = useTranslation('apiref');
  return (
    <ul className="api-fields">
      {fields.map((field) => (
        <li key={`${field.place}-${field.name}`}>
          <code className="api-field-name">{field.name}</code> <code className="api-type">{field.type}</code>{' '}
          <Badges>
            <span className="api-badge">{t(`places.${field.place}`)}</span>
            {field.required ? (
              <>
                {' '}
                <span className="api-badge api-badge-strong">{t('required')}</span>
              </>
            ) : null}
          </Badges>
          {field.description ? ' ' : null}
          {field.description ? (
            <p className="api-description">
              <Prose text={field.description} />
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function ShapeList({ nodes }: { nodes: ShapeNode[] }) {
  const { t } = useTranslation('apiref');
  return (
    <ul className="api-fields api-shape">
      {nodes.map((node) => (
        <li key={node.name}>
          <code className="api-field-name">{node.name}</code> <code className="api-type">{node.type}</code>
          {node.required ? null : (
            <>
              {' '}
              <Badges>
                <span className="api-badge">{t('optional')}</span>
              </Badges>
            </>
          )}
          {node.description ? ' ' : null}
          {node.description ? (
            <p className="api-description">
              <Prose text={node.description} />
            </p>
          ) : null}
          {node.children.length > 0 ? <ShapeList nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

function OperationView({ operation }: { operation: Operation }) {
  const { t } = useTranslation('apiref');
  const anchor = anchorOf(operation);
  return (
    <article className="api-operation" aria-labelledby={anchor}>
      <h3 id={anchor} tabIndex={-1}>
        <span className={`api-method api-method-${operation.method.toLowerCase()}`}>{operation.method}</span>{' '}
        <code className="api-path">{operation.path}</code>
      </h3>
      <p>
        <Prose text={operation.summary} />
      </p>
      <dl className="api-facts">
        <dt>{t('scope')}</dt>
        <dd>
          <code>{operation.scope}</code>
        </dd>
        {operation.bodyMediaType ? (
          <>
            <dt>{t('body')}</dt>
            <dd>
              <code>{operation.bodyMediaType}</code>
            </dd>
          </>
        ) : null}
        {operation.errors.length > 0 ? (
          <>
            <dt>{t('errorsLabel')}</dt>
            <dd>
              <a href={`#${ERRORS_ID}`}>{operation.errors.join(', ')}</a>
            </dd>
          </>
        ) : null}
      </dl>
      <h4>{t('parameters')}</h4>
      {operation.fields.length > 0 ? <FieldList fields={operation.fields} /> : <p>{t('noParameters')}</p>}
      <h4>{t('answer')}</h4>
      {operation.answer ? (
        <>
          <p>
            <code>{operation.answer.mediaType}</code>
            {operation.answer.shape.length === 0 && operation.answer.description ? (
              <>
                {': '}
                <Prose text={operation.answer.description} />
              </>
            ) : null}
          </p>
          {operation.answer.shape.length > 0 ? <ShapeList nodes={operation.answer.shape} /> : null}
        </>
      ) : (
        <p>{t('noAnswer')}</p>
      )}
    </article>
  );
}

function groupTitle(t: (key: string, options?: Record<string, unknown>) => string, tag: string): string {
  return t(`groups.${tag}`, { defaultValue: tag });
}

/**
 * The API reference (issue 57): the OpenAPI document the server serves, read as a page. The
 * operations' texts are the document's (English, as API docs are); the page's own are translated.
 */
export function ApiReferencePage() {
  const { t } = useTranslation('apiref');
  const [load, setLoad] = useState<Load>({ kind: 'loading' });

  const fetchDocument = useCallback(async () => {
    setLoad({ kind: 'loading' });
    try {
      const response = await fetch(OPENAPI_URL, { headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`${response.status}`);
      const document = (await response.json()) as OpenApiDocument;
      setLoad({ kind: 'loaded', groups: groupsOf(document), errors: errorsOf(document) });
    } catch {
      setLoad({ kind: 'failed' });
    }
  }, []);

  useEffect(() => {
    void fetchDocument();
  }, [fetchDocument]);

  // An address with an operation's anchor: go there once the operations are drawn.
  useEffect(() => {
    if (load.kind !== 'loaded' || !window.location.hash) return;
    const target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    target?.scrollIntoView();
  }, [load.kind]);

  return (
    <Page heading={t('title')} title={t('title')} className="api-reference">
      <p>{t('intro')}</p>
      <p>
        <a href={OPENAPI_URL}>{t('openapiLink')}</a>
      </p>

      {load.kind === 'loaded' && load.groups.length > 0 ? (
        <nav className="api-contents" aria-labelledby="api-contents-title">
          <h2 id="api-contents-title">{t('contents')}</h2>
          <ul>
            <li>
              <a href="#api-tokens">{t('tokensTitle')}</a>
            </li>
            <li>
              <a href={`#${ERRORS_ID}`}>{t('errorsTitle')}</a>
            </li>
            {load.groups.map((group) => (
              <li key={group.tag}>
                <a href={`#api-group-${group.tag}`}>{groupTitle(t, group.tag)}</a>
                <ul>
                  {group.operations.map((operation) => (
                    <li key={operation.id}>
                      <a href={`#${anchorOf(operation)}`}>
                        <span className="api-method">{operation.method}</span>{' '}
                        <code className="api-path">{operation.path}</code>
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <section aria-labelledby="api-tokens">
        <h2 id="api-tokens" tabIndex={-1}>
          {t('tokensTitle')}
        </h2>
        <p>{t('tokensText')}</p>
        <p>
          <code>Authorization: Bearer &lt;token&gt;</code>
        </p>
        <p>
          <a href={ACCESS_TOKENS_LINK}>{t('tokensLink')}</a>
        </p>
      </section>

      <section aria-labelledby={ERRORS_ID}>
        <h2 id={ERRORS_ID} tabIndex={-1}>
          {t('errorsTitle')}
        </h2>
        <p>{t('errorsText')}</p>
        <p>
          <code>{'{ "error": "…", "message": "…" }'}</code>
        </p>
        {load.kind === 'loaded' && load.errors.length > 0 ? (
          <dl className="api-facts api-error-list">
            {load.errors.map((error) => (
              <Fragment key={error.status}>
                <dt>{error.status}</dt>
                <dd>
                  <Prose text={error.description} />
                </dd>
              </Fragment>
            ))}
          </dl>
        ) : null}
      </section>

      {load.kind === 'loading' ? (
        <p role="status" className="api-state">
          {t('loading')}
        </p>
      ) : null}
      {load.kind === 'failed' ? (
        <div role="alert" className="api-state">
          <p>{t('loadError')}</p>
          <button type="button" className="button" onClick={() => void fetchDocument()}>
            {t('retry')}
          </button>
        </div>
      ) : null}
      {load.kind === 'loaded' && load.groups.length === 0 ? <p className="api-state">{t('empty')}</p> : null}

      {load.kind === 'loaded'
        ? load.groups.map((group) => (
            <section key={group.tag} className="api-group" aria-labelledby={`api-group-${group.tag}`}>
              <h2 id={`api-group-${group.tag}`} tabIndex={-1}>
                {groupTitle(t, group.tag)}
              </h2>
              {group.operations.map((operation) => (
                <OperationView key={operation.id} operation={operation} />
              ))}
            </section>
          ))
        : null}
    </Page>
  );
}
