import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, route } from '../app/testing/fake-fetch';
import { ApiError, call } from './client';

/** Just enough of XMLHttpRequest to drive an upload: progress events, then the answer. */
class FakeUpload {
  static last: FakeUpload | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeUpload.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.statusText = status === 200 ? 'OK' : 'Bad Request';
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

/** Plays a server that set (or expired) the script-readable CSRF cookie. */
function setCsrfCookie(value: string | null): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
  document.cookie = value === null ? 'csrftoken=; max-age=0' : `csrftoken=${value}`;
}

describe('call', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setCsrfCookie(null);
  });

  it('sends the CSRF token of the cookie and checks the answer against the response schema', async () => {
    setCsrfCookie('t0k3n');
    const fetch = fakeFetch({ [route(feedbackApi.send)]: json({ ok: true }) });
    await expect(call(feedbackApi.send, { message: 'Hello' })).resolves.toEqual({ ok: true });
    const init = fetch.fetch.mock.calls[0][1] as RequestInit;
    expect((init.headers as Record<string, string>)['X-CSRFToken']).toBe('t0k3n');
    expect(String(init.body)).toBe('message=Hello');
  });

  it('throws ApiError with status and parsed body on a non-OK answer', async () => {
    fakeFetch({ [route(userApi.deleteAccount)]: json({ error: 'forbidden', message: 'No.' }, 403) });
    const error = await call(userApi.deleteAccount, { password: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'No.' } });
  });

  it('reports upload progress of a multipart call and ends at 1', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const seen: number[] = [];
    const pending = call(
      userApi.uploadAvatar,
      { avatar: new File(['x'], 'me.png', { type: 'image/png' }) },
      { onUploadProgress: (fraction) => seen.push(fraction) },
    );
    const request = FakeUpload.last as FakeUpload;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(userApi.uploadAvatar.path);
    expect((request.body as FormData).get('avatar')).toBeInstanceOf(File);
    request.progress(50, 200);
    request.progress(200, 200);
    request.answer(200, { avatar: '/media/avatars/1-a.png' });
    await expect(pending).resolves.toEqual({ avatar: '/media/avatars/1-a.png' });
    expect(seen).toEqual([0.25, 1, 1]);
  });

  it('maps a refused upload to ApiError like any other call', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const pending = call(
      userApi.uploadAvatar,
      { avatar: new File(['x'], 'me.gif') },
      { onUploadProgress: () => undefined },
    );
    (FakeUpload.last as FakeUpload).answer(400, { msg: { avatar: ['Wrong type.'] } });
    await expect(pending).rejects.toMatchObject({ status: 400, body: { msg: { avatar: ['Wrong type.'] } } });
  });
});
