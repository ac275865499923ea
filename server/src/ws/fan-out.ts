import { createHash, randomBytes } from 'node:crypto';
import { documentTitleMessage } from '@scriptorium/common/ws/messages';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../config';

/** What one server process tells all of them (itself included). */
export const fanOutEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('system_message'), message: z.string().min(1) }),
  /** Sessions that ended (logout, password change, account deleted): their sockets are denied. */
  z.object({ kind: z.literal('sessions_ended'), sessionHashes: z.array(z.string()).min(1) }),
  /** Rights on an endpoint's topic changed (e.g. document 12): its sockets are admitted again or denied. */
  /** Messages for the app-wide sockets (/base/) of these users only. */
  z.object({
    kind: z.literal('to_users'),
    userIds: z.array(z.number().int().positive()).min(1),
    message: documentTitleMessage,
  }),
  z.object({
    kind: z.literal('readmit'),
    endpoint: z.string().min(1),
    id: z.number().int().positive().nullable(),
  }),
]);
export type FanOutEvent = z.infer<typeof fanOutEvent>;

/** One process's live connections, for connection_info. */
export interface ProcessCensus {
  processId: string;
  userIds: number[];
  sockets: number;
  /** Who is on which topic (the staff's presence list); absent from older processes. */
  presence?: { userId: number; scope: string; sockets: number }[];
}

export type LocalCensus = () => Omit<ProcessCensus, 'processId'>;

/**
 * Connection fan-out between server processes. Without REDIS_URL one process fans out in memory;
 * with it, every process of the deployment hears every event through Redis pub/sub.
 */
export interface FanOut {
  readonly processId: string;
  /** Hands the event to every process, this one included; resolves with how many processes heard it. */
  publish(event: FanOutEvent): Promise<number>;
  /** Listens to events from every process. */
  onEvent(listener: (event: FanOutEvent) => void): void;
  /** Where this process's own figures come from. */
  setLocalCensus(read: LocalCensus): void;
  /** This process's connections changed (Redis: its published figures are refreshed soon). */
  censusChanged(): void;
  /** Every live process's figures, this one's first. */
  census(): Promise<ProcessCensus[]>;
  /**
   * Hands `payload` (JSON) to every process listening to `topic` (e.g. 'document:12'), this one
   * included; one channel per topic, so a process hears only the topics its sockets are on.
   */
  publishTopic(topic: string, payload: unknown): Promise<void>;
  /** Listens to one topic; resolves once listening. The returned function stops listening. */
  listenTopic(topic: string, listener: TopicListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type TopicListener = (payload: unknown) => void;

/** Listeners per topic of one process, shared by both fan-outs. */
class TopicListeners {
  private readonly byTopic = new Map<string, Set<TopicListener>>();

  /** Adds a listener; true when it is the topic's first (time to subscribe). */
  add(topic: string, listener: TopicListener): boolean {
    let set = this.byTopic.get(topic);
    const first = !set;
    if (!set) {
      set = new Set();
      this.byTopic.set(topic, set);
    }
    set.add(listener);
    return first;
  }

  /** Removes a listener; true when the topic has none left (time to unsubscribe). */
  remove(topic: string, listener: TopicListener): boolean {
    const set = this.byTopic.get(topic);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.byTopic.delete(topic);
    return true;
  }

  dispatch(topic: string, payload: unknown): void {
    for (const listener of [...(this.byTopic.get(topic) ?? [])]) listener(payload);
  }

  clear(): void {
    this.byTopic.clear();
  }
}

const newProcessId = () => `${process.pid}-${randomBytes(4).toString('hex')}`;

export class MemoryFanOut implements FanOut {
  readonly processId = newProcessId();
  private readonly listeners: ((event: FanOutEvent) => void)[] = [];
  private local: LocalCensus = () => ({ userIds: [], sockets: 0 });

  async publish(event: FanOutEvent): Promise<number> {
    // Asynchronous like Redis, so that callers cannot come to rely on a synchronous delivery.
    queueMicrotask(() => {
      for (const listener of this.listeners) listener(event);
    });
    return 1;
  }

  onEvent(listener: (event: FanOutEvent) => void): void {
    this.listeners.push(listener);
  }

  setLocalCensus(read: LocalCensus): void {
    this.local = read;
  }

  censusChanged(): void {}

  async census(): Promise<ProcessCensus[]> {
    return [{ processId: this.processId, ...this.local() }];
  }

  private readonly topics = new TopicListeners();

  async publishTopic(topic: string, payload: unknown): Promise<void> {
    // Through JSON as with Redis, so that no listener shares an object with the publisher.
    const copy: unknown = JSON.parse(JSON.stringify(payload));
    queueMicrotask(() => this.topics.dispatch(topic, copy));
  }

  async listenTopic(topic: string, listener: TopicListener): Promise<() => Promise<void>> {
    this.topics.add(topic, listener);
    return async () => {
      this.topics.remove(topic, listener);
    };
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
    this.topics.clear();
  }
}

/**
 * The Redis key prefix of one deployment. Processes that share a database are one deployment, so
 * the prefix derives from the database: deployments (and test runs) sharing a Redis stay apart.
 */
export function redisPrefix(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  const identity = config.databaseUrl ?? `sqlite:${config.dataDir}`;
  return `scriptorium:${createHash('sha256').update(identity).digest('hex').slice(0, 16)}:ws:`;
}

const censusRecord = z.object({
  userIds: z.array(z.number().int()),
  sockets: z.number().int().nonnegative(),
  presence: z
    .array(z.object({ userId: z.number().int(), scope: z.string(), sockets: z.number().int().nonnegative() }))
    .optional(),
});

/** How long a process's figures live in Redis without a refresh (a crashed process drops out). */
const CENSUS_TTL_S = 30;
const CENSUS_REFRESH_MS = 10_000;
const CENSUS_DEBOUNCE_MS = 100;

export interface RedisFanOutOptions {
  /** Only publish (the CLI): no subscription, no figures of its own. */
  publishOnly?: boolean;
  log?: (message: string, error?: unknown) => void;
}

export class RedisFanOut implements FanOut {
  readonly processId = newProcessId();
  private readonly listeners: ((event: FanOutEvent) => void)[] = [];
  private local: LocalCensus | null = null;
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private debounceTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis | null,
    private readonly prefix: string,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /** Connects (and subscribes) before resolving, so that no event published afterwards is missed. */
  static async connect(url: string, prefix: string, options: RedisFanOutOptions = {}): Promise<RedisFanOut> {
    const log = options.log ?? ((message, error) => console.error(message, error));
    const connectionOptions = { lazyConnect: true, maxRetriesPerRequest: 3 };
    // Loaded on first use: a process without REDIS_URL never pays for the client (about 20 MiB).
    const { Redis } = await import('ioredis');
    const pub = new Redis(url, connectionOptions);
    const sub = options.publishOnly ? null : new Redis(url, connectionOptions);
    for (const client of [pub, sub])
      client?.on('error', (error) => log('redis fan-out connection error', error));
    await pub.connect();
    const fanOut = new RedisFanOut(pub, sub, prefix, log);
    if (sub) {
      await sub.connect();
      sub.on('message', (channel: string, text: string) => {
        if (channel === fanOut.channel) fanOut.dispatch(text);
        else if (channel.startsWith(fanOut.topicChannel(''))) fanOut.dispatchTopic(channel, text);
      });
      await sub.subscribe(fanOut.channel);
    }
    return fanOut;
  }

  private get channel(): string {
    return `${this.prefix}events`;
  }

  private topicChannel(topic: string): string {
    return `${this.prefix}topic:${topic}`;
  }

  private readonly topics = new TopicListeners();

  async publishTopic(topic: string, payload: unknown): Promise<void> {
    await this.pub.publish(this.topicChannel(topic), JSON.stringify(payload));
  }

  async listenTopic(topic: string, listener: TopicListener): Promise<() => Promise<void>> {
    if (!this.sub) throw new Error('a publish-only fan-out cannot listen');
    const sub = this.sub;
    if (this.topics.add(topic, listener)) await sub.subscribe(this.topicChannel(topic));
    return async () => {
      if (this.topics.remove(topic, listener) && !this.closed)
        await sub.unsubscribe(this.topicChannel(topic)).catch(() => undefined);
    };
  }

  private censusKey(processId: string): string {
    return `${this.prefix}census:${processId}`;
  }

  private dispatch(text: string): void {
    let event: FanOutEvent;
    try {
      event = fanOutEvent.parse(JSON.parse(text));
    } catch (error) {
      this.log('ignored an invalid fan-out event', error);
      return;
    }
    for (const listener of this.listeners) listener(event);
  }

  private dispatchTopic(channel: string, text: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (error) {
      this.log('ignored an invalid topic message', error);
      return;
    }
    this.topics.dispatch(channel.slice(this.topicChannel('').length), payload);
  }

  async publish(event: FanOutEvent): Promise<number> {
    return this.pub.publish(this.channel, JSON.stringify(event));
  }

  onEvent(listener: (event: FanOutEvent) => void): void {
    this.listeners.push(listener);
  }

  setLocalCensus(read: LocalCensus): void {
    this.local = read;
    this.refreshTimer ??= setInterval(() => void this.writeCensus(), CENSUS_REFRESH_MS);
    this.refreshTimer.unref();
    void this.writeCensus();
  }

  censusChanged(): void {
    if (this.debounceTimer || !this.local) return;
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      void this.writeCensus();
    }, CENSUS_DEBOUNCE_MS);
    this.debounceTimer.unref();
  }

