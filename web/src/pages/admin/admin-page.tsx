import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';
import { ADMIN_SECTIONS, type AdminSection } from './admin-sections';
import { FeedbackSection } from './feedback-section';
import { FlatpagesSection } from './flatpages-section';
import { LogSection } from './log-section';
import { MessagesSection } from './messages-section';
import { SettingsSection } from './settings-section';
import { UsersSection } from './users-section';
import './admin.css';
import { Page } from '../../components/page/page';

const SECTIONS: Record<AdminSection, () => React.JSX.Element> = {
  users: UsersSection,
  pages: FlatpagesSection,
  messages: MessagesSection,
  feedback: FeedbackSection,
  settings: SettingsSection,
  log: LogSection,
};

/** The staff area at /admin/<section>/ (issue 22). */
export function AdminPage({ section }: { section: AdminSection }) {
  const { t } = useTranslation('admin');
  usePageTitle(`${t(`sections.${section}`)} – ${t('title')}`);
  const Section = SECTIONS[section];
  return (
    <Page heading={t('title')} className="admin-page">
      <nav className="admin-nav" aria-label={t('navigation')}>
        <ul className="row-list">
          {ADMIN_SECTIONS.map((name) => (
            <li key={name}>
              <a href={`/admin/${name}/`} aria-current={name === section ? 'page' : undefined}>
                {t(`sections.${name}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-section">
        <Section />
      </div>
    </Page>
  );
}
