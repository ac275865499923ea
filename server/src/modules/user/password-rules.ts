import type { Message } from '../../http/errors';

export const MIN_PASSWORD_LENGTH = 8;

/** Problems with a new password, as messages of the `server` namespace; empty when it is fine. */
export function newPasswordProblems(
  password1: string,
  password2: string,
): {
  password1: Message[];
  password2: Message[];
} {
  const problems = { password1: [] as Message[], password2: [] as Message[] };
  if (password1 !== password2) problems.password2.push({ key: 'accounts.passwordMismatch' });
  else if (password1.length < MIN_PASSWORD_LENGTH) {
    problems.password2.push({ key: 'accounts.passwordTooShort', values: { min: MIN_PASSWORD_LENGTH } });
  }
  return problems;
}
