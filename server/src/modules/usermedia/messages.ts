import type { Language } from '@scriptorium/common/i18n/languages';
import bg from '@scriptorium/common/i18n/locales/bg/usermedia.json';
import de from '@scriptorium/common/i18n/locales/de/usermedia.json';
import en from '@scriptorium/common/i18n/locales/en/usermedia.json';
import es from '@scriptorium/common/i18n/locales/es/usermedia.json';
import fr from '@scriptorium/common/i18n/locales/fr/usermedia.json';
import it from '@scriptorium/common/i18n/locales/it/usermedia.json';
import ptBr from '@scriptorium/common/i18n/locales/pt-br/usermedia.json';

/**
 * The server's own texts of the image library live in the `server` part of the usermedia
 * namespace, beside the browser's, so that one file per language holds the whole feature.
 */
export type UsermediaMessage = keyof typeof en.server;

const MESSAGES: Record<Language, typeof en.server> = {
  bg: bg.server,
  de: de.server,
  en: en.server,
  es: es.server,
  fr: fr.server,
  it: it.server,
  'pt-br': ptBr.server,
};

export function usermediaMessage(language: Language, key: UsermediaMessage): string {
  return MESSAGES[language]?.[key] ?? en.server[key];
}
