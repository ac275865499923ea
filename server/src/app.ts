/**
 * The HTTP app. A request passes, in order:
 *   1. cookie parsing, then the visitor language (cookie `language`, else Accept-Language), so
 *      that even the earliest error answer is translated;
 *   2. readiness: while starting or migrating, GET /api/base/configuration/ answers 405 and any
 *      other /api/ or ${ws_url_base}/ call 503, before the database is touched;
 *   3. CSRF: a `csrftoken` cookie is handed out when missing; POST/PUT/PATCH/DELETE must echo it
 *      in X-CSRFToken, else 403 (not for an /api/ call with `Authorization: Bearer`);
 *   4. session: for /api/ and ${ws_url_base}/ paths the `sessionid` cookie is looked up (by its SHA-256) and
 *      `request.user` set, or instead a bearer token (modules/tokens/bearer.ts: only routes whose
 *      endpoint has a token scope take one); then the user's saved language replaces the visitor language;
 *   5. body parsing: form-encoded (`name[]` becomes an array), JSON, or multipart for uploads;
 *   6. the route of a module (src/modules/<area>/routes.ts): parse with the common zod schema,
 *      check the policy, run the command, answer with the presenter;
 *   7. errors: validation -> 400 `{ form: { errors, fields } }`, HttpError -> `{ error, message }`,
 *      anything else -> 500 without details; unknown paths -> 404 JSON, or the app shell
 *      (index.html) for GET/HEAD outside /api/, /media/, ${ws_url_base}/ and /assets/;
 *   8. on the way out: security headers (CSP and friends) on every answer, and JSON answers of
 *      2 KiB or more compressed (Brotli or gzip) for a client that accepts it (compression.ts).
 */
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './context';
import { registerCompression } from './http/compression';
import { registerCsrf } from './http/csrf';
import { handleError } from './http/errors';
import { parseFormBody } from './http/form-body';
import { registerUserLanguage, registerVisitorLanguage } from './http/language';
import { registerHealth, registerReadiness } from './http/readiness';
import { trackConnections } from './http/shutdown';
import { adminRoutes } from './modules/admin/routes';
import { baseRoutes } from './modules/base/routes';
import { keptSettings, readSettings } from './modules/base/settings';
import { bibliographyRoutes } from './modules/bibliography/routes';
import { contactsRoutes } from './modules/contacts/routes';
import { createDocumentEndpoint } from './modules/documents/collab/document-endpoint';
import { documentsRoutes } from './modules/documents/routes';
import { feedbackRoutes } from './modules/feedback/routes';
import { i18nRoutes } from './modules/i18n/routes';
import { importRoutes } from './modules/imports/routes';
import { socialRoutes } from './modules/social/routes';
import { staffRoutes } from './modules/staff/routes';
import { authenticateBearer } from './modules/tokens/bearer';
import { tokenRoutes } from './modules/tokens/routes';
import { avatarRoutes } from './modules/user/avatar-routes';
import { accountRoutes, userRoutes } from './modules/user/routes';
import { mediaRoutes } from './modules/usermedia/media-routes';
import { usermediaRoutes } from './modules/usermedia/routes';
import { v1Routes } from './modules/v1/routes';
import { pluginWebsocketEndpoints, registerPlugins } from './plugins/registry';
import { websocketPlugin } from './ws/plugin';
import { registerUpgradeCleanup } from './ws/upgrade-cleanup';
import './http/request-types';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSession } from './http/session';
import { registerSpa } from './http/spa';

export interface BuildAppOptions {
  /**
   * Fastify logger setting; tests pass false (or a stream, to read what is logged); main.ts an
   * asynchronous, bounded destination (the default writes synchronously).
   */
  logger?: boolean | { level: string; stream?: { write(line: string): unknown } };
  /**
   * Extra registrations (e.g. the websocket endpoints of src/ws), run after the API routes and
   * before the app-shell fallback; they see every hook above.
   */
  extensions?: Array<(app: FastifyInstance, ctx: AppContext) => Promise<void>>;
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: 'info' },
    trustProxy: ctx.config.trustProxy,
    bodyLimit: ctx.config.maxUploadBytes,
    // Route paths of the spec end in '/'; a missing trailing slash is the same route.
    routerOptions: { ignoreTrailingSlash: true },
  });

  // What a stop may cut at once and what it waits for (shutdown.ts).
  trackConnections(app);
  // Awaited so that each plugin's hooks are in place before the next hook is added.
  await app.register(fastifyCookie);
  registerVisitorLanguage(
    app,
    () =>
      keptSettings(ctx.db)?.default_language ??
      readSettings(ctx.db).then((settings) => settings.default_language),
  );
  registerReadiness(app, ctx);
  registerUpgradeCleanup(app);
  registerCsrf(app, ctx);
  registerSession(app, ctx, authenticateBearer);
  registerUserLanguage(app);
  registerSecurityHeaders(app, ctx);
  registerCompression(app);
  registerHealth(app, ctx);

  await app.register(fastifyFormbody, { parser: parseFormBody, bodyLimit: ctx.config.maxUploadBytes });
  await app.register(fastifyMultipart, { limits: { fileSize: ctx.config.maxUploadBytes, files: 20 } });

  app.setErrorHandler(handleError);

  // Module routes carry their full paths from common/src/api/endpoints; the others take a prefix.
  const moduleRoutes = [
    baseRoutes,
    staffRoutes,
    adminRoutes,
    userRoutes,
    accountRoutes,
    socialRoutes,
    contactsRoutes,
    i18nRoutes,
    feedbackRoutes,
    documentsRoutes,
    importRoutes,
    usermediaRoutes,
    bibliographyRoutes,
    tokenRoutes,
    v1Routes,
  ];
  for (const routes of moduleRoutes) await app.register(routes(ctx));
  await app.register(avatarRoutes(ctx), { prefix: '/media/avatars' });
  await app.register(mediaRoutes(ctx), { prefix: '/media' });
  await registerPlugins(app, ctx);

  await app.register(
    websocketPlugin(ctx, { endpoints: [createDocumentEndpoint(), ...pluginWebsocketEndpoints(ctx)] }),
  );
  for (const extend of options.extensions ?? []) await extend(app, ctx);

  await registerSpa(app, ctx);
  return app;
}
