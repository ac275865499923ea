import { EXPORT_FORMATS } from '@scriptorium/common/export/registry';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMAT_NAMES, isExportFormat } from './format-names';

describe('export format names without the registry', () => {
  it('are the registry formats, in its order', () => {
    expect([...EXPORT_FORMAT_NAMES]).toEqual(Object.keys(EXPORT_FORMATS));
  });

  it('tell a format from other names', () => {
    expect(isExportFormat('docx')).toBe(true);
    expect(isExportFormat('pdf')).toBe(false);
    expect(isExportFormat('constructor')).toBe(false);
  });
});
