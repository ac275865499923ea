import * as base from '../base';
import { endpoint } from '../endpoint';

/** /api/base/: open to visitors (the pre-login shell needs the language and the providers). */
export const baseApi = {
  configuration: endpoint({
    method: 'GET',
    path: '/api/base/configuration/',
    response: base.configuration,
  }),
  flatpage: endpoint({
    method: 'POST',
    path: '/api/base/flatpage/',
    request: base.flatpageRequest,
    response: base.flatpageResponse,
  }),
};

/** /api/i18n/ */
export const i18nApi = {
  setLanguage: endpoint({
    method: 'POST',
    path: '/api/i18n/setlang/',
    request: base.setLanguageRequest,
    response: base.setLanguageResponse,
  }),
};

/** /api/feedback/ */
export const feedbackApi = {
  send: endpoint({
    method: 'POST',
    path: '/api/feedback/feedback/',
    request: base.feedbackRequest,
    response: base.okResponse,
  }),
};
