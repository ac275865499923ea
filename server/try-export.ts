import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { prepareDocument } from '@scriptorium/common/export/model';
import { exportDocument } from '@scriptorium/common/export/registry';
import { loadCsl } from './src/modules/documents/export/csl-files';

const paper = fixturePaper();
const engines = new Map();
let t = performance.now();
paper.input.csl = await loadCsl('apa', 'en-US');
console.log('csl', performance.now() - t);
for (let i = 0; i < 1; i++) {
  t = performance.now();
  prepareDocument(paper.input, engines);
  console.log('prepare', performance.now() - t);
  t = performance.now();
  const file = await exportDocument(process.argv[2] as 'docx', paper.input, engines);
  (await import('node:fs')).writeFileSync('/tmp/exp/out.' + process.argv[2], file.data);
  console.log('all', performance.now() - t);
}
