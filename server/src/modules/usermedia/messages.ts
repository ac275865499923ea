import type { Language } from '@scriptorium/common/i18n/languages';
import type en from '@scriptorium/common/i18n/locales/en/usermedia.json';
import { translator } from '../../i18n/translate';

/**
 * The server's own texts of the image library live in the `server` part of the usermedia
 * namespace, beside the browser's, so that one file per language holds the whole feature.
 */
export type UsermediaMessage = keyof typeof en.server;

export function usermediaMessage(language: Language, key: UsermediaMessage): string {
  return translator('usermedia', language)(`server.${key}`);
}
