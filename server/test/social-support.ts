import { type Engine, useServer } from './harness';

/** The site address of the social login tests: the provider sends the browser back to it. */
export const SOCIAL_SITE = 'http://scriptorium.test';

/** A test server whose one social login provider is `provider()` (read when the server starts). */
export function useServerWithProvider(engine: Engine, provider: () => Record<string, unknown>) {
  return useServer(engine, {
    env: () => ({ SITE_URL: SOCIAL_SITE, SOCIAL_PROVIDERS: JSON.stringify([provider()]) }),
  });
}
