import { ADMIN_PAGE_SIZE } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { registerStaffOnly, staffOf } from '../../http/staff-only';
import { translator } from '../../i18n/translate';
import { NoServerReachedError, sendSystemMessage } from '../../ws/system-message';
import { forgetSettings, orderProviders, readSettings, writeSettings } from '../base/settings';
import { presentProviders } from '../social/providers';
import { audit, listAuditLog } from './audit';
import { listFeedback, setFeedbackDone } from './commands/feedback';
import { deleteFlatpage, listFlatpages, saveFlatpageAsStaff } from './commands/flatpages';
import { presence } from './commands/presence';
import {
  changeAccountEmail,
  createAccount,
  deleteAccountAsStaff,
  deletionSummary,
  resendConfirmations,
  resetLockout,
  setAccountActive,
  updateAccount,
} from './commands/users';
import { cleanFlatpageHtml, warmFlatpageWorker } from './flatpage-content';
import { searchUsers } from './user-search';

/**
 * The staff area's API (common adminApi): users, flat pages, system messages and presence,
 * feedback, site settings and the audit log. Every route answers 404 to anyone but staff
 * (policies.ts); every change writes an audit line in the same transaction.
 */
export function adminRoutes(ctx: AppContext): FastifyPluginAsync {
  // Refusals and mails use 'admin:<key>' through the server translator: load the namespace now.
  for (const language of LANGUAGES) translator('admin', language);

  return async (app) => {
    registerStaffOnly(app);

    // ---- Users ----
    route(app, adminApi.users, async (request) => {
      const input = parseInput(request, adminApi.users);
      const { users, total, capped } = await searchUsers(ctx.db, ctx.dialect, input);
      return { users, total, capped, page: input.page, page_size: ADMIN_PAGE_SIZE };
    });
    route(app, adminApi.createUser, async (request) => {
      const staff = staffOf(request);
      const input = parseInput(request, adminApi.createUser);
      return { user: await createAccount(ctx, staff, input, request.log) };
    });
    route(app, adminApi.updateUser, async (request) => {
      const staff = staffOf(request);
      return { user: await updateAccount(ctx, staff, parseInput(request, adminApi.updateUser)) };
    });
    route(app, adminApi.setUserActive, async (request) => {
      const staff = staffOf(request);
      return { user: await setAccountActive(ctx, staff, parseInput(request, adminApi.setUserActive)) };
    });
    route(app, adminApi.userEmail, async (request) => {
      const staff = staffOf(request);
      return { user: await changeAccountEmail(ctx, staff, parseInput(request, adminApi.userEmail)) };
    });
    route(app, adminApi.deletionSummary, async (request) => {
      return deletionSummary(ctx, parseInput(request, adminApi.deletionSummary));
    });
    route(app, adminApi.deleteUser, async (request) => {
      const staff = staffOf(request);
      await deleteAccountAsStaff(ctx, staff, parseInput(request, adminApi.deleteUser));
      return { ok: true } as const;
    });
    route(app, adminApi.resendConfirmation, async (request) => {
      const staff = staffOf(request);
      return {
        count: await resendConfirmations(ctx, staff, parseInput(request, adminApi.resendConfirmation)),
      };
    });
    route(app, adminApi.resetLockout, async (request) => {
      const staff = staffOf(request);
      return { user: await resetLockout(ctx, staff, parseInput(request, adminApi.resetLockout)) };
    });

    // ---- Flat pages ----
    route(app, adminApi.flatpages, async (request) => {
      warmFlatpageWorker(ctx.config);
      return { pages: await listFlatpages(ctx, request.language) };
    });
    route(app, adminApi.saveFlatpage, async (request) => {
      const staff = staffOf(request);
      return { page: await saveFlatpageAsStaff(ctx, staff, parseInput(request, adminApi.saveFlatpage)) };
    });
    route(app, adminApi.previewFlatpage, async (request) => {
      const { content } = parseInput(request, adminApi.previewFlatpage);
      return { content: await cleanFlatpageHtml(ctx.config, content) };
    });
    route(app, adminApi.deleteFlatpage, async (request) => {
      const staff = staffOf(request);
      await deleteFlatpage(ctx, staff, parseInput(request, adminApi.deleteFlatpage));
      return { ok: true } as const;
    });

    // ---- System messages and presence ----
    route(app, adminApi.sendSystemMessage, async (request) => {
      const staff = staffOf(request);
      const { message } = parseInput(request, adminApi.sendSystemMessage);
      let processes: number;
      try {
        processes = await sendSystemMessage(ctx, message);
      } catch (error) {
        if (error instanceof NoServerReachedError) throw new HttpError(503);
        throw error;
      }
      await audit(ctx.db, staff, 'system_message.send', '', { message, processes });
      return { processes };
    });
    route(app, adminApi.presence, async () => presence(ctx));

    // ---- Feedback ----
    route(app, adminApi.feedback, async (request) => {
      const input = parseInput(request, adminApi.feedback);
      const { items, total } = await listFeedback(ctx, input);
      return { items, total, page: input.page, page_size: ADMIN_PAGE_SIZE };
    });
    route(app, adminApi.setFeedbackDone, async (request) => {
      const staff = staffOf(request);
      await setFeedbackDone(ctx, staff, parseInput(request, adminApi.setFeedbackDone));
      return { ok: true } as const;
    });

    // ---- Site settings ----
    const presentSettings = async () => {
      const settings = await readSettings(ctx.db);
      const providers = orderProviders(presentProviders(ctx.config), settings.provider_order);
      return { settings, providers: providers.map(({ id, name }) => ({ id, name })) };
    };
    route(app, adminApi.settings, async () => presentSettings());
    route(app, adminApi.saveSettings, async (request) => {
      const staff = staffOf(request);
      const input = parseInput(request, adminApi.saveSettings);
      const known = new Set(presentProviders(ctx.config).map((provider) => provider.id));
      const settings = {
        support_email: input.support_email,
        // Only configured providers, each once.
        provider_order: [...new Set(input.provider_order)].filter((id) => known.has(id)),
        default_language: input.default_language,
      };
      forgetSettings(ctx.db);
      const before = await readSettings(ctx.db);
      await ctx.db.transaction().execute(async (trx) => {
        await writeSettings(trx, settings);
        const changes = Object.fromEntries(
          Object.entries(settings)
            .filter(
              ([key, value]) => JSON.stringify(before[key as keyof typeof before]) !== JSON.stringify(value),
            )
            .map(([key, value]) => [key, [before[key as keyof typeof before], value]]),
        );
        await audit(trx, staff, 'settings.update', '', changes);
      });
      forgetSettings(ctx.db);
      return presentSettings();
    });

    // ---- Audit log ----
    route(app, adminApi.log, async (request) => {
      const { page } = parseInput(request, adminApi.log);
      const { entries, total } = await listAuditLog(ctx.db, page);
      return { entries, total, page, page_size: ADMIN_PAGE_SIZE };
    });
  };
}
