import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MEDIA_MAX_SIZE } from '@scriptorium/common/api/usermedia';
import { isPluginName, PLUGIN_NAMES, type PluginName } from '@scriptorium/common/plugins/names';

/** Every setting of the server, read from the environment in one place (documented in README). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://... or undefined for the embedded SQLite file DATA_DIR/db.sqlite3. */
  databaseUrl: string | undefined;
  secretKey: string;
  smtpUrl: string | undefined;
  contactEmail: string | undefined;
  /** Absolute base for links in mails, e.g. https://scriptorium.example.org */
  siteUrl: string;
  redisUrl: string | undefined;
  wsUrlBase: string;
  /** Where the built web app lives (web/dist). */
  webDist: string;
  /** Failed logins per account or address before the lock, and how long the lock lasts. */
  loginMaxFailures: number;
  loginLockSeconds: number;
  /**
   * Failed logins from one client address before that address is locked. Higher than the
   * per-account limit because many researchers share one university NAT address.
   */
  loginAddressMaxFailures: number;
  /** First delay after a failed login; it doubles per failure, capped at 2 s. */
  loginDelayMs: number;
  /** Enabled plugins in header order (PLUGINS=templates,books). */
  plugins: Plugin[];
  /** Sender of every mail. */
  mailFrom: string;
  /** Fastify trustProxy: false, true, or a comma list of proxy addresses/CIDRs to trust. */
  trustProxy: boolean | string;
  /** Largest accepted upload (multipart file) and form body, in bytes. */
  maxUploadBytes: number;
  /** MEDIA_MAX_SIZE: the largest accepted image file in bytes; larger uploads answer 413. */
  mediaMaxSize: number;
  /** UPLOAD_WORKERS: threads that sanitise, decode and thumbnail uploads (modules/uploads). */
  uploadWorkers: number;
  /**
   * UPLOAD_TIME_LIMIT_MS: CPU time budget of one upload's processing in its worker thread (Linux;
   * elsewhere wall time from the moment its worker starts it); past it the upload is refused.
   */
  uploadTimeLimitMs: number;
  /** UPLOAD_MEMORY_MB: heap budget of one upload worker thread. */
  uploadMemoryMb: number;
  /** EXPORT_WORKERS: threads that make exports and render their citations (modules/documents/export). */
  exportWorkers: number;
  /**
   * EXPORT_TIME_LIMIT_MS: CPU time budget of one export's work in its worker thread (Linux;
   * elsewhere wall time from the moment its worker starts it); past it the export is refused.
   */
  exportTimeLimitMs: number;
  /** EXPORT_MEMORY_MB: heap budget of one export worker thread. */
  exportMemoryMb: number;
  /**
   * HEAVY_TASKS_PER_USER: imports and exports one user may have running at once (over every process
   * with REDIS_URL, else in each process); one more answers 429 with Retry-After, so that one user
   * cannot take every worker.
   */
  heavyTasksPerUser: number;
  /**
   * HEAVY_WORK_NICENESS: how much lower than the event loop the worker threads of imports, exports
   * and uploads and the PDF printer's Chromium run (a nice value added, 0 to 19; 0: the same).
   */
  heavyWorkNiceness: number;
  /** PDF_PRINTS: PDF exports the pooled browser prints at once; the others wait in its queue. */
  pdfPrints: number;
  /** PDF_TIME_LIMIT_MS: time budget of one PDF export in the browser, from its page's context on. */
  pdfTimeLimitMs: number;
  /**
   * WORKER_START_LIMIT_MS: how long a task of the upload or export pool, or a PDF export, may wait
   * for its worker (or the browser) to be free and started before its own time budget begins; past
   * it the task is refused as over its budget. Generous: a cold start under load takes seconds.
   */
  workerStartLimitMs: number;
  /** PDF_MAX_PAGES: the most pages a PDF export may have; a longer document is refused. */
  pdfMaxPages: number;
  /**
   * PRESENCE_HEARTBEAT_MS: how often a process repeats who is in its open documents; a process
   * not heard for three periods (crashed) drops out of the others' participant lists.
   */
  presenceHeartbeatMs: number;
  /**
   * DOCUMENT_DIFF_RATE: the flood limit of one editor on a document socket, in diffs per second
   * (a burst of twice as many is allowed); diffs beyond it are refused with 'flood'. A typist sends
   * a few per second; benchmarks of the server's capacity raise it.
   */
  documentDiffRate: number;
  /**
   * COLLAB_GROUP_MAX: at most this many diffs are committed in one transaction (group commit,
   * docs/collaboration.md); 1 commits each diff alone (benchmarks compare the two).
   */
  collabGroupMax: number;
  /**
   * COLLAB_SQLITE_WRITER: on SQLite the group commits run on a connection of their own in a worker
   * thread ('thread', the default), so that their fsync never holds the event loop; 'main' runs
   * them on the main connection (benchmarks compare the two).
   */
  collabSqliteWriter: 'thread' | 'main';
  /**
   * WS_MAX_SOCKETS_PER_USER, WS_MAX_SOCKETS_PER_ADDRESS: websockets one user, and one client
   * address (IPv6: one /64), may hold open at once over every process; more are closed at once.
   */
  wsMaxSocketsPerUser: number;
  wsMaxSocketsPerAddress: number;
  /** API_TOKEN_RATE_LIMIT: requests per minute one personal access token may make (per process). */
  apiTokenRateLimit: number;
  /**
   * BIB_SOURCES_ALLOW_PRIVATE: bibliography sources (issue 57) may not reach private, loopback or
   * link-local addresses unless the operator allows them: `true` allows all, a comma list of
   * addresses or CIDRs allows those (tests allow their local server only).
   */
  bibSourcesAllowPrivate: boolean | string[];
  /** BIB_SOURCES_MAX_BYTES: the largest answer a source may give (all pages of a Zotero library). */
  bibSourcesMaxBytes: number;
  /** BIB_SOURCES_TIME_LIMIT_MS: time budget of one source's fetch (all redirects and pages). */
  bibSourcesTimeLimitMs: number;
  /** BIB_SOURCES_SYNC_MINUTES: how often the schedule syncs each source; 0: only on demand. */
  bibSourcesSyncMinutes: number;
  /** ZOTERO_API_URL: the Zotero Web API's base (https://api.zotero.org). */
  zoteroApiUrl: string;
  /** SOCIAL_PROVIDERS: JSON list of social login providers, parsed by src/social/providers.ts. */
  socialProviders: string | undefined;
}

