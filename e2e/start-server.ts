import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { E2E_DATA_DIR, e2eServerEnv } from './server-env';

// A fresh data directory per run, so the specs never see a previous run's users.
rmSync(E2E_DATA_DIR, { recursive: true, force: true });
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  env: e2eServerEnv(),
  stdio: 'inherit',
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
