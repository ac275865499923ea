import type { FormHTMLAttributes } from 'react';

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  /** Runs on the submit button and on Enter in a field, instead of the browser sending the form
   * (what it returns, e.g. a promise, is not waited for). */
  onSubmit(): unknown;
}

/** A form that the page handles itself: submitting it never loads another page. */
export function Form({ onSubmit, ...form }: FormProps) {
  return (
    <form
      {...form}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    />
  );
}
