/** The screens of /admin/<section>/, in the order of the admin navigation. */
export const ADMIN_SECTIONS = ['users', 'pages', 'messages', 'feedback', 'settings', 'log'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

export function isAdminSection(value: string | undefined): value is AdminSection {
  return (ADMIN_SECTIONS as readonly string[]).includes(value ?? '');
}

/** The section an address names; /admin/ itself shows the users. */
export function adminSectionOf(value: string | null | undefined): AdminSection {
  return isAdminSection(value ?? undefined) ? (value as AdminSection) : 'users';
}
