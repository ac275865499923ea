import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { VISITOR_TEXTS } from '../../build/chunk-groups';
import {
  applyLanguage,
  initI18n,
  loadAllNamespaces,
  loadLanguage,
  loadNamespaces,
  NAMESPACES,
  VISITOR_NAMESPACES,
} from './i18n';

describe('locale loading', () => {
  it('holds only the languages asked for, each with all its namespaces', async () => {
    // test-setup started in English; nothing else is loaded until asked for.
    expect(i18next.hasResourceBundle('en', 'web')).toBe(true);
    expect(i18next.hasResourceBundle('fr', 'web')).toBe(false);
    await loadLanguage('fr');
    for (const namespace of NAMESPACES) expect(i18next.hasResourceBundle('fr', namespace)).toBe(true);
    expect(i18next.hasResourceBundle('fr', 'server')).toBe(false);
    expect(i18next.hasResourceBundle('it', 'web')).toBe(false);
  });

  it('switches only once the texts are there, so no key is ever shown', async () => {
    await applyLanguage('it');
    expect(document.documentElement.lang).toBe('it');
    expect(i18next.t('web:pages.changePassword.title')).not.toBe('pages.changePassword.title');
    expect(i18next.t('web:pages.changePassword.title')).not.toBe(
      i18next.getFixedT('en')('web:pages.changePassword.title'),
    );
    await applyLanguage('en');
  });

  it('is what the build puts in the chunk of a visitor’s texts', () => {
    expect([...VISITOR_TEXTS].sort()).toEqual([...VISITOR_NAMESPACES].sort());
  });
});

describe('a visitor’s first page', () => {
  it('loads only the visitor namespaces, and every namespace once the logged-in shell asks', async () => {
    await initI18n('en', VISITOR_NAMESPACES);
    await applyLanguage('es');
    for (const namespace of VISITOR_NAMESPACES) expect(i18next.hasResourceBundle('es', namespace)).toBe(true);
    expect(i18next.hasResourceBundle('es', 'bibliography')).toBe(false);
    expect(i18next.hasResourceBundle('es', 'editor')).toBe(false);

    await loadAllNamespaces();
    for (const namespace of NAMESPACES) expect(i18next.hasResourceBundle('es', namespace)).toBe(true);
    expect(i18next.t('bibliography:title', { lng: 'es' })).toBe('Bibliografía');
    // A language chosen after logging in comes with every namespace.
    await applyLanguage('de');
    for (const namespace of NAMESPACES) expect(i18next.hasResourceBundle('de', namespace)).toBe(true);
    await applyLanguage('en');
  });
});

describe('a logged-in start (issue 23)', () => {
  it('loads the first screen’s namespaces, and those again in a language chosen before the rest', async () => {
    await initI18n('en', VISITOR_NAMESPACES);
    await applyLanguage('pt-br');
    await loadNamespaces(['documents', 'import']);
    expect(i18next.hasResourceBundle('pt-br', 'documents')).toBe(true);
    expect(i18next.hasResourceBundle('pt-br', 'editor')).toBe(false);
    // The configuration names another language before the remaining texts came.
    await applyLanguage('bg');
    for (const namespace of [...VISITOR_NAMESPACES, 'documents', 'import'])
      expect(i18next.hasResourceBundle('bg', namespace)).toBe(true);
    expect(i18next.hasResourceBundle('bg', 'editor')).toBe(false);
    await applyLanguage('en');
  });
});
