import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { E2E_DATA_DIR, e2eServerEnv, SERVER_ENTRY } from './server-env';

if (!existsSync(SERVER_ENTRY)) {
  console.error(`${SERVER_ENTRY} is missing: run \`npm run build\` before the browser specs.`);
  process.exit(1);
}
// A fresh data directory per run, so the specs never see a previous run's users.
rmSync(E2E_DATA_DIR, { recursive: true, force: true });
const server = spawn(process.execPath, [SERVER_ENTRY], { env: e2eServerEnv(), stdio: 'inherit' });
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
