// Benchmarks of issue 14's hardening, each against a baseline measured in the same run:
//  1. the answer time of a password reset for a registered address against an unknown one
//     (median of each; the ratio should be about 1: the answer must not tell them apart);
//  2. the answer time of GET /api/base/configuration/ while hostile SVGs (20,000 nested groups;
//     a flat one of 200,000 elements) are uploaded, against the same request on an idle server;
//  3. issue 50's denial-of-service run (lib/denial-of-service.ts): a second user's configuration
//     answers (p50/p99, goal p99 <= 100 ms) while one user runs each heavy path (a citation of
//     10,000 works imported, a DOCX of 5,000 citations, 8 PDFs at once, LaTeX export loops, 200
//     sockets),
//     against a baseline of the same run, and every server process's peak memory (goal <= 2 GiB);
//     idle and with a CPU hog on every core, each with the heavy work at the event loop's priority
//     and below it (HEAVY_WORK_NICENESS 0 and 10). The calm user's requests are timed in a thread of
//     their own, one every 10 ms. BENCH_DOS=0 leaves it out.
//  4. the event loop's longest stall during a process's first PDF (lib/first-pdf-stall.ts, a fresh
//     process each): the server's printer thread against the printer on the event loop (as before
//     issue 50's fix: loading playwright-core alone held it about 1.4 s) and against no PDF at all
//     (the machine's own noise), idle and with a CPU hog on every core.

import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { drainMailQueue } from '../server/src/mail/queue';
import { startCpuHog } from './lib/cpu';
import { runDenialOfService } from './lib/denial-of-service';
import { benchCall, createBenchUser, loginHeaders, startBenchServer } from './lib/server';
import { median } from './lib/stats';

const RESETS = Number(process.env.BENCH_RESETS || 40);
const UPLOAD_ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS || 3);

const server = await startBenchServer('hardening', { TRUST_PROXY: 'true' });
const { ctx, base } = server;

const first = await benchCall(base, baseApi.configuration);
const csrf = /csrftoken=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';

// 1. Password reset answers. Each request from its own address and to its own mailbox, so that
// the per-address and per-mailbox limits never answer in place of the reset itself.
const known: number[] = [];
const unknown: number[] = [];
for (let index = 0; index < RESETS; index += 2) await createBenchUser(ctx, `reset${index}`);
for (let index = 0; index < RESETS; index++) {
  const registered = index % 2 === 0;
  const username = `reset${index}`;
  const email = registered ? `${username}@example.org` : `nobody${index}@example.net`;
  const started = performance.now();
  const response = await benchCall(
    base,
    userApi.passwordReset,
    { email },
    {
      'X-CSRFToken': csrf,
      Cookie: `csrftoken=${csrf}`,
      'X-Forwarded-For': `10.9.${index >> 8}.${index & 255}`,
    },
  );
  await response.text();
  (registered ? known : unknown).push(performance.now() - started);
  if (response.status !== 200) throw new Error(`reset ${index} answered ${response.status}`);
  // The mail of a registered address is composed after the answer; let it finish before the
  // next request so that it slows neither kind of request.
  await drainMailQueue(ctx);
}
const knownMedian = median(known);
const unknownMedian = median(unknown);
console.log(
  `password reset answer, registered address: ${knownMedian.toFixed(1)} ms median; unknown address (baseline): ${unknownMedian.toFixed(1)} ms; ratio ${(knownMedian / unknownMedian).toFixed(2)}`,
);

// 2. Configuration latency while hostile SVGs are processed.
await createBenchUser(ctx, 'uploader');
const { 'X-CSRFToken': uploadCsrf, Cookie: cookie } = await loginHeaders(base, 'uploader');
const OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">';
const hostile = [
  `${OPEN}${'<g>'.repeat(20_000)}<rect width="1" height="1"/>${'</g>'.repeat(20_000)}</svg>`,
  `${OPEN}${'<rect x="1" y="1" width="1" height="1"/>'.repeat(200_000)}</svg>`,
];

async function configurationTimes(until: () => boolean, minimum: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < minimum || !until()) {
    const started = performance.now();
    await (await benchCall(base, baseApi.configuration)).text();
    times.push(performance.now() - started);
  }
  return times;
}

const idle = await configurationTimes(() => true, 100);
const busy: number[] = [];
for (let round = 0; round < UPLOAD_ROUNDS; round++) {
  for (const svg of hostile) {
    const image = new File([svg], 'hostile.svg', { type: 'image/svg+xml' });
    let done = false;
    const upload = benchCall(base, usermediaApi.save, { image }, { cookie, 'X-CSRFToken': uploadCsrf }).then(
      async (response) => {
        await response.text();
        done = true;
        if (response.status !== 400) throw new Error(`hostile upload answered ${response.status}`);
      },
    );
    busy.push(...(await configurationTimes(() => done, 1)));
    await upload;
  }
}
console.log(
  `configuration answer while hostile SVGs are processed: ${median(busy).toFixed(1)} ms median, ${Math.max(...busy).toFixed(1)} ms worst (${busy.length} requests); idle server (baseline): ${median(idle).toFixed(1)} ms median; ratio ${(median(busy) / median(idle)).toFixed(2)}`,
);

await server.close();

if (process.env.BENCH_DOS !== '0') {
  console.log('denial of service: one user runs each heavy path while another asks for its configuration');
  await runDenialOfService();
}

// 4. The event loop during a process's first PDF.
interface Stall {
  mode: string;
  maxStallMs: number;
  p99Ms: number;
  lateTurns: number;
  wallMs: number;
  rssMiB: number;
}
const stallOf = (mode: string, ...rest: string[]): Stall =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'lib/first-pdf-stall.ts'), mode, ...rest],
      {
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n')
      .at(-1) ?? '{}',
  ) as Stall;
const showStall = (stall: Stall) =>
  `${stall.maxStallMs.toFixed(0)} ms longest stall, p99 ${stall.p99Ms.toFixed(0)} ms, ${stall.lateTurns} turns late > 50 ms, ${(stall.wallMs / 1000).toFixed(1)} s, ${stall.rssMiB.toFixed(0)} MiB resident after`;
for (const hogged of [false, true]) {
  const hog = hogged ? startCpuHog() : null;
  try {
    const load = os.loadavg()[0].toFixed(1);
    const thread = stallOf('thread');
    const inline = stallOf('inline');
    const none = stallOf('none', String(Math.round(thread.wallMs)));
    console.log(
      `first PDF of a process${hogged ? ', CPU hog on every core' : ''} (load ${load}): printer thread ${showStall(thread)}; printer on the event loop (before, baseline) ${showStall(inline)}; no PDF (machine noise) ${showStall(none)}; longest stall ratio thread/before ${(thread.maxStallMs / inline.maxStallMs).toFixed(2)}`,
    );
  } finally {
    hog?.stop();
  }
}
