import { describe, expect, it } from 'vitest';
import { chunkGroups, FIRST_SCREEN_TEXTS } from './chunk-groups';

/** A module graph: each module's static imports. */
function graph(imports: Record<string, string[]>) {
  return { getModuleInfo: (id: string) => (id in imports ? { importedIds: imports[id] } : null) };
}

/** The chunk each group gives a module, or null when no group takes it. */
function chunkOf(id: string, modules: ReturnType<typeof graph>): string | null {
  const groups = chunkGroups({ entries: ['/app/main.tsx'], firstScreen: ['/app/shell.tsx'] });
  for (const group of groups) {
    const name = group.name(id, modules);
    if (name) return name;
  }
  return null;
}

describe('chunk groups', () => {
  const modules = graph({
    '/app/main.tsx': ['/app/login.tsx', '/app/shared.ts'],
    '/app/login.tsx': ['/app/shared.ts'],
    '/app/shell.tsx': ['/app/shared.ts', '/app/menu.tsx'],
    '/app/menu.tsx': ['/app/dialog.tsx'],
    '/app/dialog.tsx': [],
    '/app/shared.ts': [],
    '/app/editor.tsx': [],
  });

  it('puts the code only the logged-in first screen reaches in one chunk, nothing the login page loads', () => {
    expect(chunkOf('/app/shell.tsx', modules)).toBe('logged-in');
    expect(chunkOf('/app/menu.tsx', modules)).toBe('logged-in');
    expect(chunkOf('/app/dialog.tsx', modules)).toBe('logged-in');
    expect(chunkOf('/app/shared.ts', modules)).toBeNull();
    expect(chunkOf('/app/login.tsx', modules)).toBeNull();
    expect(chunkOf('/app/editor.tsx', modules)).toBeNull();
  });

  it('puts each language’s texts in a visitor’s chunk, the overview’s and a chunk of the rest', () => {
    const texts = '/common/src/i18n/locales';
    expect(chunkOf(`${texts}/pt-br/accounts.json`, modules)).toBe('texts-pt-br-visitor');
    expect(chunkOf(`${texts}/pt-br/web.json`, modules)).toBe('texts-pt-br-visitor');
    expect(chunkOf(`${texts}/pt-br/documents.json`, modules)).toBe('texts-pt-br-overview');
    expect(chunkOf(`${texts}/bg/ws.json`, modules)).toBe('texts-bg-overview');
    expect(chunkOf(`${texts}/pt-br/editor.json`, modules)).toBe('texts-pt-br');
    expect(chunkOf(`${texts}/de/bibliography.json`, modules)).toBe('texts-de');
    // Those a logged-in start on the overview loads (preloaded for it: web/vite.config.ts).
    expect(FIRST_SCREEN_TEXTS.exec('texts-pt-br-visitor')?.[1]).toBe('pt-br');
    expect(FIRST_SCREEN_TEXTS.exec('texts-bg-overview')?.[1]).toBe('bg');
    expect(FIRST_SCREEN_TEXTS.test('texts-de')).toBe(false);
  });
});
