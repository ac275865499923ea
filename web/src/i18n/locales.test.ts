import { describeSpecTexts } from './spec-texts';

describeSpecTexts('web', {
  'form.required': 'This field is required.',
  'pages.update.text': 'The server is currently being updated. Please wait.',
  'pages.notFound.title': 'Page not found',
  'pages.notFound.heading': 'Error 404',
  'login.forgot': 'Forgot Password',
  'login.remember': 'Remember me',
  'footer.terms': 'Terms and Conditions',
  'footer.privacy': 'Privacy policy',
  'login.verifyTitle': 'Verify Your E-mail Address',
  'pages.disconnected.reload': 'Reload page',
});