export type Plugin = PluginName;

function pluginsSetting(value: string | undefined): Plugin[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!isPluginName(name)) {
      throw new Error(`PLUGINS may only list ${PLUGIN_NAMES.join(', ')}; got "${name}"`);
    }
  }
  // Header order is fixed by the spec (templates 4, books 5), whatever order the operator wrote.
  return PLUGIN_NAMES.filter((name) => names.includes(name));
}

function trustProxySetting(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

function readSecretKey(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

function allowPrivateSetting(value: string | undefined): boolean | string[] {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function intSetting(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intSetting(env.PORT, 8000, 'PORT');
  const host = env.HOST || '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR || path.join(repoRoot, 'data'));
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = env.DATABASE_URL || undefined;
  const siteUrl = (env.SITE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// (leave it unset for SQLite)');
  }
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    secretKey: readSecretKey(dataDir, env.SECRET_KEY),
    smtpUrl: env.SMTP_URL || undefined,
    contactEmail: env.CONTACT_EMAIL || undefined,
    siteUrl,
    redisUrl: env.REDIS_URL || undefined,
    wsUrlBase: env.WS_URL_BASE || '/ws',
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'web/dist')),
    loginMaxFailures: intSetting(env.LOGIN_MAX_FAILURES, 5, 'LOGIN_MAX_FAILURES'),
    loginLockSeconds: intSetting(env.LOGIN_LOCK_SECONDS, 900, 'LOGIN_LOCK_SECONDS'),
    loginAddressMaxFailures: intSetting(env.LOGIN_ADDRESS_MAX_FAILURES, 20, 'LOGIN_ADDRESS_MAX_FAILURES'),
    loginDelayMs: intSetting(env.LOGIN_DELAY_MS, 250, 'LOGIN_DELAY_MS'),
    plugins: pluginsSetting(env.PLUGINS),
    mailFrom: env.MAIL_FROM || `Scriptorium <noreply@${new URL(siteUrl).hostname}>`,
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    maxUploadBytes: intSetting(env.MAX_UPLOAD_BYTES, 20 * 1024 * 1024, 'MAX_UPLOAD_BYTES'),
    mediaMaxSize: intSetting(env.MEDIA_MAX_SIZE, DEFAULT_MEDIA_MAX_SIZE, 'MEDIA_MAX_SIZE'),
    uploadWorkers: intSetting(env.UPLOAD_WORKERS, 2, 'UPLOAD_WORKERS'),
    uploadTimeLimitMs: intSetting(env.UPLOAD_TIME_LIMIT_MS, 20_000, 'UPLOAD_TIME_LIMIT_MS'),
    uploadMemoryMb: intSetting(env.UPLOAD_MEMORY_MB, 512, 'UPLOAD_MEMORY_MB'),
    exportWorkers: intSetting(env.EXPORT_WORKERS, 2, 'EXPORT_WORKERS'),
    exportTimeLimitMs: intSetting(env.EXPORT_TIME_LIMIT_MS, 120_000, 'EXPORT_TIME_LIMIT_MS'),
    exportMemoryMb: intSetting(env.EXPORT_MEMORY_MB, 1024, 'EXPORT_MEMORY_MB'),
    heavyTasksPerUser: intSetting(env.HEAVY_TASKS_PER_USER, 1, 'HEAVY_TASKS_PER_USER'),
    heavyWorkNiceness: Math.min(19, intSetting(env.HEAVY_WORK_NICENESS, 10, 'HEAVY_WORK_NICENESS')),
    pdfPrints: intSetting(env.PDF_PRINTS, 2, 'PDF_PRINTS'),
    pdfTimeLimitMs: intSetting(env.PDF_TIME_LIMIT_MS, 120_000, 'PDF_TIME_LIMIT_MS'),
    workerStartLimitMs: intSetting(env.WORKER_START_LIMIT_MS, 120_000, 'WORKER_START_LIMIT_MS'),
    pdfMaxPages: intSetting(env.PDF_MAX_PAGES, 1_000, 'PDF_MAX_PAGES'),
    socialProviders: env.SOCIAL_PROVIDERS || undefined,
    presenceHeartbeatMs: intSetting(env.PRESENCE_HEARTBEAT_MS, 5_000, 'PRESENCE_HEARTBEAT_MS'),
    documentDiffRate: intSetting(env.DOCUMENT_DIFF_RATE, 50, 'DOCUMENT_DIFF_RATE'),
    collabGroupMax: intSetting(env.COLLAB_GROUP_MAX, 256, 'COLLAB_GROUP_MAX'),
    collabSqliteWriter: env.COLLAB_SQLITE_WRITER === 'main' ? 'main' : 'thread',
    wsMaxSocketsPerUser: intSetting(env.WS_MAX_SOCKETS_PER_USER, 50, 'WS_MAX_SOCKETS_PER_USER'),
    wsMaxSocketsPerAddress: intSetting(env.WS_MAX_SOCKETS_PER_ADDRESS, 500, 'WS_MAX_SOCKETS_PER_ADDRESS'),
    apiTokenRateLimit: intSetting(env.API_TOKEN_RATE_LIMIT, 300, 'API_TOKEN_RATE_LIMIT'),
    bibSourcesAllowPrivate: allowPrivateSetting(env.BIB_SOURCES_ALLOW_PRIVATE),
    bibSourcesMaxBytes: intSetting(env.BIB_SOURCES_MAX_BYTES, 20 * 1024 * 1024, 'BIB_SOURCES_MAX_BYTES'),
    bibSourcesTimeLimitMs: intSetting(env.BIB_SOURCES_TIME_LIMIT_MS, 30_000, 'BIB_SOURCES_TIME_LIMIT_MS'),
    bibSourcesSyncMinutes: intSetting(env.BIB_SOURCES_SYNC_MINUTES, 360, 'BIB_SOURCES_SYNC_MINUTES'),
    zoteroApiUrl: (env.ZOTERO_API_URL || 'https://api.zotero.org').replace(/\/+$/, ''),
  };
}
