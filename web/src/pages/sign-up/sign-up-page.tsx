import { TextsPage } from '../../app/error-pages/texts-page';

/** Spec 1 and 2.1: sign-up is closed, and this page says so. */
export function SignUpPage() {
  return <TextsPage name="signUp" />;
}
