import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/page/page';

/** A message page of the web texts pages.<name>: its title, heading and text, and the thing to do next. */
export function TextsPage({ name, children }: { name: string; children?: ReactNode }) {
  const { t } = useTranslation('web');
  return (
    <MessagePage
      title={t(`pages.${name}.title`)}
      heading={t(`pages.${name}.heading`)}
      text={t(`pages.${name}.text`)}
    >
      {children}
    </MessagePage>
  );
}
