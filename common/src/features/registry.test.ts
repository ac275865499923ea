import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { FEATURE_NODE_NAMES, NODE_FEATURES } from './registry';

/** The writers and the readers' builder: they reach a feature's node through its hooks only. */
const GENERIC_FILES = [
  '../export/writer.ts',
  '../export/docx.ts',
  '../export/odt.ts',
  '../export/html.ts',
  '../export/latex.ts',
  '../export/jats.ts',
  '../export/markdown.ts',
  '../import/build.ts',
  '../editor/templates.ts',
  '../editor/paste.ts',
  '../editor/outline.ts',
  '../editor/academic-commands.ts',
];

describe('node features', () => {
  it('puts every feature node in the schema', () => {
    for (const feature of NODE_FEATURES)
      for (const name of Object.keys(feature.nodes))
        expect(schema.nodes[name]?.spec).toBe(feature.nodes[name]);
  });

  it('leaves the node names out of the writers, the builder and the generic editor rules', () => {
    const named: string[] = [];
    for (const file of GENERIC_FILES) {
      const text = readFileSync(new URL(file, import.meta.url), 'utf8');
      for (const name of FEATURE_NODE_NAMES)
        if (text.includes(`'${name}'`) || text.includes(`nodes.${name}`) || text.includes(`${name}(`))
          named.push(`${file}: ${name}`);
    }
    expect(named).toEqual([]);
  });
});
