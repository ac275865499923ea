import { type Engine, useServer, useStarted } from './harness';

/** The site address of the social login tests: the provider sends the browser back to it. */
export const SOCIAL_SITE = 'http://scriptorium.test';

/**
 * A fake provider (`start` runs before the suite, `close` after it) and a test server whose one
 * social login provider is the fake's `settings` (its entry of SOCIAL_PROVIDERS, read when the
 * server starts), over plain HTTP as the fakes speak it.
 */
export function useServerWithFakeProvider<
  Fake extends { settings: Record<string, unknown>; close(): Promise<void> },
>(engine: Engine, what: string, start: () => Promise<Fake>) {
  const fake = useStarted(what, start);
  const server = useServer(engine, {
    env: () => ({
      SITE_URL: SOCIAL_SITE,
      SOCIAL_PROVIDERS: JSON.stringify([{ ...fake().settings, allow_http: true }]),
    }),
  });
  return { fake, server };
}
