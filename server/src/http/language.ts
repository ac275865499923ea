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
export function registerVisitorLanguage(
  app: FastifyInstance,
  /** At once when the settings are at hand, else a promise. */
  siteDefault: () => Language | Promise<Language>,
): void {
  app.decorateRequest('language', 'en');
  app.decorateRequest('t', translator('server', DEFAULT_LANGUAGE));
  // Callbacks, not async: on every request, and an async hook costs a promise and a turn.
  app.addHook('onRequest', (request, _reply, done) => {
    const cookie = request.cookies[LANGUAGE_COOKIE];
    const named = isLanguage(cookie) ? cookie : matchLanguage(request.headers['accept-language']);
    const language = named ?? siteDefault();
    if (typeof language === 'string') {
      setRequestLanguage(request, language);
      return done();
    }
    void language
      .catch(() => DEFAULT_LANGUAGE)
      .then((fallback) => {
        setRequestLanguage(request, fallback);
        done();
      });
  });
}

/** Runs after the session hook: the language saved on the user wins over cookie and browser. */
export function registerUserLanguage(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const saved = request.user?.language;
    if (isLanguage(saved)) setRequestLanguage(request, saved);
    done();
  });
}
