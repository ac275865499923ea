import { tokensApi } from '@scriptorium/common/api/endpoints/tokens';
import {
  TOKEN_ACCESS,
  TOKEN_AREAS,
  TOKEN_EXPIRY_DAYS,
  type TokenAccess,
  type TokenArea,
  type TokenInfo,
  type TokenScope,
} from '@scriptorium/common/api/tokens';
import { Copy, Plus, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { IconButton } from '../../components/button/icon-button';
import { ColumnHeads } from '../../components/data-table/column-heads';
import { ConfirmDialog, Dialog, FormDialog } from '../../components/dialog/dialog';
import { CheckList } from '../../components/form/check-list';
import { FieldErrors } from '../../components/form/field-errors';
import { Select } from '../../components/form/select';
import { TextField } from '../../components/form/text-field';
import { showToast } from '../../components/toast/toast';
import { ACCESS_TOKENS_ID, API_REFERENCE_PATH } from '../api-reference/api-reference-path';

type ExpiryDays = `${(typeof TOKEN_EXPIRY_DAYS)[number]}`;

type TokenDialog =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'created'; secret: string }
  | { kind: 'revoke'; token: TokenInfo };

function useScopeLabel() {
  const { t } = useTranslation('tokens');
  return (scope: TokenScope) => {
    const [area, access] = scope.split(':') as [TokenArea, TokenAccess];
    return t('scopeLabel', { area: t(`areas.${area}`), access: t(`access.${access}`) });
  };
}

/** Create dialog: a name, the scopes (read and write per area) and an expiry. */
function CreateTokenDialog({ onClose, onCreated }: { onClose(): void; onCreated(secret: string): void }) {
  const { t } = useTranslation('tokens');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>([]);
  const [expiry, setExpiry] = useState<ExpiryDays>('30');
  const [errors, setErrors] = useState<{ name?: string[]; scopes?: string[] }>({});
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function create() {
    const problems = {
      ...(name.trim() ? {} : { name: [t('nameRequired')] }),
      ...(scopes.length ? {} : { scopes: [t('scopeRequired')] }),
    };
    setErrors(problems);
    if (problems.name || problems.scopes) return;
    setBusy(true);
    try {
      const answer = await call(tokensApi.create, {
        name: name.trim(),
        scopes,
        expires_in_days: Number(expiry),
      });
      onCreated(answer.secret);
    } catch {
      showToast(t('createError'), 'error');
      setBusy(false);
    }
  }

  return (
    <FormDialog
      title={t('createTitle')}
      submitLabel={t('create')}
      onClose={onClose}
      onSubmit={create}
      busy={busy}
    >
      <TextField label={t('name')} name="name" value={name} onChange={setName} errors={errors.name} />
      <div className="access-token-scopes">
        {TOKEN_AREAS.map((area) => (
          <CheckList<TokenAccess>
            key={area}
            legend={t(`areas.${area}`)}
            values={TOKEN_ACCESS}
            checked={TOKEN_ACCESS.filter((access) => scopes.includes(`${area}:${access}`))}
            label={(access) => t(`access.${access}`)}
            onChange={(access, on) => {
              const scope: TokenScope = `${area}:${access}`;
              setScopes((current) => (on ? [...current, scope] : current.filter((item) => item !== scope)));
            }}
          />
        ))}
      </div>
      <FieldErrors id={`${id}-scopes`} errors={errors.scopes ?? []} />
      <Select<ExpiryDays>
        label={t('expiresAfter')}
        value={expiry}
        onChange={setExpiry}
        options={TOKEN_EXPIRY_DAYS.map((days) => ({
          value: `${days}` as ExpiryDays,
          label: t(`expiry.d${days}`),
        }))}
      />
    </FormDialog>
  );
}

