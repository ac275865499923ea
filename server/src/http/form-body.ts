/** A parsed form body: plain fields as strings, `name[]` fields as string arrays under `name`. */
export type FormBody = Record<string, string | string[]>;

/**
 * Spec section 7 sends arrays as repeated `name[]` entries. They become `body.name = [...]` so
 * that the common zod schemas can describe them as arrays. A repeated plain field keeps its last
 * value, as browsers' forms and Django do.
 */
export function parseFormBody(text: string): FormBody {
  // No prototype: a field called "__proto__" or "constructor" stays an ordinary field.
  const body: FormBody = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const existing = body[name];
      if (Array.isArray(existing)) existing.push(value);
      else body[name] = [value];
    } else {
      body[key] = value;
    }
  }
  return body;
}
