import type { okResponse } from '@scriptorium/common/api/base';
import { endpointPath } from '@scriptorium/common/api/endpoint';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import {
  type avatarResponse,
  type ConfirmKeyData,
  type loginResponse,
  passwordResetKeyResponse,
} from '@scriptorium/common/api/user';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/rows';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { endSession, requireUser, startSession } from '../../http/session';
import { drainMailQueue } from '../../mail/queue';
import { UploadBudgetExceeded } from '../uploads/worker-pool';
import { AvatarRejected, avatarUrl, readAvatarUpload, replaceAvatar, storeAvatar } from './avatar';
import { changePassword } from './commands/change-password';
import { deleteAccount } from './commands/delete-account';
import { deleteSocialAccount } from './commands/delete-social-account';
import {
  confirmEmail,
  findConfirmation,
  hasVerifiedEmail,
  resendConfirmationOnLogin,
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
    app.addHook('onClose', async () => {
      await drainMailQueue(ctx);
      app.log.info('stopping: mail queue drained');
    });

    route(app, userApi.login, async (request, reply): Promise<z.infer<typeof loginResponse>> => {
      const input = parseInput(request, userApi.login);
      const user = await login(ctx, { login: input.login, password: input.password, ip: request.ip });
      if (!(await hasVerifiedEmail(ctx, user))) {
        try {
          await resendConfirmationOnLogin(ctx, user);
        } catch (error) {
          request.log.error({ err: error }, 'confirmation mail could not be sent');
        }
        return { location: CONFIRM_EMAIL_LOCATION };
      }
      await startSession(ctx, reply, user.id, input.remember);
      return { location: '/' };
    });

    // Open to visitors too: logging out twice (two tabs) is not an error.
    route(app, userApi.logout, async (request, reply): Promise<Ok> => {
      await endSession(ctx, request, reply);
      return { ok: true };
    });

    route(app, userApi.passwordReset, async (request): Promise<Ok> => {
      const { email } = parseInput(request, userApi.passwordReset);
      await requestPasswordReset(ctx, { email, ip: request.ip }, request.log);
      return { ok: true };
    });

    route(app, userApi.confirmKeyData, async (request): Promise<ConfirmKeyData> => {
      const found = await findConfirmation(ctx, parseInput(request, userApi.confirmKeyData));
      if (!found) throw new HttpError(404);
      return {
        username: found.user.username,
        email: found.email.address,
        verified: await hasVerifiedEmail(ctx, found.user),
        logout: request.user !== null && request.user.id !== found.user.id,
      };
    });

    route(app, userApi.confirmEmail, async (request): Promise<Ok> => {
      const found = await findConfirmation(ctx, { key: request.params.key });
      if (!found) throw new HttpError(404);
      await confirmEmail(ctx, found);
      return { ok: true };
    });

    route(app, userApi.saveProfile, async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const { form_data } = parseFields(request, userApi.saveProfile.request);
        await saveProfile(ctx, user, form_data.user);
        return { ok: true };
      }),
    );

    route(app, userApi.changePassword, async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        const input = parseFields(request, userApi.changePassword.request);
        await changePassword(ctx, user, {
          oldPassword: input.old_password,
          newPassword1: input.new_password1,
          newPassword2: input.new_password2,
          sessionHash: request.sessionHash,
        });
        return { ok: true };
      }),
    );

    // The three address calls differ only in their command.
    const emailCommands = [
      [
        userApi.addEmail,
        (user: UserRow, email: string, log: FastifyBaseLogger) => addEmail(ctx, user, { email }, log),
      ],
      [userApi.deleteEmail, (user: UserRow, email: string) => deleteEmail(ctx, user, { email })],
      [userApi.primaryEmail, (user: UserRow, email: string) => setPrimaryEmail(ctx, user, { email })],
    ] as const;
    for (const [target, command] of emailCommands) {
      route(app, target, async (request, reply) =>
        withFieldMessages(request, reply, async (): Promise<Ok> => {
          const user = requireUser(request);
          const { email } = parseFields(request, target.request);
          await command(user, email, request.log);
          return { ok: true };
        }),
      );
    }

    route(app, userApi.deleteSocialAccount, async (request, reply) =>
      withFieldMessages(request, reply, async (): Promise<Ok> => {
        const user = requireUser(request);
        await deleteSocialAccount(ctx, user, parseFields(request, userApi.deleteSocialAccount.request));
        return { ok: true };
      }),
    );

    route(app, userApi.uploadAvatar, async (request, reply) =>
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
        await replaceAvatar(ctx, user, name);
        return { avatar: avatarUrl(name) ?? '' };
      }),
    );

    route(app, userApi.deleteAvatar, async (request): Promise<Ok> => {
      const user = requireUser(request);
      await replaceAvatar(ctx, user, null);
      return { ok: true };
    });

    route(app, userApi.deleteAccount, async (request, reply): Promise<Ok> => {
      const user = requireUser(request);
      await deleteAccount(ctx, user, parseInput(request, userApi.deleteAccount));
      await endSession(ctx, request, reply);
      return { ok: true };
    });
  };
}

/** /api/account/: the password-reset key check and the new password (spec 7). */
export function accountRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(
      app,
      userApi.passwordResetKey,
      async (request): Promise<z.infer<typeof passwordResetKeyResponse>> => {
        const user = await userForResetKey(ctx, { key: request.params.key });
        if (!user) throw new HttpError(404);
        return passwordResetKeyResponse.parse({
          url: endpointPath(userApi.passwordResetSet, { key: request.params.key }),
        });
      },
    );

    route(app, userApi.passwordResetSet, async (request): Promise<Ok> => {
      const user = await userForResetKey(ctx, { key: request.params.key });
      if (!user) throw new HttpError(404);
      const input = parseInput(request, userApi.passwordResetSet);
      await resetPassword(ctx, user, input);
      return { ok: true };
    });
  };
}
