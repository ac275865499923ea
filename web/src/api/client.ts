import {
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
  encodeRequest,
} from '@scriptorium/common/api/endpoint';
import * as z from 'zod/mini';

// The page's Content-Security-Policy forbids eval (script-src 'self'). Without this, zod's first
// object parse probes for it with `new Function`, and the browser reports a CSP violation.
z.config({ jitless: true });

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

/** Spec section 6: every request carries the CSRF token from the cookie, and credentials. */
function requestHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const csrf = readCookie('csrftoken');
  if (csrf) headers['X-CSRFToken'] = csrf;
  return headers;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface CallOptions {
  /**
   * Reports the share of the body sent (0 to 1). Only XMLHttpRequest reports upload progress, so a
   * call with it goes through one; errors are ApiErrors all the same.
   */
  onUploadProgress?: (fraction: number) => void;
}

function sendWithProgress(
  method: string,
  url: string,
  body: XMLHttpRequestBodyInit | undefined,
  onProgress: (fraction: number) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    for (const [name, value] of Object.entries(requestHeaders())) request.setRequestHeader(name, value);
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const parsed = parseBody(request.responseText);
      if (request.status < 200 || request.status >= 300) {
        reject(new ApiError(request.status, request.statusText, parsed));
        return;
      }
      onProgress(1);
      resolve(parsed);
    };
    request.onerror = () => reject(new TypeError('Network error'));
    request.send(body ?? null);
  });
}

async function send(method: string, url: string, body: BodyInit | undefined): Promise<unknown> {
  const response = await fetch(url, { method, headers: requestHeaders(), body, credentials: 'same-origin' });
  const parsed = parseBody(await response.text());
  if (!response.ok) throw new ApiError(response.status, response.statusText, parsed);
  return parsed;
}

/**
 * Calls an endpoint of the common contract: the path (with its `:name` parameters) and the method
 * come from its description, the input is encoded as spec section 7 asks (arrays as name[], JSON
 * fields and objects as JSON text, files as multipart), and the answer is checked against the
 * response schema. Non-OK answers throw ApiError with the parsed body.
 */
export async function call<E extends Endpoint>(
  target: E,
  input?: EndpointInput<E>,
  options: CallOptions = {},
): Promise<EndpointOutput<E>> {
  const encoded = encodeRequest(target, (input ?? {}) as Record<string, unknown>);
  const answer = options.onUploadProgress
    ? await sendWithProgress(encoded.method, encoded.url, encoded.body, options.onUploadProgress)
    : await send(encoded.method, encoded.url, encoded.body);
  return z.parse(target.response, answer) as EndpointOutput<E>;
}
