/**
 * How a name is compared in the staff users search: lower-cased in every script and without its
 * accents, so "emilie du chat" finds "Émilie du Châtelet" (JavaScript lower-cases every script;
 * SQLite's lower() folds ASCII only, so the database cannot compute this itself).
 */
export function searchFold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The folded name columns the staff users search matches prefixes of (migrations 019 and 020),
 * written with the names wherever they change.
 */
export function searchNames(
  firstName: string,
  lastName: string,
): { full_name_lower: string; last_name_lower: string } {
  return {
    full_name_lower: searchFold(`${firstName} ${lastName}`),
    last_name_lower: searchFold(lastName),
  };
}
