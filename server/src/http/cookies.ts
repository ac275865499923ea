import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../config';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
export const LANGUAGE_COOKIE = 'language';

/** Cookies are Secure only when the site is served over https (plain http in development and tests). */
export function baseCookieOptions(config: Pick<Config, 'siteUrl'>): CookieSerializeOptions {
  return { path: '/', sameSite: 'lax', secure: config.siteUrl.startsWith('https://') };
}
