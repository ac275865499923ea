/** The API reference page's address (issue 57); its own module, so menus link it without its chunk. */
export const API_REFERENCE_PATH = '/help/api/';

/** The profile page's personal access tokens section (web/src/pages/profile/access-tokens.tsx). */
export const ACCESS_TOKENS_ID = 'access-tokens';
export const ACCESS_TOKENS_LINK = `/user/profile/#${ACCESS_TOKENS_ID}`;
