import { describe, expect, it } from 'vitest';
import { ENGINES, useServer } from './harness';

const WRONG = 'The username or e-mail address and the password do not match.';

describe.each(ENGINES)('hardening: accounts and sessions (%s)', (engine) => {
  // X-Forwarded-For stands in for different client addresses; TRUST_PROXY makes Fastify read it.
  const server = useServer(engine, {
    env: { LOGIN_MAX_FAILURES: '5', LOGIN_ADDRESS_MAX_FAILURES: '20', TRUST_PROXY: 'true' },
  });
  const from = (ip: string) => server().client({ 'x-forwarded-for': ip });

  it('locks the attacking address out of an account, not the owner from another address', async () => {
    const owner = await server().buildUser();
    const attacker = from('203.0.113.66');
    for (let i = 0; i < 5; i++) {
      const response = await attacker.post('/api/user/login/', {
        login: owner.username,
        password: `guess${i}`,
      });
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ form: { errors: [WRONG], fields: {} } });
    }
    const attackerWithPassword = await attacker.post('/api/user/login/', {
      login: owner.username,
      password: owner.password,
    });
    expect(attackerWithPassword.status).toBe(429);
    const ownerElsewhere = await from('198.51.100.7').post('/api/user/login/', {
      login: owner.email,
      password: owner.password,
    });
    expect(ownerElsewhere.status, ownerElsewhere.text).toBe(200);
    // The attacker keeps trying: the owner still gets in.
    await attacker.post('/api/user/login/', { login: owner.username, password: 'again' });
    expect(
      (await server().loginAs(owner, { 'x-forwarded-for': '198.51.100.8' })).cookies.has('sessionid'),
    ).toBe(true);
  });
});
