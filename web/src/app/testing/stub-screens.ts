import { vi } from 'vitest';

/**
 * Stand-ins for every screen of the core routes (tests of the router and the shell): importing
 * this module first makes each screen a heading "<name> screen" and its props as JSON.
 */
vi.mock('../../pages/documents/documents-page', async () => ({
  DocumentsPage: (await import('./page-stubs')).stubPage('documents'),
}));
vi.mock('../../pages/editor/editor-page', async () => ({
  EditorPage: (await import('./page-stubs')).stubPage('editor'),
}));
vi.mock('../../pages/bibliography/bibliography-page', async () => ({
  BibliographyPage: (await import('./page-stubs')).stubPage('bibliography'),
}));
vi.mock('../../pages/usermedia/usermedia-page', async () => ({
  UsermediaPage: (await import('./page-stubs')).stubPage('usermedia'),
}));
vi.mock('../../plugins/templates/templates-page', async () => ({
  TemplatesPage: (await import('./page-stubs')).stubPage('templates'),
}));
vi.mock('../../plugins/templates/template-editor-page', async () => ({
  TemplateEditorPage: (await import('./page-stubs')).stubPage('template-editor'),
}));
vi.mock('../../plugins/books/books-page', async () => ({
  BooksPage: (await import('./page-stubs')).stubPage('books'),
}));
vi.mock('../../pages/profile/profile-page', async () => ({
  ProfilePage: (await import('./page-stubs')).stubPage('profile'),
}));
vi.mock('../../pages/contacts/contacts-page', async () => ({
  ContactsPage: (await import('./page-stubs')).stubPage('contacts'),
}));
vi.mock('../../pages/invite/invite-page', async () => ({
  InvitePage: (await import('./page-stubs')).stubPage('invite'),
}));
vi.mock('../../pages/confirm-email/confirm-email-page', async () => ({
  ConfirmEmailPage: (await import('./page-stubs')).stubPage('confirm-email'),
}));
vi.mock('../../pages/password-reset/password-reset-page', async () => ({
  PasswordResetPage: (await import('./page-stubs')).stubPage('password-reset'),
}));
vi.mock('../../pages/change-password/change-password-page', async () => ({
  ChangePasswordPage: (await import('./page-stubs')).stubPage('change-password'),
}));
