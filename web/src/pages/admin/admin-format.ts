import { useTranslation } from 'react-i18next';

/** Dates and sizes in the interface language. */
export function useAdminFormat() {
  const { t, i18n } = useTranslation('admin');
  const locale = i18n.language === 'pt-br' ? 'pt-BR' : i18n.language;
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return {
    date: (ms: number | null) => (ms === null ? t('never') : dateTime.format(new Date(ms))),
    bytes: (bytes: number) => {
      if (bytes < 1024) return t('size.bytes', { value: number.format(bytes) });
      if (bytes < 1024 ** 2) return t('size.kilobytes', { value: number.format(bytes / 1024) });
      if (bytes < 1024 ** 3) return t('size.megabytes', { value: number.format(bytes / 1024 ** 2) });
      return t('size.gigabytes', { value: number.format(bytes / 1024 ** 3) });
    },
    number: (value: number) => number.format(value),
  };
}
