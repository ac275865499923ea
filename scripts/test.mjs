#!/usr/bin/env node
// `npm test`: every layer in turn — lint and types, unit + API tests (Vitest; SQLite always,
// PostgreSQL/Redis where TEST_DATABASE_URL/TEST_REDIS_URL are set), then the browser specs
// (Playwright in Debian's Chromium against a freshly built app) and the screenshot gallery's
// layout check (scripts/screenshots-check.ts). Prints one closing line
// "N passed, N failed" summed over the runners; exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-test-'));
const only = process.argv[2]; // optional: lint | unit | e2e
let passed = 0;
let failed = 0;
let skipped = 0;
let stepFailed = false;

function step(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.log(`=== ${name} FAILED (exit ${result.status ?? result.signal})`);
    stepFailed = true;
  }
  return result.status === 0;
}

if (process.env.REQUIRE_SERVICES === '1' && !process.env.TEST_DATABASE_URL) {
  console.log('REQUIRE_SERVICES=1 but TEST_DATABASE_URL is not set: the PostgreSQL leg would be skipped.');
  process.exit(1);
}

if (!only || only === 'lint') {
  const ok =
    step('lint', 'npx', ['biome', 'check', '.']) && step('types', 'npx', ['tsc', '-p', 'tsconfig.json']);
  ok ? passed++ : failed++;
}

if (!only || only === 'unit') {
  const out = path.join(reports, 'vitest.json');
  step('unit and API tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
  ]);
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests; // a file that fails to load still fails the step (below)
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else failed++;
}

if (!only || only === 'e2e') {
  const out = path.join(reports, 'playwright.json');
  if (step('build', 'npm', ['run', 'build'])) {
    step('browser tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    // The gallery of every screen and dialog, failing on sideways scrolling on a phone or a
    // dialog that clips its own parts (scripts/screenshots-check.ts starts its own server).
    step('screenshots', 'npx', ['tsx', 'scripts/screenshots-check.ts'], {
      SHOT_DIR: path.join(reports, 'screenshots'),
    })
      ? passed++
      : failed++;
  }
  if (existsSync(out)) {
    const { stats } = JSON.parse(readFileSync(out, 'utf8'));
    passed += stats.expected;
    failed += stats.unexpected;
    skipped += stats.skipped;
  } else failed++;
}

if (stepFailed && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
