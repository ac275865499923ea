import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { addressScope } from '../../../http/client-address';
import { FormError } from '../../../http/errors';
import {
  accountScope,
  addressScopeKey,
  clearFailures,
  failureDelay,
  lockRemaining,
  pairScopeKey,
  recordFailure,
} from '../login-throttle';
import { verifyPassword } from '../passwords';
import { findUserByLogin } from '../queries';

export interface LoginInput {
  login: string;
  password: string;
  /** The client address as Fastify sees it (request.ip, proxy-aware with TRUST_PROXY). */
  ip: string;
}

function lockedError(remainingMs: number): FormError {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60000));
  return new FormError(429, [{ key: 'login.locked', values: { count: minutes } }]);
}

/**
 * Checks a login. A locked (account, address) pair or address is refused before the password is
 * even looked at, so that the right password does not get in from there while locked; the same
 * account from another address is not affected. The wrong-credentials error does not say
 * whether the login or the password was wrong.
 */
export async function login(ctx: AppContext, input: LoginInput): Promise<UserRow> {
  const { db, config } = ctx;
  const user = await findUserByLogin(db, input.login);
  const address = addressScopeKey(addressScope(input.ip));
  const pair = pairScopeKey(accountScope(user?.id, input.login), address);

  const locked = await lockRemaining(db, [pair, address], Date.now());
  if (locked > 0) throw lockedError(locked);

  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!ok || !user) {
    const now = Date.now();
    const pairFailures = await recordFailure(db, pair, config.loginMaxFailures, config, now);
    const addressFailures = await recordFailure(db, address, config.loginAddressMaxFailures, config, now);
    // Slows down guessing from one client; the lock above stops it.
    await sleep(failureDelay(Math.max(pairFailures, addressFailures), config.loginDelayMs));
    throw new FormError(400, [{ key: 'login.invalid' }]);
  }
  if (!user.is_active) throw new FormError(400, [{ key: 'login.inactive' }]);

  await clearFailures(db, pair);
  return user;
}
