import { describeSpecTexts } from '../../i18n/spec-texts';

describeSpecTexts(
  'contacts',
  {
    empty: 'No contacts available',
    noResults: 'No contacts found',
    loadError: 'Could not obtain contacts list',
    'menu.invite': 'Invite contact',
    'menu.deleteSelected': 'Delete selected',
    'inviteDialog.placeholder': 'e-mail address or username',
    'inviteErrors.1': 'You cannot add yourself to your contacts!',
    'inviteErrors.2': 'This person is already in your contacts!',
    'inviteErrors.3': 'Invalid email!',
    respond: 'Respond',
    waitingInvites: 'Other users have requested to connect with you...',
    goToContacts: 'Go to contacts',
  },
  'sections 2.4 and 8',
);
