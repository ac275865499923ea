import type { TokenScope } from '@scriptorium/common/api/tokens';
import type { Language } from '@scriptorium/common/i18n/languages';
import type { UserRow } from '../db/rows';
import type { Translate } from '../i18n/translate';
import type { RequestToken } from './bearer';

// What the plugins of src/http add to every request.
declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user; loaded only for /api/ and /ws/ paths, null elsewhere and for visitors. */
    user: UserRow | null;
    /** The personal access token that authenticated the request (then there is no session). */
    apiToken: RequestToken | null;
    /** SHA-256 (hex) of the session cookie when it names a live session. */
    sessionHash: string | null;
    /**
     * The database's change stamp read by the session lookup, before any query of this request
     * (SQLite; see changeStamp): what the request's kept values are checked against.
     */
    changeStamp: string | undefined;
    /** The interface language of this request (saved, cookie, then Accept-Language). */
    language: Language;
    /** Translates a key of the `server` namespace into the request language. */
    t: Translate;
  }
  interface FastifyContextConfig {
    /** The scope a personal access token needs for this route; none: no token may call it. */
    tokenScope?: TokenScope;
  }
}
