import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OVERVIEW_TEXTS } from '../../../build/chunk-groups';
import {
  anonymousConfiguration,
  CONFIGURATION,
  fakeFetch,
  json,
  route,
  userConfiguration,
} from '../../app/testing/fake-fetch';
import { NAMESPACES, VISITOR_NAMESPACES } from '../../i18n/i18n';
import { testDocument } from '../../pages/documents/test-documents';
import { App } from '../app';
import { loadLoggedInShell, SHELL_NAMESPACES, startNamespaces } from './session-hint';

const english = import.meta.glob<Record<string, unknown>>('../../../../common/src/i18n/locales/en/*.json', {
  eager: true,
  import: 'default',
});
const textsOf = (namespace: string) => english[`../../../../common/src/i18n/locales/en/${namespace}.json`];

/** An i18next that holds only these English namespaces and records every key looked up in vain. */
async function textsOnly(namespaces: readonly string[]) {
  const missing: string[] = [];
  const texts = i18next.createInstance();
  await texts.init({
    lng: 'en',
    fallbackLng: 'en',
    ns: [...NAMESPACES],
    defaultNS: 'web',
    resources: { en: Object.fromEntries(namespaces.map((namespace) => [namespace, textsOf(namespace)])) },
    saveMissing: true,
    missingKeyHandler: (_languages, namespace, key) => missing.push(`${namespace}:${key}`),
    interpolation: { escapeValue: false },
  });
  return { texts, missing };
}

/**
 * Draws the logged-in start on the overview (spec 2.2's header and menus, the overview with a
 * document and its share button) with only `namespaces`, and returns the keys it missed.
 */
async function missingKeysOfOverview(namespaces: readonly string[]): Promise<string[]> {
  const { texts, missing } = await textsOnly(namespaces);
  fakeFetch({
    [CONFIGURATION]: json(userConfiguration({ plugins: ['templates', 'books'] })),
    [route(documentsApi.list)]: json({ documents: [testDocument(1, '', 'Draft')] }),
  });
  render(
    <I18nextProvider i18n={texts}>
      <App />
    </I18nextProvider>,
  );
  const table = await screen.findByRole('grid');
  await within(table).findByText('Draft');
  return missing;
}

describe('texts of a logged-in start on the overview (issue 23)', () => {
  beforeAll(async () => {
    await loadLoggedInShell();
  });
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('loads the shell and the overview namespaces, not every one', () => {
    const first = startNamespaces('documents');
    expect(first).toEqual(expect.arrayContaining([...SHELL_NAMESPACES, 'documents', 'import']));
    expect(first).not.toContain('editor');
    expect(first).not.toContain('bibliography');
    // The build puts the ones beyond a visitor's in one chunk a language.
    expect(first.filter((namespace) => !VISITOR_NAMESPACES.includes(namespace)).sort()).toEqual(
      [...OVERVIEW_TEXTS].sort(),
    );
    // A screen that lists no namespaces of its own starts with all of them.
    expect(startNamespaces('editor')).toEqual(NAMESPACES);
  });

  it('finds every text of the first screen in those namespaces', async () => {
    expect(await missingKeysOfOverview(startNamespaces('documents'))).toEqual([]);
  });

  it('has the login page’s texts too, for a hint that was wrong (an expired session)', async () => {
    const { texts, missing } = await textsOnly(startNamespaces('documents'));
    fakeFetch({ [CONFIGURATION]: json(anonymousConfiguration) });
    render(
      <I18nextProvider i18n={texts}>
        <App />
      </I18nextProvider>,
    );
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(missing).toEqual([]);
  });

  it('would see a namespace missing from the list', async () => {
    const withoutDocuments = startNamespaces('documents').filter((namespace) => namespace !== 'documents');
    expect(await missingKeysOfOverview(withoutDocuments)).toContain('documents:title');
  });
});
