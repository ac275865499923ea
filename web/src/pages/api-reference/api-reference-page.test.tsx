import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, userConfiguration } from '../../app/testing/fake-fetch';
import { startApp } from '../../root/testing/start-app';
import { OPENAPI_URL } from './openapi-view';

const OPENAPI = `GET ${OPENAPI_URL}`;
const ERROR = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/** A small OpenAPI document shaped like the server's (server/src/modules/v1/openapi.ts). */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Scriptorium API', version: '1' },
  paths: {
    '/api/v1/documents/{id}/content/': {
      post: {
        operationId: 'documentsContent',
        summary: 'Append Markdown to the body.',
        tags: ['documents'],
        'x-token-scope': 'documents:write',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: {
                  mode: { type: 'string', enum: ['append', 'replace'], description: 'append or replace' },
                  markdown: { type: 'string', description: 'Markdown text with `[@key]` citations' },
                },
                required: ['markdown'],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Success.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    version: { type: 'number', description: 'the version after the change' },
                    unknown_citations: { type: 'array', items: { type: 'string' } },
                  },
                  required: ['version'],
                },
              },
            },
          },
          '403': { description: 'The token lacks the scope (`insufficient_scope`).', ...ERROR },
        },
      },
    },
    '/api/v1/documents/{id}/export/{format}/': {
      get: {
        operationId: 'documentsExport',
        summary: 'Export a document as a file.',
        tags: ['documents'],
        'x-token-scope': 'documents:read',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'format', in: 'path', required: true, schema: { type: 'string', enum: ['pdf', 'html'] } },
        ],
        responses: {
          '200': {
            description: 'The file, named in Content-Disposition.',
            content: { 'application/octet-stream': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/api/v1/images/': {
      get: {
        operationId: 'imagesList',
        summary: 'List your images, in pages.',
        tags: ['images'],
        'x-token-scope': 'images:read',
        parameters: [
          { name: 'cursor', in: 'query', required: false, description: 'where the page starts', schema: {} },
        ],
        responses: {
          '200': {
            description: 'Success.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    images: {
                      type: 'array',
                      items: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
                    },
                    next_cursor: { type: ['string', 'null'] },
                  },
                  required: ['images', 'next_cursor'],
                },
              },
            },
          },
        },
      },
    },
  },
};

const BLOCKS = new Set(['P', 'LI', 'UL', 'H3', 'H4', 'DL', 'DT', 'DD', 'DIV', 'BUTTON']);

/** The text as read: blocks apart, whitespace collapsed. */
function text(element: Element | null): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent ?? '');
      else if (child instanceof Element) {
        const block = BLOCKS.has(child.tagName);
        if (block) parts.push(' ');
        walk(child);
        if (block) parts.push(' ');
      }
    }
  };
  if (element) walk(element);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

describe('API reference page (issue 57)', { timeout: 30000 }, () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/help/api/');
  });

  it('draws the served OpenAPI document by tag, with scopes, fields and the answer', async () => {
    const server = startApp(userConfiguration(), { [OPENAPI]: json(DOCUMENT) });
    const documents = await screen.findByRole('region', { name: 'Documents' }, { timeout: 10000 });
    expect(server.count(OPENAPI)).toBe(1);
    expect(document.title).toBe('API reference - Scriptorium');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('API reference');
    expect(screen.getAllByRole('heading', { level: 2 }).map(text)).toEqual([
      'Contents',
      'Tokens',
      'Errors',
      'Documents',
      'Images',
    ]);

    // The operation: its heading is its anchor, the table of contents links it.
    const content = within(documents).getByRole('article', { name: 'POST /api/v1/documents/{id}/content/' });
    expect(content.querySelector('h3')?.id).toBe('op-documentsContent');
    const contents = screen.getByRole('navigation', { name: 'Contents' });
    expect(
      within(contents)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '#api-tokens',
      '#api-errors',
      '#api-group-documents',
      '#op-documentsContent',
      '#op-documentsExport',
      '#api-group-images',
      '#op-imagesList',
    ]);
    expect(text(content.querySelector('p'))).toBe('Append Markdown to the body.');
    expect([...content.querySelectorAll('dt')].map(text)).toEqual(['Scope', 'Sent as', 'Errors']);
    expect([...content.querySelectorAll('dd')].map(text)).toEqual([
      'documents:write',
      'application/x-www-form-urlencoded',
      '403',
    ]);
    expect(within(content).getAllByRole('heading', { level: 4 }).map(text)).toEqual(['Parameters', 'Answer']);
    const [fields, answer] = within(content).getAllByRole('list');
    expect(within(fields).getAllByRole('listitem').map(text)).toEqual([
      'id integer path required',
      'mode "append" | "replace" form append or replace',
      'markdown string form required Markdown text with [@key] citations',
    ]);
    expect(fields.querySelector('.api-description code')?.textContent).toBe('[@key]');
    expect(within(answer).getAllByRole('listitem').map(text)).toEqual([
      'version number the version after the change',
      'unknown_citations string[] optional',
    ]);

    // A file answer shows its media type and description; a list's items show their own fields.
    const exported = screen.getByRole('article', { name: 'GET /api/v1/documents/{id}/export/{format}/' });
    expect(text(exported)).toContain('application/octet-stream: The file, named in Content-Disposition.');
    expect(text(exported)).toContain('format "pdf" | "html" path required');
    const images = screen.getByRole('article', { name: 'GET /api/v1/images/' });
    expect(text(images)).toContain('cursor any query where the page starts');
    expect(text(images)).toContain('images object[] id number next_cursor string | null');

    // The intro: tokens link to the profile's token section, errors list the document's statuses.
    const tokens = screen.getByRole('region', { name: 'Tokens' });
    expect(
      within(tokens)
        .getByRole('link', { name: 'Create and revoke tokens on your profile page' })
        .getAttribute('href'),
    ).toBe('/user/profile/#access-tokens');
    const errors = screen.getByRole('region', { name: 'Errors' });
    expect(text(errors.querySelector('dl'))).toBe('403 The token lacks the scope (insufficient_scope).');
  });

  it('says so when the document cannot be fetched, and tries again', async () => {
    const server = startApp(userConfiguration(), {
      [OPENAPI]: [json({ error: 'server_error', message: 'Down' }, 500), json(DOCUMENT)],
    });
    const message = await screen.findByText('Could not load the API description.', {}, { timeout: 10000 });
    const alert = message.closest('[role="alert"]') as HTMLElement;
    expect(text(alert)).toBe('Could not load the API description. Try again');
    expect(screen.queryByRole('navigation', { name: 'Contents' })).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Images' })).toBeTruthy();
    expect(server.count(OPENAPI)).toBe(2);
    expect(screen.queryByText('Could not load the API description.')).toBeNull();
  });
});
