import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import { loadConfig } from './config';
import type { AppContext } from './context';
import { createDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { closeGracefully } from './http/shutdown';
import { createMailer } from './mail/mailer';
import { seedFlatpages } from './modules/base/commands/seed-flatpages';
import { startSourceSchedule } from './modules/bibliography/sources/schedule';
import { sweepPrinterFolders } from './modules/documents/export/printer';
import { sweepFiles } from './modules/usermedia/file-sweep';

/** What the log may hold in memory while its reader lags; past it, lines are dropped (counted). */
const LOG_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * The log goes to stdout in the background and bounded (issue 50). Each line is written by
 * libuv's threads, never by the event loop; while the reader of stdout lags, at most
 * LOG_BUFFER_BYTES wait in memory, and lines past that are dropped and counted instead of piling
 * up without end (pino's default destination, asynchronous too, kept every line). At the
 * graceful stop what waits is written before the last line (below); at any other exit pino's
 * exit hook writes it synchronously. minLength is 1, not 0: with 0 a flush does not wait.
 */
function logDestination(): { stream: ReturnType<typeof pino.destination>; dropped: () => number } {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 1, maxLength: LOG_BUFFER_BYTES });
  let dropped = 0;
  stream.on('drop', () => {
    dropped++;
  });
  return { stream, dropped: () => dropped };
}

/** How long the stop waits for the log's reader, each time, before going on all the same. */
const LOG_FLUSH_WAIT_MS = 5_000;

/** Resolves once what the log holds is written, or after LOG_FLUSH_WAIT_MS. */
function logWritten(stream: ReturnType<typeof pino.destination>, end = false): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, LOG_FLUSH_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      if (end) {
        stream.once('close', done);
        stream.end();
      } else stream.flush(done);
    } catch {
      done();
    }
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, dialect } = createDatabase(config);
  let app: FastifyInstance | undefined;
  // The mailer exists before the app; it logs through the app's logger once there is one.
  const mailer = createMailer(config, { info: (details, message) => app?.log.info(details, message) });
  const ctx: AppContext = { config, db, dialect, mailer, state: { ready: false } };

  const log = logDestination();
  app = await buildApp(ctx, { logger: { level: 'info', stream: log.stream } });
  const server = app;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The readiness check answers 503 from now on: the balancer moves new traffic elsewhere.
    ctx.state.stopping = true;
    server.log.info({ signal }, 'shutting down');
    const started = Date.now();
    // A stop that hangs says what it still waits on (the fault test kills it after 15 s and
    // prints this log's tail).
    const watchdog = setInterval(
      () =>
        server.log.warn(
          { ms: Date.now() - started, active: process.getActiveResourcesInfo() },
          'still stopping',
        ),
      5000,
    );
    watchdog.unref();
    // Requests in flight finish first; then we release the database.
    await closeGracefully(server);
    mailer.close();
    await db.destroy();
    // The lines still waiting first, so that the last one is not dropped.
    await logWritten(log.stream);
    server.log.info({ ms: Date.now() - started, droppedLogLines: log.dropped() }, 'stopped');
    await logWritten(log.stream, true);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // Listen first: during a long migration browsers get the "being updated" page, not a refusal.
  await server.listen({ host: config.host, port: config.port });
  await migrateToLatest(db, dialect);
  const seeded = await seedFlatpages(ctx);
  if (seeded.length > 0) server.log.info({ pages: seeded }, 'placeholder pages created');
  ctx.state.ready = true;
  // The PDF printer's folders of server processes killed during an export.
  const printerFolders = sweepPrinterFolders();
  if (printerFolders.length > 0) server.log.info({ folders: printerFolders }, 'printer folders swept');
  // Files a crash or an older version left behind; in the background, the app is open already.
  void sweepFiles(db, config.dataDir).then(
    (swept) => server.log.info({ swept }, 'unreferenced files swept'),
    (error: unknown) => server.log.error({ err: error }, 'file sweep failed'),
  );
  // Bibliography sources due for their scheduled sync (issue 57).
  startSourceSchedule(ctx, (error) => server.log.error({ err: error }, 'bibliography source sync failed'));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  server.log.info(
    `Scriptorium is ready at http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/ (site URL ${config.siteUrl})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
