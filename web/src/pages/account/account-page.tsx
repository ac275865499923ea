import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormErrorList } from '../../components/form/field-errors';
import { SubmitActions } from '../../components/form/submit-actions';
import { MessagePage, Page } from '../../components/page/page';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';

/** An account screen's short message (a key refused, a step done), perhaps with the link to go on. */
export function AccountMessage(props: {
  heading: string;
  text: string;
  next?: { href: string; label: string };
}) {
  return <MessagePage {...props} className="account-page" />;
}

/** An account screen while its key from the address is still being checked. */
export function AccountKeyChecking() {
  return <section className="page page-loading" aria-busy="true" />;
}

/**
 * An account screen's one form: its intro, the general errors, the fields, the submit button
 * (disabled while busy), anything below the form, and the wait overlay while busy.
 */
export function AccountFormPage({
  heading,
  intro,
  errors,
  submitLabel,
  busy,
  onSubmit,
  after,
  children,
}: {
  heading: string;
  intro: string;
  errors: string[];
  submitLabel: string;
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Below the form, above the overlay. */
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t: ta } = useTranslation('accounts');
  return (
    <Page heading={heading} className="account-page">
      <p>{intro}</p>
      <form className="form" noValidate onSubmit={onSubmit}>
        <FormErrorList errors={errors} />
        {children}
        <SubmitActions label={submitLabel} busy={busy} />
      </form>
      {after}
      <WaitOverlay active={busy} message={ta('common.waiting')} />
    </Page>
  );
}
