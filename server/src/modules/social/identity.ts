import * as client from 'openid-client';
import type { GithubProviderSetting, OidcProviderSetting, ProviderSetting } from './providers';

/** Who the provider says the user is. */
export interface SocialIdentity {
  uid: string;
  name: string;
  /** Addresses the provider vouches for; only these may connect to an existing account. */
  verifiedEmails: string[];
}

const discovered = new Map<string, Promise<client.Configuration>>();

async function oidcConfiguration(provider: OidcProviderSetting): Promise<client.Configuration> {
  const cacheKey = JSON.stringify([provider.issuer, provider.client_id]);
  let found = discovered.get(cacheKey);
  if (!found) {
    found = client.discovery(
      new URL(provider.issuer),
      provider.client_id,
      undefined,
      client.ClientSecretPost(provider.client_secret),
      provider.allow_http ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    // A failed discovery is retried on the next login instead of being cached.
    found.catch(() => discovered.delete(cacheKey));
    discovered.set(cacheKey, found);
  }
  return found;
}

function githubConfiguration(provider: GithubProviderSetting): client.Configuration {
  const config = new client.Configuration(
    {
      issuer: 'https://github.com',
      authorization_endpoint: provider.authorization_endpoint,
      token_endpoint: provider.token_endpoint,
    },
    provider.client_id,
    undefined,
    client.ClientSecretPost(provider.client_secret),
  );
  if (provider.allow_http) client.allowInsecureRequests(config);
  return config;
}

export async function providerConfiguration(provider: ProviderSetting): Promise<client.Configuration> {
  return provider.type === 'oidc' ? oidcConfiguration(provider) : githubConfiguration(provider);
}

export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's authorization address for a new login, with state, nonce and PKCE. */
export async function authorizationUrl(
  provider: ProviderSetting,
  redirectUri: string,
  pending: PendingLogin,
): Promise<URL> {
  const config = await providerConfiguration(provider);
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    state: pending.state,
    code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
  };
  if (provider.type === 'oidc') {
    parameters.scope = provider.scope;
    parameters.nonce = pending.nonce;
  } else {
    parameters.scope = 'read:user user:email';
  }
  return client.buildAuthorizationUrl(config, parameters);
}

async function githubIdentity(
  provider: GithubProviderSetting,
  config: client.Configuration,
  accessToken: string,
): Promise<SocialIdentity> {
  const api = provider.api_base.replace(/\/+$/, '');
  const headers = new Headers({ accept: 'application/vnd.github+json' });
  const userResponse = await client.fetchProtectedResource(
    config,
    accessToken,
    new URL(`${api}/user`),
    'GET',
    undefined,
    headers,
  );
  if (!userResponse.ok) throw new Error(`GitHub user lookup failed: ${userResponse.status}`);
  const user = (await userResponse.json()) as { id?: number; login?: string; name?: string | null };
  if (typeof user.id !== 'number') throw new Error('GitHub sent no user id');
  const emailsResponse = await client.fetchProtectedResource(
    config,
    accessToken,
    new URL(`${api}/user/emails`),
    'GET',
    undefined,
    headers,
  );
  const emails = emailsResponse.ok
    ? ((await emailsResponse.json()) as Array<{ email?: string; verified?: boolean }>)
    : [];
  return {
    uid: String(user.id),
    name: user.name || user.login || String(user.id),
    verifiedEmails: emails.filter((e) => e.verified && e.email).map((e) => String(e.email)),
  };
}

/** Exchanges the code (checking state, PKCE and, for OpenID Connect, the nonce) for the identity. */
export async function completeLogin(
  provider: ProviderSetting,
  callbackUrl: URL,
  pending: PendingLogin,
): Promise<SocialIdentity> {
  const config = await providerConfiguration(provider);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    expectedState: pending.state,
    pkceCodeVerifier: pending.codeVerifier,
    ...(provider.type === 'oidc' ? { expectedNonce: pending.nonce, idTokenExpected: true } : {}),
  });
  if (provider.type === 'github') return githubIdentity(provider, config, tokens.access_token);

  const claims = tokens.claims();
  if (!claims) throw new Error('the provider sent no ID token');
  let email = typeof claims.email === 'string' ? claims.email : undefined;
  let emailVerified = claims.email_verified === true;
  let name = typeof claims.name === 'string' ? claims.name : undefined;
  if (!email || !name) {
    // Many providers put e-mail and name only into the userinfo answer.
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined);
    if (info && !email && typeof info.email === 'string') {
      email = info.email;
      emailVerified = info.email_verified === true;
    }
    if (info && !name && typeof info.name === 'string') name = info.name;
  }
  return {
    uid: claims.sub,
    name: name || email || claims.sub,
    verifiedEmails: email && emailVerified ? [email] : [],
  };
}
