import { encodeForm } from '@scriptorium/common/api/form';
import type { z } from 'zod';

/** A non-OK HTTP answer (spec section 7: non-OK responses are thrown as errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The parsed JSON body when there was one. */
    readonly body: unknown,
  ) {
    super(`${status} ${statusText}`);
    this.name = 'ApiError';
  }
}

export function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(prefix)) return decodeURIComponent(trimmed.slice(prefix.length));
  }
  return undefined;
}

async function send(method: string, path: string, body?: BodyInit): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Spec section 6: every request carries the CSRF token from the cookie, and credentials.
  const csrf = readCookie('csrftoken');
  if (csrf) headers['X-CSRFToken'] = csrf;
  const response = await fetch(path, { method, headers, body, credentials: 'same-origin' });
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) throw new ApiError(response.status, response.statusText, parsed);
  return parsed;
}

function validated<T extends z.ZodType>(schema: T | undefined, value: unknown): z.output<T> {
  return (schema ? schema.parse(value) : value) as z.output<T>;
}

export async function apiGet<T extends z.ZodType>(path: string, schema?: T): Promise<z.output<T>> {
  return validated(schema, await send('GET', path));
}

/** POST form-encoded (arrays as name[], objects as JSON text), or multipart when given FormData. */
export async function apiPost<T extends z.ZodType>(
  path: string,
  payload: Record<string, unknown> | FormData = {},
  schema?: T,
): Promise<z.output<T>> {
  const body = payload instanceof FormData ? payload : encodeForm(payload);
  return validated(schema, await send('POST', path, body));
}

export async function apiDelete<T extends z.ZodType>(
  path: string,
  payload: Record<string, unknown> = {},
  schema?: T,
): Promise<z.output<T>> {
  return validated(schema, await send('DELETE', path, encodeForm(payload)));
}
