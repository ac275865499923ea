import type { FastifyInstance } from 'fastify';
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

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, dialect } = createDatabase(config);
  let app: FastifyInstance | undefined;
  // The mailer exists before the app; it logs through the app's logger once there is one.
  const mailer = createMailer(config, { info: (details, message) => app?.log.info(details, message) });
  const ctx: AppContext = { config, db, dialect, mailer, state: { ready: false } };

  app = await buildApp(ctx);
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
    server.log.info({ ms: Date.now() - started }, 'stopped');
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
