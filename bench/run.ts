// `npm run bench`: runs every benchmark of bench/ in turn, each in its own process so that one
// benchmark's heap and sockets do not disturb the next. Each prints its own figures and ratios.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n### ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
