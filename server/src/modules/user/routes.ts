import type { okResponse } from '@scriptorium/common/api/base';
import { jsonField } from '@scriptorium/common/api/form';
import {
  type avatarResponse,
  type ConfirmKeyData,
  confirmKeyRequest,
  deleteAccountRequest,
  emailRequest,
  loginRequest,
  type loginResponse,
  passwordChangeRequest,
  passwordResetKeyResponse,
  passwordResetRequest,
  passwordResetSetRequest,
  profileData,
  socialAccountDeleteRequest,
} from '@scriptorium/common/api/user';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { HttpError, parseForm } from '../../http/errors';
import { endSession, requireUser, startSession } from '../../http/session';
import { drainMailQueue } from '../../mail/queue';
import { UploadBudgetExceeded } from '../../uploads/worker-pool';
import { AvatarRejected, avatarUrl, readAvatarUpload, removeAvatarFile, storeAvatar } from './avatar';
import { changePassword } from './commands/change-password';
import { deleteAccount } from './commands/delete-account';
import { deleteSocialAccount } from './commands/delete-social-account';
import {
  confirmEmail,
  findConfirmation,
  hasVerifiedEmail,
  sendEmailConfirmation,
} from './commands/email-confirmation';
import { login } from './commands/login';
import { addEmail, deleteEmail, setPrimaryEmail } from './commands/manage-emails';
import { requestPasswordReset } from './commands/request-password-reset';
import { resetPassword, userForResetKey } from './commands/reset-password';
import { saveProfile } from './commands/save-profile';
import { FieldMessagesError, fieldError, fieldMessagesBody, parseFields } from './field-errors';

type Ok = z.infer<typeof okResponse>;

/** Where the login answer sends a user whose only addresses are unverified (spec 4, Login). */
export const CONFIRM_EMAIL_LOCATION = '/account/confirm-email/';

/** Answers FieldMessagesError as `{ msg }`; anything else goes to the app's error handler. */
async function withFieldMessages<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FieldMessagesError) {
      return reply.code(error.statusCode).send(fieldMessagesBody(error, request.t));
    }
    throw error;
  }
}

