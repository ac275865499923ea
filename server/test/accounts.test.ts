import { endpointPath } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ENGINES, formErrors, type TestClient, useServer } from './harness';
import { addEmailAddress } from './seed';
import { linkIn, mailText, useSmtpSink } from './smtp-sink';

const REQUIRED = 'This field is required.';

/** Decodes the quoted-printable text of a received mail enough to find its links. */
async function uploadAvatar(browser: TestClient, bytes: Buffer, filename: string) {
  const response = await browser.call(userApi.uploadAvatar, {
    avatar: new File([new Uint8Array(bytes)], filename),
  });
  return { status: response.status, json: response.json() };
}

describe.each(ENGINES)('accounts (%s)', (engine) => {
  const sink = useSmtpSink();
  const server = useServer(engine, {
    env: () => ({ SMTP_URL: sink().url, SITE_URL: 'https://scriptorium.example', LOGIN_LOCK_SECONDS: '900' }),
  });

  async function nextMail(to: string) {
    const before = sink().messages.length;
    return async () => {
      const all = await sink().waitFor(before + 1);
      const mail = all.slice(before).find((m) => m.to.includes(to));
      if (!mail) throw new Error(`no mail to ${to}`);
      return mail;
    };
  }

  describe('password reset', () => {
    it('mails a single-use link, sets the new password and ends all sessions', async () => {
      const user = await server().buildUser({ language: 'de' });
      const other = await server().loginAs(user);
      const awaitMail = await nextMail(user.email);
      const request = await server()
        .client()
        .call(userApi.passwordReset, { email: user.email.toUpperCase() });
      expect(request.status).toBe(200);
      const mail = await awaitMail();
      // The recipient's language, with absolute links from SITE_URL, as text and HTML.
      expect(mail.header('subject')).toContain('Passwort');
      expect(mail.raw).toContain('text/html');
      expect(mailText(mail.raw)).toContain('https://scriptorium.example/account/change-password/');
      const key = linkIn(mail.raw, '/account/change-password/');

      // The visitor's answers come in the browser's language.
      const visitor = server().client({ 'accept-language': 'de' });
      const check = await visitor.call(userApi.passwordResetKey, { key });
      expect(check.status).toBe(200);
      const { url } = check.json<{ url: string }>();
      expect(url).toBe(endpointPath(userApi.passwordResetSet, { key }));

      const empty = await visitor.post(url, { password1: '', password2: '' });
      expect(empty.status).toBe(400);
      expect(empty.json()).toEqual(
        formErrors({
          password1: ['Dieses Feld ist erforderlich.'],
          password2: ['Dieses Feld ist erforderlich.'],
        }),
      );
      const mismatch = await visitor.post(url, { password1: 'new secret one', password2: 'new secret two' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.json()).toEqual(
        formErrors({ password2: ['Sie müssen zweimal dasselbe Passwort eingeben.'] }),
      );

      const done = await visitor.post(url, { password1: 'brand new secret', password2: 'brand new secret' });
      expect(done.status).toBe(200);
      // Single use.
      expect((await visitor.call(userApi.passwordResetKey, { key })).status).toBe(404);
      expect((await visitor.post(url, { password1: 'again again', password2: 'again again' })).status).toBe(
        404,
      );
      // The old session is over; only the new password logs in.
      expect(
        (await other.call(baseApi.configuration)).json<{ user: { is_authenticated: boolean } }>().user,
      ).toEqual({ is_authenticated: false });
      const oldLogin = await server()
        .client()
        .call(userApi.login, { login: user.username, password: user.password });
      expect(oldLogin.status).toBe(400);
      await server().loginAs({ ...user, password: 'brand new secret' });
    });

    it('answers the same for unknown addresses and sends nothing', async () => {
      const before = sink().messages.length;
      const response = await server().client().call(userApi.passwordReset, { email: 'nobody@example.net' });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      // Then a reset for a real account: once its mail is in the outbox, a mail for the unknown
      // address, asked for first, would be there as well.
      const user = await server().buildUser();
      await server().client().call(userApi.passwordReset, { email: user.email });
      const mails = await sink().waitFor(before + 1);
      expect(mails.slice(before).map((m) => m.to)).toEqual([[user.email]]);
    });

    it('requires a valid e-mail', async () => {
      const browser = server().client();
      const empty = await browser.call(userApi.passwordReset, { email: '' });
      expect(empty.status).toBe(400);
      expect(empty.json()).toEqual(formErrors({ email: [REQUIRED] }));
      const invalid = await browser.call(userApi.passwordReset, { email: 'not-an-address' });
      expect(invalid.json()).toEqual(formErrors({ email: ['This is not a valid email.'] }));
    });

    it('refuses unknown and expired keys', async () => {
      const user = await server().buildUser();
      expect((await server().client().call(userApi.passwordResetKey, { key: 'made-up-key' })).status).toBe(
        404,
      );
      const awaitMail = await nextMail(user.email);
      await server().client().call(userApi.passwordReset, { email: user.email });
      const key = linkIn((await awaitMail()).raw, '/account/change-password/');
      await server()
        .ctx.db.updateTable('password_resets')
        .set({ created_at: Date.now() - 3 * 24 * 3600 * 1000 - 1 })
        .where('user_id', '=', user.id)
        .execute();
      expect((await server().client().call(userApi.passwordResetKey, { key })).status).toBe(404);
    });

    it('rate-limits requests from one client address', async () => {
      // Every test client comes from 127.0.0.1: count until that address's budget is spent.
      const browser = server().client();
      let status = 200;
      for (let i = 0; i < 12 && status === 200; i++) {
        status = (await browser.call(userApi.passwordReset, { email: `flood${i}@example.net` })).status;
      }
      expect(status).toBe(429);
      await server().ctx.db.deleteFrom('login_attempts').execute();
    });
  });

  describe('e-mail confirmation', () => {
    it('sends a confirmation for an added address and confirms it once', async () => {
      const { user, browser } = await server().loggedInUser();
      const address = `added-${user.id}@example.net`;
      const awaitMail = await nextMail(address);
      const added = await browser.call(userApi.addEmail, { email: `  ${address} ` });
      expect(added.status).toBe(200);
      const key = linkIn((await awaitMail()).raw, '/account/confirm-email/');

      const data = await browser.call(userApi.confirmKeyData, { key });
      expect(data.status).toBe(200);
      expect(data.json()).toEqual({ username: user.username, email: address, verified: true, logout: false });
      // Another user's browser learns that it would have to log out.
      const stranger = await server().loginAs(await server().buildUser());
      expect((await stranger.call(userApi.confirmKeyData, { key })).json()).toMatchObject({
        logout: true,
      });

      const confirmed = await browser.call(userApi.confirmEmail, { key });
      expect(confirmed.status).toBe(200);
      const config = await browser.call(baseApi.configuration);
      expect(config.json<{ user: { emails: unknown[] } }>().user.emails).toContainEqual({
        address,
        primary: false,
        verified: true,
      });
      expect((await browser.call(userApi.confirmEmail, { key })).status).toBe(404);
      expect((await browser.call(userApi.confirmKeyData, { key })).status).toBe(404);
    });

    it('hands waiting contact invites to the confirmed address', async () => {
      const inviter = await server().buildUser();
      const user = await server().buildUser();
      const address = `invited-${user.id}@example.net`;
      await server()
        .ctx.db.insertInto('user_invites')
        .values({
          key_hash: null,
          by_user_id: inviter.id,
          to_user_id: null,
          email: address,
          email_lower: address,
          created_at: Date.now(),
        })
        .execute();
      const browser = await server().loginAs(user);
      const awaitMail = await nextMail(address);
      await browser.call(userApi.addEmail, { email: address });
      const key = linkIn((await awaitMail()).raw, '/account/confirm-email/');
      expect((await server().client().call(userApi.confirmEmail, { key }, { csrf: false })).status).toBe(403);
      const visitor = server().client();
      await visitor.call(baseApi.configuration);
      expect((await visitor.call(userApi.confirmEmail, { key })).status).toBe(200);
      const invites = await server().rows('user_invites', { by_user_id: inviter.id });
      expect(invites.map((invite) => invite.to_user_id)).toEqual([user.id]);
    });

    it('answers 404 for unknown keys', async () => {
      const browser = server().client();
      expect((await browser.call(userApi.confirmKeyData, { key: 'nope' })).status).toBe(404);
      expect((await browser.call(userApi.confirmEmail, { key: 'nope' })).status).toBe(404);
    });

    it('sends a fresh confirmation instead of logging in an account without a verified address', async () => {
      const user = await server().buildUser({ emailVerified: false });
      const awaitMail = await nextMail(user.email);
      const browser = server().client();
      const response = await browser.call(userApi.login, {
        login: user.username,
        password: user.password,
      });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ location: '/account/confirm-email/' });
      expect(browser.cookies.has('sessionid')).toBe(false);
      const key = linkIn((await awaitMail()).raw, '/account/confirm-email/');
      const data = await browser.call(userApi.confirmKeyData, { key });
      // A first verification: the page asks for the terms.
      expect(data.json()).toEqual({
        username: user.username,
        email: user.email,
        verified: false,
        logout: false,
      });
      expect((await browser.call(userApi.confirmEmail, { key })).status).toBe(200);
      await server().loginAs(user);
    });
  });

  describe('profile', () => {
    it('saves names and a free, well-formed username', async () => {
      const user = await server().buildUser();
      const taken = await server().buildUser();
      const browser = await server().loginAs(user);
      const save = (u: Record<string, string>) =>
        browser.call(userApi.saveProfile, { form_data: { user: u } });
      const ok = await save({ username: `${user.username}_x`, first_name: ' Ada ', last_name: 'Lovelace' });
      expect(ok.status).toBe(200);
      const config = (await browser.call(baseApi.configuration)).json<{
        user: Record<string, unknown>;
      }>();
      expect(config.user).toMatchObject({
        username: `${user.username}_x`,
        first_name: 'Ada',
        last_name: 'Lovelace',
        name: 'Ada Lovelace',
      });
      const clash = await save({ username: taken.username.toUpperCase(), first_name: '', last_name: '' });
      expect(clash.status).toBe(400);
      expect(clash.json()).toEqual({ msg: { username: ['A user with that username already exists.'] } });
      const bad = await save({ username: 'with space', first_name: '', last_name: '' });
      expect(bad.json<{ msg: { username: string[] } }>().msg.username[0]).toMatch(/^Enter a valid username/);
      const empty = await save({ username: ' ', first_name: '', last_name: '' });
      expect(empty.status).toBe(400);
      expect((await server().client().call(userApi.saveProfile, { form_data: '{}' })).status).toBe(401);
    });

    it('changes the password, ending the other sessions only', async () => {
      const { user, browser } = await server().loggedInUser();
      const other = await server().loginAs(user);
      /** Changes the browser's password; the repeat is the new one unless given. */
      const change = (oldPassword: string, newPassword: string, repeated = newPassword) =>
        browser.call(userApi.changePassword, {
          old_password: oldPassword,
          new_password1: newPassword,
          new_password2: repeated,
        });
      const wrong = await change('nope', 'another secret');
      expect(wrong.status).toBe(400);
      expect(wrong.json()).toEqual({
        msg: { old_password: ['Your old password was entered incorrectly. Please enter it again.'] },
      });
      const mismatch = await change(user.password, 'another secret', 'another secreT');
      expect(mismatch.json()).toEqual({
        msg: { new_password2: ['You must type the same password each time.'] },
      });
      const short = await change(user.password, 'short');
      expect(short.json()).toEqual({
        msg: { new_password2: ['This password is too short. It must contain at least 8 characters.'] },
      });
      const ok = await change(user.password, 'another secret');
      expect(ok.status).toBe(200);
      const mine = (await browser.call(baseApi.configuration)).json<{
        user: { is_authenticated: boolean };
      }>();
      expect(mine.user.is_authenticated).toBe(true);
      const theirs = (await other.call(baseApi.configuration)).json<{
        user: { is_authenticated: boolean };
      }>();
      expect(theirs.user.is_authenticated).toBe(false);
    });

    it('manages e-mail addresses without touching other users', async () => {
      const user = await server().buildUser();
      const stranger = await server().buildUser();
      const browser = await server().loginAs(user);
      const second = `second-${user.id}@example.net`;
      await addEmailAddress(server().ctx.db, user.id, second, false);
      expect((await browser.call(userApi.addEmail, { email: '' })).json()).toEqual({
        msg: { email: [REQUIRED] },
      });
      // Another account's address: answered as any new address (issue 50: no one learns which
      // addresses are registered); its owner is told by mail, and it stays theirs.
      const strangerMail = await nextMail(stranger.email);
      const taken = await browser.call(userApi.addEmail, { email: stranger.email.toUpperCase() });
      expect(taken.status).toBe(200);
      expect(taken.json()).toEqual({ ok: true });
      const told = await strangerMail();
      expect(told.header('subject')).toBe('Someone tried to use your e-mail address at scriptorium.example');
      expect(mailText(told.raw)).toContain(
        `Someone tried to add ${stranger.email}, an address of your account ${stranger.username} at scriptorium.example, to another account. Nothing was changed`,
      );
      expect(mailText(told.raw)).toContain('https://scriptorium.example/user/profile/');
      expect(
        await server().rows('user_emails', { address_lower: stranger.email.toLowerCase() }),
      ).toMatchObject([{ user_id: stranger.id }]);
      // Unverified addresses cannot become primary; the primary cannot go.
      expect((await browser.call(userApi.primaryEmail, { email: second })).status).toBe(400);
      const primaryDelete = await browser.call(userApi.deleteEmail, { email: user.email });
      expect(primaryDelete.json()).toEqual({
        msg: { email: ['You cannot remove your primary e-mail address.'] },
      });
      // Another user's address: not found, and untouched.
      expect((await browser.call(userApi.deleteEmail, { email: stranger.email })).status).toBe(404);
      expect((await browser.call(userApi.primaryEmail, { email: stranger.email })).status).toBe(404);

      await server()
        .ctx.db.updateTable('user_emails')
        .set({ verified: 1 })
        .where('address_lower', '=', second)
        .execute();
      expect((await browser.call(userApi.primaryEmail, { email: second })).status).toBe(200);
      const emails = (await browser.call(baseApi.configuration)).json<{ user: { emails: unknown[] } }>().user
        .emails;
      expect(emails).toEqual([
        { address: second, primary: true, verified: true },
        { address: user.email, primary: false, verified: true },
      ]);
      expect((await browser.call(userApi.deleteEmail, { email: user.email })).status).toBe(200);
      const strangerEmails = await server().rows('user_emails', { user_id: stranger.id });
      expect(strangerEmails.map((row) => row.address)).toEqual([stranger.email]);
    });

    it('stores a square avatar, refuses other types, and deletes it', async () => {
      const { browser } = await server().loggedInUser();
      const png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#c33' } })
        .png()
        .toBuffer();
      const uploaded = await uploadAvatar(browser, png, 'me.png');
      expect(uploaded.status).toBe(200);
      const avatar = String(uploaded.json.avatar);
      expect(avatar).toMatch(/^\/media\/avatars\/\d+-[0-9a-f]{32}\.png$/);
      const config = (await browser.call(baseApi.configuration)).json<{ user: { avatar: string } }>();
      expect(config.user.avatar).toBe(avatar);
      const image = await fetch(`${server().baseUrl}${avatar}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({
        width: 200,
        height: 200,
      });

      const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      const refused = await uploadAvatar(browser, gif, 'me.gif');
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        msg: { avatar: ['Only pictures of the types png, jpg and jpeg can be used.'] },
      });
      // A GIF renamed to .png is refused by its content.
      expect((await uploadAvatar(browser, gif, 'me.png')).status).toBe(400);

      expect((await browser.call(userApi.deleteAvatar)).status).toBe(200);
      expect(
        (await browser.call(baseApi.configuration)).json<{ user: { avatar: null } }>().user.avatar,
      ).toBeNull();
      expect((await fetch(`${server().baseUrl}${avatar}`)).status).toBe(404);
    });

    it('disconnects only own social accounts and keeps the last login of a password-less account', async () => {
      const user = await server().buildUser({ password: null });
      const other = await server().buildUser();
      const insert = (userId: number, uid: string) =>
        server()
          .ctx.db.insertInto('social_accounts')
          .values({ user_id: userId, provider: 'orcid', uid, name: 'ORCID', created_at: Date.now() })
          .returning('id')
          .executeTakeFirstOrThrow();
      const own = await insert(user.id, `u-${user.id}`);
      const foreign = await insert(other.id, `u-${other.id}`);
      const browser = await server().loginAs(other);
      expect((await browser.call(userApi.deleteSocialAccount, { socialaccount: own.id })).status).toBe(404);
      const config = (await browser.call(baseApi.configuration)).json<{
        user: { socialaccounts: unknown[] };
      }>();
      expect(config.user.socialaccounts).toEqual([{ id: foreign.id, provider: 'orcid', name: 'ORCID' }]);
      expect((await browser.call(userApi.deleteSocialAccount, { socialaccount: foreign.id })).status).toBe(
        200,
      );
      const { deleteSocialAccount } = await import('../src/modules/user/commands/delete-social-account');
      await expect(deleteSocialAccount(server().ctx, user, { socialaccount: own.id })).rejects.toThrow(
        'field messages',
      );
    });

    it('deletes an account with the right password, but never a staff account', async () => {
      const staff = await server().buildUser({ isStaff: true });
      const staffBrowser = await server().loginAs(staff);
      const refused = await staffBrowser.call(userApi.deleteAccount, { password: staff.password });
      expect(refused.status).toBe(403);
      expect(refused.json()).toEqual({
        error: 'forbidden',
        message: 'Staff accounts have to be deleted through the admin interface.',
      });

      const { user, browser } = await server().loggedInUser();
      const other = await server().loginAs(user);
      const wrong = await browser.call(userApi.deleteAccount, { password: 'wrong' });
      expect(wrong.status).toBe(401);
      expect(wrong.json<{ message: string }>().message).toBe('Password incorrect.');
      expect((await browser.call(userApi.deleteAccount, { password: user.password })).status).toBe(200);
      expect(await server().rows('users', { id: user.id })).toEqual([]);
      expect(await server().rows('sessions', { user_id: user.id })).toEqual([]);
      const otherConfig = (await other.call(baseApi.configuration)).json<{
        user: { is_authenticated: boolean };
      }>();
      expect(otherConfig.user.is_authenticated).toBe(false);
    });
  });
});
