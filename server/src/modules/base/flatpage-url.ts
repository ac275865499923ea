/** Flat pages are stored as "/terms/": a leading and a trailing slash, whatever the caller sent. */
export function normaliseFlatpageUrl(url: string): string {
  const trimmed = url.trim().replace(/\/{2,}/g, '/');
  const withLeading = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  return withLeading.endsWith('/') ? withLeading : `${withLeading}/`;
}
