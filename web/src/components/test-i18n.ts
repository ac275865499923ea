import en from '@scriptorium/common/i18n/locales/en/components.json';
import { type RenderResult, render } from '@testing-library/react';
import i18next, { type i18n } from 'i18next';
import { createElement, type ReactElement } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { ActionRegistry } from '../actions/registry';
import { ActionsProvider } from '../actions/use-actions';

/** A throwaway English i18next instance, so widget tests do not depend on the app's i18n setup. */
export function createTestI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    ns: ['components'],
    defaultNS: 'components',
    resources: { en: { components: en } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}

export function renderWithI18n(ui: ReactElement): RenderResult {
  const instance = createTestI18n();
  // A fresh action registry per render, with its keydown listener: menus' shortcuts run through it.
  const registry = new ActionRegistry();
  return render(ui, {
    wrapper: ({ children }) =>
      createElement(
        I18nextProvider,
        { i18n: instance },
        createElement(ActionsProvider, { registry, children }),
      ),
  });
}
