import type { SocialProvider } from '@scriptorium/common/api/base';
import { endpointPath } from '@scriptorium/common/api/endpoint';
import { socialApi } from '@scriptorium/common/api/endpoints/social';
import { z } from 'zod';
import type { Config } from '../../config';

/**
 * SOCIAL_PROVIDERS is a JSON list. Any number of OpenID Connect providers (ORCID, Google, GitLab,
 * Keycloak, ...) and GitHub's OAuth2:
 *   [{"id":"orcid","name":"ORCID","type":"oidc","issuer":"https://orcid.org",
 *     "client_id":"...","client_secret":"..."},
 *    {"id":"github","name":"GitHub","type":"github","client_id":"...","client_secret":"..."}]
 * `allow_http` (tests, loopback only) lets an http:// issuer through.
 */
const providerId = z.string().regex(/^[a-z0-9_-]{1,40}$/);

const oidcProvider = z.object({
  type: z.literal('oidc'),
  id: providerId,
  name: z.string().min(1),
  issuer: z.url(),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scope: z.string().default('openid email profile'),
  allow_http: z.boolean().default(false),
});

const githubProvider = z.object({
  type: z.literal('github'),
  id: providerId,
  name: z.string().min(1).default('GitHub'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  /** Overridable for GitHub Enterprise. */
  authorization_endpoint: z.url().default('https://github.com/login/oauth/authorize'),
  token_endpoint: z.url().default('https://github.com/login/oauth/access_token'),
  api_base: z.url().default('https://api.github.com'),
  allow_http: z.boolean().default(false),
});

const providerList = z.array(z.discriminatedUnion('type', [oidcProvider, githubProvider]));

export type OidcProviderSetting = z.infer<typeof oidcProvider>;
export type GithubProviderSetting = z.infer<typeof githubProvider>;
export type ProviderSetting = z.infer<typeof providerList>[number];

const cache = new Map<string, ProviderSetting[]>();

/** The configured providers; a malformed SOCIAL_PROVIDERS stops the server with a clear message. */
export function socialProviders(config: Pick<Config, 'socialProviders'>): ProviderSetting[] {
  const raw = config.socialProviders;
  if (!raw) return [];
  let list = cache.get(raw);
  if (!list) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new Error('SOCIAL_PROVIDERS must be a JSON list of providers');
    }
    const result = providerList.safeParse(parsed);
    if (!result.success) throw new Error(`SOCIAL_PROVIDERS is not valid: ${result.error.message}`);
    const ids = new Set(result.data.map((p) => p.id));
    if (ids.size !== result.data.length) throw new Error('SOCIAL_PROVIDERS lists an id twice');
    list = result.data;
    cache.set(raw, list);
  }
  return list;
}

export function findProvider(
  config: Pick<Config, 'socialProviders'>,
  id: string,
): ProviderSetting | undefined {
  return socialProviders(config).find((p) => p.id === id);
}

export function loginUrl(id: string): string {
  return endpointPath(socialApi.login, { provider: id });
}

/** Spec 3: social provider (id, name, login_url) as the configuration lists it. */
export function presentProviders(config: Pick<Config, 'socialProviders'>): SocialProvider[] {
  return socialProviders(config).map((p) => ({ id: p.id, name: p.name, login_url: loginUrl(p.id) }));
}
