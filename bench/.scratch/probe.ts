import { writeFileSync } from 'node:fs';
import { schema } from '@scriptorium/common/editor/schema';
import type { Node as PMNode } from 'prosemirror-model';
import { withBrowserBench, timeToEditable } from '../lib/browser';
import { articleWithBody, createBenchDocument } from '../lib/documents';
import { measureKeystrokes } from '../lib/keystrokes';
import { loggedInPage } from '../lib/server';
import { percentiles } from '../lib/stats';

const V = 'the of manuscript evidence method results analysis figure table citation model data sample theory'.split(' ');
function longDocument(words: number): PMNode {
  const paragraphs: PMNode[] = [];
  let word = 0;
  while (word < words) {
    const w: string[] = [];
    for (let i = 0; i < 50 && word < words; i++, word++) w.push(V[(word * 7) % V.length]);
    paragraphs.push(schema.nodes.paragraph.create(null, schema.text(`${w.join(' ')}.`)));
  }
  return articleWithBody('A long manuscript', paragraphs);
}
await withBrowserBench('probe', 'prober', async ({ server, browser, headers }) => {
  const longId = await createBenchDocument(server, headers, longDocument(Number(process.env.WORDS ?? 50000)));
  const shortId = await createBenchDocument(server, headers);
  const { page } = await loggedInPage(browser, server.base, headers);
  for (const [name, id] of [['long', longId], ['short', shortId]] as const) {
    await timeToEditable(page, server.base, id);
    const ps = page.locator('.editor-document p');
    const n = await ps.count();
    await ps.nth(Math.floor(n / 2)).click();
    await measureKeystrokes(page, 20);
    const b = page.context().browser()!;
    if (process.env.TRACE) await b.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'blink', 'editing', 'disabled-by-default-devtools.timeline'] });
    const cdp = await page.context().newCDPSession(page);
    if (process.env.PROF) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
    const pct = percentiles(await measureKeystrokes(page, 60));
    if (process.env.PROF) { const { profile } = await cdp.send('Profiler.stop'); writeFileSync(`/tmp/comfort/prof-${name}.cpuprofile`, JSON.stringify(profile)); }
    if (process.env.TRACE) writeFileSync(`/tmp/comfort/trace-${name}.json`, await b.stopTracing());
    console.log(`${name}: p50 ${pct(50).toFixed(1)} p95 ${pct(95).toFixed(1)} max ${pct(100).toFixed(1)}`);
  }
});
