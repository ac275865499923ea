import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadBlob } from '../../../api/download';
import { runExport } from './run-export';

vi.mock('../../../api/download', () => ({
  downloadBlob: vi.fn(),
  attachmentFileName: (_header: string | null, fallback: string) => fallback,
}));

/** Issue 21: the DOCX/ODT of a stored template's document comes from the server, which holds its reference files. */

const fetchMock = vi.fn();

beforeEach(() => {
  fetchMock.mockReset();
  vi.mocked(downloadBlob).mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function documentOf(template: string) {
  const doc = createDocument(schema, standardArticle, { title: 'Styled' });
  return doc.type.create({ ...doc.attrs, template }, doc.content);
}

describe('runExport of a stored template’s document', () => {
  it('asks the server for the DOCX while online', async () => {
    fetchMock.mockResolvedValue(new Response('docx', { status: 200 }));
    await runExport({ format: 'docx', documentId: 12, doc: documentOf('template-4'), threads: [] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/documents/12/export/docx/');
    expect(vi.mocked(downloadBlob).mock.calls[0][1]).toBe('document.docx');
  });

  it('makes the file itself when the server cannot, and for a document of the built-in template', async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 500 }));
    await runExport({ format: 'odt', documentId: 12, doc: documentOf('template-4'), threads: [] });
    expect(vi.mocked(downloadBlob).mock.calls[0][1]).toBe('Styled.odt');
    fetchMock.mockReset();
    await runExport({ format: 'docx', documentId: 12, doc: documentOf('standard-article'), threads: [] });
    expect(fetchMock.mock.calls.map((call) => String(call[0]))).not.toContain(
      '/api/documents/12/export/docx/',
    );
    expect(vi.mocked(downloadBlob).mock.calls[1][1]).toBe('Styled.docx');
  });
});