export function userRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onClose', () => drainMailQueue(ctx));

    app.post('/login/', async (request, reply): Promise<z.infer<typeof loginResponse>> => {
      const input = parseForm(request, loginRequest);
      const user = await login(ctx, { login: input.login, password: input.password, ip: request.ip });
      if (!(await hasVerifiedEmail(ctx.db, user.id))) {
        // No session until an address is confirmed: a fresh link goes to the primary address.
        const email = await ctx.db
          .selectFrom('user_emails')
          .selectAll()
          .where('user_id', '=', user.id)
          .orderBy('is_primary', 'desc')
          .orderBy('id')
          .executeTakeFirst();
        if (email) {
          try {
            await sendEmailConfirmation(ctx, user, email);
          } catch (error) {
            request.log.error({ err: error }, 'confirmation mail could not be sent');
          }
        }
        return { location: CONFIRM_EMAIL_LOCATION };
      }
      await startSession(ctx, reply, user.id, input.remember);
      return { location: '/' };
    });

    // Open to visitors too: logging out twice (two tabs) is not an error.
    app.post('/logout/', async (request, reply): Promise<Ok> => {
      await endSession(ctx, request, reply);
      return { ok: true };
    });

    app.post('/password/reset/', async (request): Promise<Ok> => {
      const { email } = parseForm(request, passwordResetRequest);
      await requestPasswordReset(ctx, { email, ip: request.ip, log: request.log });
      return { ok: true };
    });

    app.post('/get_confirmkey_data/', async (request): Promise<ConfirmKeyData> => {
      const { key } = parseForm(request, confirmKeyRequest);
      const found = await findConfirmation(ctx.db, key);
      if (!found) throw new HttpError(404);
      return {
        username: found.user.username,
        email: found.email.address,
        verified: await hasVerifiedEmail(ctx.db, found.user.id),
        logout: request.user !== null && request.user.id !== found.user.id,
      };
    });

    app.delete<{ Params: { key: string } }>('/confirm-email/:key/', async (request): Promise<Ok> => {
      const found = await findConfirmation(ctx.db, request.params.key);
      if (!found) throw new HttpError(404);
      await confirmEmail(ctx, found);
      return { ok: true };
    });

    app.post('/save/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const { form_data } = parseFields(request, z.object({ form_data: jsonField(profileData) }));
        await saveProfile(ctx, user, form_data.user);
        return { ok: true };
      }),
    );

    app.post('/passwordchange/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const input = parseFields(request, passwordChangeRequest);
        await changePassword(ctx, user, {
          oldPassword: input.old_password,
          newPassword1: input.new_password1,
          newPassword2: input.new_password2,
          sessionHash: request.sessionHash,
        });
        return { ok: true };
      }),
    );

    app.post('/email/add/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const { email } = parseFields(request, emailRequest);
        await addEmail(ctx, user, email, request.log);
        return { ok: true };
      }),
    );

    app.post('/email/delete/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const { email } = parseFields(request, emailRequest);
        await deleteEmail(ctx, user, email);
        return { ok: true };
      }),
    );

    app.post('/email/primary/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const { email } = parseFields(request, emailRequest);
        await setPrimaryEmail(ctx, user, email);
        return { ok: true };
      }),
    );

    app.post('/socialaccountdelete/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const { socialaccount } = parseFields(request, socialAccountDeleteRequest);
        await deleteSocialAccount(ctx, user, socialaccount);
        return { ok: true };
      }),
    );

    app.post('/avatar/upload/', async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<z.infer<typeof avatarResponse>> => {
        const user = requireUser(request);
        if (!request.isMultipart()) throw fieldError('avatar', 'form.required');
        const upload = await readAvatarUpload(request);
        if (!upload || upload.bytes.length === 0) throw fieldError('avatar', 'form.required');
        let name: string;
        try {
          name = await storeAvatar(ctx.config, user.id, upload.bytes, upload.filename);
        } catch (error) {
          if (error instanceof AvatarRejected) throw fieldError('avatar', 'accounts.avatarType');
          if (error instanceof UploadBudgetExceeded)
            throw fieldError('avatar', 'errors.uploadProcessingLimit');
          throw error;
        }
        await ctx.db.updateTable('users').set({ avatar: name }).where('id', '=', user.id).execute();
        await removeAvatarFile(ctx.config.dataDir, user.avatar);
        return { avatar: avatarUrl(name) ?? '' };
      }),
    );

    app.post('/avatar/delete/', async (request): Promise<Ok> => {
      const user = requireUser(request);
      await ctx.db.updateTable('users').set({ avatar: null }).where('id', '=', user.id).execute();
      await removeAvatarFile(ctx.config.dataDir, user.avatar);
      return { ok: true };
    });

    app.post('/delete/', async (request, reply): Promise<Ok> => {
      const user = requireUser(request);
      const { password } = parseForm(request, deleteAccountRequest);
      await deleteAccount(ctx, user, password);
      await endSession(ctx, request, reply);
      return { ok: true };
    });
  };
}

/** /api/account/: the password-reset key check and the new password (spec 7). */
export function accountRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { key: string } }>(
      '/password/reset/key/:key/',
      async (request): Promise<z.infer<typeof passwordResetKeyResponse>> => {
        const user = await userForResetKey(ctx.db, request.params.key);
        if (!user) throw new HttpError(404);
        return passwordResetKeyResponse.parse({
          url: `/api/account/password/reset/key/${encodeURIComponent(request.params.key)}/`,
        });
      },
    );

    app.post<{ Params: { key: string } }>('/password/reset/key/:key/', async (request): Promise<Ok> => {
      const user = await userForResetKey(ctx.db, request.params.key);
      if (!user) throw new HttpError(404);
      const input = parseForm(request, passwordResetSetRequest);
      await resetPassword(ctx, user, input);
      return { ok: true };
    });
  };
}
