import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import { TOKEN_SCOPES } from '@scriptorium/common/api/tokens';
import { expect } from 'vitest';
import type { TestClient, TestServer } from './harness';

/** Calling the public API as a script does: a token, form fields or a query, no cookies. */

/** Every scope a token can have (read and write of each area). */
export const ALL_SCOPES: string[] = [...TOKEN_SCOPES];

export type Operation = keyof typeof v1Api;
export const OPERATIONS = Object.keys(v1Api) as Operation[];

export async function tokenOf(browser: TestClient, scopes: string[] = ALL_SCOPES): Promise<string> {
  const response = await browser.request('POST', '/api/user/tokens/create/', {
    form: { name: 'test', scopes, expires_in_days: 7 },
  });
  expect(response.status, response.text).toBe(200);
  return response.json<{ secret: string }>().secret;
}

export interface Answer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  json: <T = Record<string, unknown>>() => T;
}

/** One v1 call as a script makes it: the token (or none), form fields or a query, no cookies. */
export async function callV1(
  server: TestServer,
  token: string | null,
  operation: Operation,
  params: Record<string, string | number> = {},
  fields: Record<string, string | number> = {},
): Promise<Answer> {
  const target = v1Api[operation];
  const path = target.path.replace(/:([a-z_]+)/g, (_, name: string) => String(params[name]));
  const encoded = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const query = target.method === 'GET' && encoded.size ? `?${encoded}` : '';
  const response = await fetch(`${server.baseUrl}${path}${query}`, {
    method: target.method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: target.method === 'GET' ? undefined : encoded,
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    json: <T>() => JSON.parse(new TextDecoder().decode(bytes)) as T,
  };
}
