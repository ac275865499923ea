/**
 * The lower-cased name columns the staff users search matches prefixes of (migration 019),
 * written with the names wherever they change. JavaScript lower-cases every script; SQLite's
 * lower() folds ASCII only, so the database cannot compute them itself.
 */
export function searchNames(
  firstName: string,
  lastName: string,
): { full_name_lower: string; last_name_lower: string } {
  return {
    full_name_lower: `${firstName} ${lastName}`.toLowerCase(),
    last_name_lower: lastName.toLowerCase(),
  };
}
