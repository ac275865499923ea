import type { Configuration } from '@scriptorium/common/api/base';
import { render } from '@testing-library/react';
import { CONFIGURATION, fakeFetch, json, type Reply } from '../../app/testing/fake-fetch';
import { App } from '../app';

function isReply(value: Configuration | Reply | Reply[]): value is Reply | Reply[] {
  return (
    value instanceof Response || value instanceof Error || typeof value === 'function' || Array.isArray(value)
  );
}

/**
 * Starts the whole app the way a browser does: window.fetch answers the configuration (a
 * Configuration is sent as JSON; a reply, e.g. an error, as it is) and the other routes given.
 * Returns the fake server's record of requests and the render's unmount.
 */
export function startApp(
  configuration: Configuration | Reply | Reply[],
  routes: Record<string, Reply | Reply[]> = {},
) {
  const server = fakeFetch({
    [CONFIGURATION]: isReply(configuration) ? configuration : json(configuration),
    ...routes,
  });
  const { unmount } = render(<App />);
  return { ...server, unmount };
}
