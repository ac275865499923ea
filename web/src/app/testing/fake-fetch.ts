import type { Configuration } from '@scriptorium/common/api/base';
import type { Endpoint } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { vi } from 'vitest';

/** One request the app sent, as the server would see it. */
export interface SentRequest {
  method: string;
  url: string;
  body: URLSearchParams | null;
}

/** The key fakeFetch answers an endpoint by: "METHOD /path/". */
export function route(target: Endpoint): string {
  return `${target.method} ${target.path}`;
}

export type Reply = Response | Error | ((request: SentRequest) => Response | Error);

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: status === 200 ? 'OK' : 'Error',
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Replaces window.fetch for one test: answers by "METHOD /path/" (each entry is a queue when it is
 * an array, the last reply repeating) and records every request.
 */
export function fakeFetch(routes: Record<string, Reply | Reply[]>) {
  const requests: SentRequest[] = [];
  const served = new Map<string, number>();
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = init?.body instanceof URLSearchParams ? init.body : null;
    const request = { method, url, body };
    requests.push(request);
    const key = `${method} ${url}`;
    const entry = routes[key];
    if (entry === undefined) return json({ error: 'not_found', message: `No fake for ${key}` }, 404);
    const queue = Array.isArray(entry) ? entry : [entry];
    const index = served.get(key) ?? 0;
    served.set(key, index + 1);
    const reply = queue[Math.min(index, queue.length - 1)];
    const answer = typeof reply === 'function' ? reply(request) : reply;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  });
  vi.stubGlobal('fetch', fetch);
  return {
    requests,
    fetch,
    count: (key: string) => requests.filter((r) => `${r.method} ${r.url}` === key).length,
  };
}

export const anonymousConfiguration: Configuration = {
  user: { is_authenticated: false },
  socialaccount_providers: [],
  ws_url_base: '/ws',
  language: 'en',
  contact_email: null,
  plugins: [],
};

export function userConfiguration(overrides: Partial<Configuration> = {}): Configuration {
  return {
    ...anonymousConfiguration,
    user: {
      is_authenticated: true,
      id: 7,
      username: 'ada',
      first_name: 'Ada',
      last_name: 'Lovelace',
      name: 'Ada Lovelace',
      avatar: null,
      emails: [{ address: 'ada@example.org', primary: true, verified: true }],
      socialaccounts: [],
      waiting_invites: false,
      is_staff: false,
    },
    ...overrides,
  };
}

export const CONFIGURATION = route(baseApi.configuration);
