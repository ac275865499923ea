import { readFileSync, existsSync } from 'node:fs';
import { SourceMapConsumer } from 'source-map-js';
const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const maps = new Map();
function consumer(url) {
  const file = url.split('/').pop();
  if (!file) return null;
  if (!maps.has(file)) {
    const p = `web/dist/assets/${file}.map`;
    maps.set(file, existsSync(p) ? new SourceMapConsumer(JSON.parse(readFileSync(p, 'utf8'))) : null);
  }
  return maps.get(file);
}
const name = new Map();
for (const node of profile.nodes) {
  const f = node.callFrame;
  const c = f.url ? consumer(f.url) : null;
  let key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
  if (c) {
    const o = c.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
    if (o.source) key = `${o.name || f.functionName || '(anon)'} ${o.source.replace(/.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${o.line}`;
  }
  name.set(node.id, key);
}
const parent = new Map();
for (const n of profile.nodes) for (const ch of n.children ?? []) parent.set(ch, n.id);
const dt = profile.timeDeltas; const total = new Map(); const self = new Map();
profile.samples.forEach((s, i) => {
  const d = (dt[i + 1] ?? 0) / 1000;
  self.set(name.get(s), (self.get(name.get(s)) ?? 0) + d);
  const seen = new Set();
  for (let id = s; id !== undefined; id = parent.get(id)) seen.add(name.get(id));
  for (const k of seen) total.set(k, (total.get(k) ?? 0) + d);
});
const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${v.toFixed(1).padStart(8)}  ${k}`));
console.log('SELF'); top(self, 25); console.log('INCLUSIVE'); top(total, Number(process.argv[3] ?? 60));