  private async writeCensus(): Promise<void> {
    if (!this.local || this.closed) return;
    try {
      await this.pub.set(this.censusKey(this.processId), JSON.stringify(this.local()), 'EX', CENSUS_TTL_S);
    } catch (error) {
      this.log('could not publish the connection census', error);
    }
  }

  async census(): Promise<ProcessCensus[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.pub.scan(cursor, 'MATCH', `${this.prefix}census:*`, 'COUNT', 500);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    const ownKey = this.censusKey(this.processId);
    const others = keys.filter((key) => key !== ownKey);
    const values = others.length ? await this.pub.mget(...others) : [];
    const result: ProcessCensus[] = this.local ? [{ processId: this.processId, ...this.local() }] : [];
    others.forEach((key, index) => {
      const parsed = censusRecord.safeParse(JSON.parse(values[index] ?? 'null'));
      if (parsed.success)
        result.push({ processId: key.slice(`${this.prefix}census:`.length), ...parsed.data });
    });
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.listeners.length = 0;
    this.topics.clear();
    if (this.local) await this.pub.del(this.censusKey(this.processId)).catch(() => undefined);
    await Promise.all([this.pub.quit(), this.sub?.quit()].map((promise) => promise?.catch(() => undefined)));
  }
}

export async function createFanOut(
  config: Pick<Config, 'redisUrl' | 'databaseUrl' | 'dataDir'>,
  options: RedisFanOutOptions = {},
): Promise<FanOut> {
  if (!config.redisUrl) return new MemoryFanOut();
  return RedisFanOut.connect(config.redisUrl, redisPrefix(config), options);
}