/** The new token, shown this once, with a copy button. */
function CreatedTokenDialog({ secret, onClose }: { secret: string; onClose(): void }) {
  const { t } = useTranslation('tokens');
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      showToast(t('copied'), 'success');
    } catch {
      showToast(t('copyFailed'), 'error');
    }
  }
  return (
    <Dialog
      title={t('createdTitle')}
      onClose={onClose}
      buttons={
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('done')}
        </button>
      }
    >
      <p>{t('createdNote')}</p>
      <div className="form-field">
        <label htmlFor={`${id}-secret`}>{t('token')}</label>
        <div className="access-token-secret">
          <input
            id={`${id}-secret`}
            className="access-token-value"
            value={secret}
            readOnly
            onFocus={(event) => event.target.select()}
          />
          <IconButton label={t('copy')} icon={Copy} onPress={() => void copy()} />
        </div>
      </div>
    </Dialog>
  );
}

/** Profile page section (issue 57): the user's personal access tokens for the public API. */
export function AccessTokens() {
  const { t, i18n } = useTranslation('tokens');
  const scopeLabel = useScopeLabel();
  const [tokens, setTokens] = useState<TokenInfo[] | null>(null);
  const [dialog, setDialog] = useState<TokenDialog>({ kind: 'none' });

  const load = useCallback(async () => {
    try {
      setTokens((await call(tokensApi.list)).tokens);
    } catch {
      showToast(t('loadError'), 'error');
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);
  // Linked from the API reference as /user/profile/#access-tokens: shown once the list is in.
  const listed = tokens !== null;
  useEffect(() => {
    if (listed && window.location.hash === `#${ACCESS_TOKENS_ID}`) {
      document.getElementById(ACCESS_TOKENS_ID)?.scrollIntoView();
    }
  }, [listed]);

  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const close = () => setDialog({ kind: 'none' });

  return (
    <section id={ACCESS_TOKENS_ID} className="access-tokens" aria-labelledby="access-tokens-title">
      <h2 id="access-tokens-title">{t('title')}</h2>
      <p>{t('intro')}</p>
      <p>
        <a href={API_REFERENCE_PATH}>{t('apiref:tokenReference')}</a>
      </p>
      <table className="profile-table access-token-table">
        <caption className="visually-hidden">{t('title')}</caption>
        <ColumnHeads
          labels={[t('name'), t('scopes'), t('created'), t('lastUsed'), t('expires')]}
          actions={t('actions')}
        />
        <tbody>
          {tokens?.length === 0 ? (
            <tr>
              <td colSpan={6}>{t('none')}</td>
            </tr>
          ) : null}
          {(tokens ?? []).map((token) => (
            <tr key={token.id} data-token={token.name}>
              <td>{token.name}</td>
              <td>{token.scopes.map(scopeLabel).join(', ')}</td>
              <td>{date.format(token.created_at)}</td>
              <td>{token.last_used_at === null ? t('neverUsed') : dateTime.format(token.last_used_at)}</td>
              <td>{date.format(token.expires_at)}</td>
              <td>
                <IconButton
                  label={t('revokeOf', { name: token.name })}
                  icon={Trash2}
                  onPress={() => setDialog({ kind: 'revoke', token })}
                />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={6}>
              <IconButton label={t('create')} icon={Plus} onPress={() => setDialog({ kind: 'create' })} />
            </td>
          </tr>
        </tfoot>
      </table>
      {dialog.kind === 'create' && (
        <CreateTokenDialog
          onClose={close}
          onCreated={(secret) => {
            setDialog({ kind: 'created', secret });
            void load();
          }}
        />
      )}
      {dialog.kind === 'created' && <CreatedTokenDialog secret={dialog.secret} onClose={close} />}
      {dialog.kind === 'revoke' && (
        <ConfirmDialog
          title={t('revokeTitle')}
          message={t('revokeQuestion', { name: dialog.token.name })}
          confirmLabel={t('revoke')}
          onClose={close}
          onConfirm={async () => {
            try {
              await call(tokensApi.revoke, { id: dialog.token.id });
            } catch (failure) {
              showToast(t('revokeError'), 'error');
              throw failure;
            }
            showToast(t('revoked'), 'success');
            await load();
          }}
        />
      )}
    </section>
  );
}
