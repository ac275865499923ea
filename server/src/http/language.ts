import {
  DEFAULT_LANGUAGE,
  isLanguage,
  type Language,
  matchLanguage,
} from '@scriptorium/common/i18n/languages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translator } from '../i18n/translate';
import { LANGUAGE_COOKIE } from './cookies';

export function setRequestLanguage(request: FastifyRequest, language: Language): void {
  request.language = language;
  request.t = translator('server', language);
}

/**
 * Runs first, before anything can fail, so that every answer (even a CSRF 403) is translated:
 * the `language` cookie, else the browser's Accept-Language, else the site's default language
 * (staff set it in /admin/settings/; read only when the visitor names none of ours, and the
 * built-in default when the settings cannot be read).
 */
export function registerVisitorLanguage(app: FastifyInstance, siteDefault: () => Promise<Language>): void {
  app.decorateRequest('language', 'en');
  app.decorateRequest('t', translator('server', DEFAULT_LANGUAGE));
  app.addHook('onRequest', async (request) => {
    const cookie = request.cookies[LANGUAGE_COOKIE];
    if (isLanguage(cookie)) return setRequestLanguage(request, cookie);
    const named = matchLanguage(request.headers['accept-language']);
    setRequestLanguage(request, named ?? (await siteDefault().catch(() => DEFAULT_LANGUAGE)));
  });
}

/** Runs after the session hook: the language saved on the user wins over cookie and browser. */
export function registerUserLanguage(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const saved = request.user?.language;
    if (isLanguage(saved)) setRequestLanguage(request, saved);
  });
}
