import { setLanguageRequest, type setLanguageResponse } from '@scriptorium/common/api/base';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { baseCookieOptions, LANGUAGE_COOKIE } from '../../http/cookies';
import { parseForm } from '../../http/errors';
import { setRequestLanguage } from '../../http/language';
import { saveUserLanguage } from './commands/save-language';

const ONE_YEAR_S = 365 * 24 * 3600;

export function i18nRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.post('/setlang/', async (request, reply): Promise<z.infer<typeof setLanguageResponse>> => {
      const { language } = parseForm(request, setLanguageRequest);
      if (request.user) {
        await saveUserLanguage(ctx.db, request.user.id, language);
      }
      // The cookie too, so that the choice survives logout and reaches the pre-login pages.
      reply.setCookie(LANGUAGE_COOKIE, language, { ...baseCookieOptions(ctx.config), maxAge: ONE_YEAR_S });
      setRequestLanguage(request, language);
      return { language };
    });
  };
}
