// Benchmark: authenticated GET /api/base/configuration/ (session lookup, user, e-mails, presenter)
// against a bare Fastify route that returns the same bytes, both measured in this run.
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import Fastify from 'fastify';
import { formatLoad, interleavedLoad, loadTest } from './lib/load';
import { benchCall, createBenchUser, loginHeaders, startBenchServer } from './lib/server';
import { againstGoal } from './lib/stats';

const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const server = await startBenchServer('config');
await createBenchUser(server.ctx, 'bench');
const { Cookie } = await loginHeaders(server.base, 'bench');
const headers = { Cookie };
const body = await (await benchCall(server.base, baseApi.configuration, {}, headers)).text();
if (!JSON.parse(body).user.is_authenticated) throw new Error('configuration is not authenticated');

const path = baseApi.configuration.path;
const bare = Fastify({ logger: false });
bare.get(path, (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await bare.listen({ host: '127.0.0.1', port: 0 });
const barePort = (bare.server.address() as { port: number }).port;

// Warm both up, then measure in alternating slices so that machine noise hits both alike.
await loadTest({ port: server.port, path, headers, seconds: 1 });
await loadTest({ port: barePort, path, seconds: 1 });
const [real, baseline] = await interleavedLoad(
  { port: server.port, path, headers },
  { port: barePort, path },
  { seconds: SECONDS * 2 },
);

console.log(`configuration body: ${body.length} bytes`);
console.log(formatLoad(`authenticated ${path}`, real));
console.log(formatLoad('bare Fastify route, same bytes', baseline));
const ratio = real.perSecond / baseline.perSecond;
console.log(`ratio (configuration / bare): ${ratio.toFixed(3)}${againstGoal(ratio, { atLeast: 0.6 })}`);

await bare.close();
await server.close();
