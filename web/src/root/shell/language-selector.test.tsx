import { i18nApi } from '@scriptorium/common/api/endpoints/base';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, route } from '../../app/testing/fake-fetch';
import { loadSelect } from '../../components/form/deferred-select';
import { chooseOption, selectButton, shownChoice } from '../../components/form/select-testing';
import { LanguageSelector } from './language-selector';

/** A small in-memory Cache Storage: jsdom has none. */
function fakeCacheStorage(names: string[]) {
  const stored = new Set(names);
  return {
    stored,
    keys: async () => [...stored],
    delete: async (name: string) => stored.delete(name),
  };
}

function openDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, 4);
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

describe('language selector (spec 2.3 and 7)', () => {
  // The footer's select loads its list on first use (deferred-select.test.tsx); here it is loaded.
  beforeAll(() => loadSelect());

  it('offers the seven languages, each named in itself, with the current one selected', () => {
    render(<LanguageSelector reload={() => {}} />);
    expect(shownChoice('Language')).toBe('English');
    fireEvent.click(selectButton('Language'));
    // Each option carries its language, so it is read and hyphenated in it.
    expect(screen.getAllByRole('option').map((option) => option.getAttribute('lang'))).toEqual([
      'bg',
      'de',
      'en',
      'es',
      'fr',
      'it',
      'pt-br',
    ]);
    expect(screen.getByRole('option', { name: 'Deutsch' })).toBeTruthy();
  });

  it('posts the language, clears local storage, session storage, caches and databases, then reloads', async () => {
    const server = fakeFetch({ [route(i18nApi.setLanguage)]: json({ language: 'fr' }) });
    const cacheStorage = fakeCacheStorage(['app-shell-v1', 'citation-styles']);
    vi.stubGlobal('caches', cacheStorage);
    const databases = new IDBFactory();
    vi.stubGlobal('indexedDB', databases);
    await openDatabase(databases, 'ada');
    localStorage.setItem('bibliography', '{"version":"1.1"}');
    sessionStorage.setItem('draft', 'x');
    const reload = vi.fn();

    render(<LanguageSelector reload={reload} />);
    chooseOption('Language', 'Français');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));

    expect(server.requests.map((request) => [request.method, request.url, request.body?.toString()])).toEqual(
      [['POST', i18nApi.setLanguage.path, 'language=fr']],
    );
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(cacheStorage.stored.size).toBe(0);
    expect(await databases.databases()).toEqual([]);
  });

  it('keeps everything and says so when the server refuses', async () => {
    fakeFetch({ [route(i18nApi.setLanguage)]: json({ error: 'bad', message: 'no' }, 400) });
    localStorage.setItem('keep', '1');
    const reload = vi.fn();
    render(<LanguageSelector reload={reload} />);
    chooseOption('Language', 'Deutsch');
    expect((selectButton('Language') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect((selectButton('Language') as HTMLButtonElement).disabled).toBe(false));
    expect(reload).not.toHaveBeenCalled();
    expect(localStorage.getItem('keep')).toBe('1');
    localStorage.clear();
  });
});
