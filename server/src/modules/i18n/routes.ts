import { i18nApi } from '@scriptorium/common/api/endpoints/base';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { baseCookieOptions, LANGUAGE_COOKIE } from '../../http/cookies';
import { parseInput, route } from '../../http/endpoint';
import { setRequestLanguage } from '../../http/language';
import { saveUserLanguage } from './commands/save-language';

const ONE_YEAR_S = 365 * 24 * 3600;

export function i18nRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, i18nApi.setLanguage, async (request, reply) => {
      const input = parseInput(request, i18nApi.setLanguage);
      const { language } = input;
      if (request.user) await saveUserLanguage(ctx, request.user, input);
      // The cookie too, so that the choice survives logout and reaches the pre-login pages.
      reply.setCookie(LANGUAGE_COOKIE, language, { ...baseCookieOptions(ctx.config), maxAge: ONE_YEAR_S });
      setRequestLanguage(request, language);
      return { language };
    });
  };
}
