import type { AdminUser } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FieldErrors } from '../../components/form/field-errors';
import { Form } from '../../components/form/form';
import { LabelledInput } from '../../components/form/labelled-input';
import { showToast } from '../../components/toast/toast';
import { FormErrorList, useAdminSubmit } from './admin-form';

/** What staff can do with an address that is not the primary one: its text keys and the toast's. */
const ADDRESS_ACTIONS = [
  { action: 'primary', key: 'makePrimary', done: 'primaryChanged' },
  { action: 'remove', key: 'remove', done: 'removed' },
] as const;

/**
 * A user's addresses in the user dialog: make one primary, remove one, add one (staff vouch for
 * an address they add, so it counts as confirmed). Each change is saved at once.
 */
export function UserEmails({ user, onChanged }: { user: AdminUser; onChanged(user: AdminUser): void }) {
  const { t } = useTranslation('admin');
  const [address, setAddress] = useState('');
  const { busy, fields, general, submit } = useAdminSubmit();
  const formId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  // Making an address primary or removing it takes away the button that was pressed, and the
  // focus with it: it goes to the section's title, not to the page's body, so that Escape still
  // closes the dialog and Tab goes on from here.
  const refocus = useRef(false);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    if (!document.activeElement || document.activeElement === document.body) title.current?.focus();
  });

  const change = (action: 'add' | 'remove' | 'primary', email: string, message: string) =>
    submit(async () => {
      const changed = (await call(adminApi.userEmail, { id: user.id, action, email })).user;
      showToast(t(message, { address: email }), 'success');
      if (action === 'add') setAddress('');
      else refocus.current = true;
      onChanged(changed);
    });

  return (
    <section className="admin-emails" aria-labelledby={`${formId}-legend`}>
      <h3 id={`${formId}-legend`} className="admin-emails-title" ref={title} tabIndex={-1}>
        {t('users.emails.legend')}
      </h3>
      <FormErrorList errors={general} />
      <ul className="admin-emails-list">
        {user.emails.map((email) => (
          <li key={email.address}>
            <span className="admin-emails-address">{email.address}</span>
            {email.primary ? (
              <span className="admin-badge admin-badge-accent">{t('users.emails.primary')}</span>
            ) : null}
            {email.verified ? null : <span className="admin-badge">{t('users.unconfirmed')}</span>}
            {email.primary ? null : (
              <span className="admin-emails-actions">
                {ADDRESS_ACTIONS.map(({ action, key, done }) => (
                  <button
                    key={action}
                    type="button"
                    className="button"
                    aria-label={t(`users.emails.${key}Label`, { address: email.address })}
                    onClick={() => void change(action, email.address, `users.emails.${done}`)}
                  >
                    {t(`users.emails.${key}`)}
                  </button>
                ))}
              </span>
            )}
          </li>
        ))}
      </ul>
      {fields.email && address === '' ? <FieldErrors id={`${formId}-errors`} errors={fields.email} /> : null}
      <Form className="admin-emails-add" onSubmit={() => change('add', address.trim(), 'users.emails.added')}>
        <LabelledInput
          label={t('users.emails.newAddress')}
          type="email"
          value={address}
          onChange={setAddress}
          errors={address === '' ? undefined : fields.email}
          required
          hint={t('users.emails.addHint')}
        />
        <button type="submit" className="button" disabled={busy}>
          {t('users.emails.add')}
        </button>
      </Form>
    </section>
  );
}
