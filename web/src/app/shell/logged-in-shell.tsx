import type { AuthenticatedUser, Configuration } from '@scriptorium/common/api/base';
import { useMemo } from 'react';
import { FeedbackTab } from '../../components/feedback/feedback-tab';
import { WaitingInvitesNotice } from '../../pages/contacts/waiting-invites-notice';
import { LiveConnection } from '../../ws/live-connection';
import { RouteView } from '../router/route-view';
import type { Route } from '../router/routes';
import { Footer } from './footer';
import { MainHeader } from './main-header';
import { navigationItems } from './navigation-items';
import { useNavigationShortcuts } from './shortcuts';
import { SkipLink } from './skip-link';

interface LoggedInShellProps {
  user: AuthenticatedUser;
  configuration: Configuration;
  route: Route;
}

/**
 * Spec 2.2: header, the page and the feedback tab for logged-in users; the footer keeps the
 * language selector within reach after login too.
 */
export function LoggedInShell({ user, configuration, route }: LoggedInShellProps) {
  const items = useMemo(() => navigationItems(configuration.plugins), [configuration.plugins]);
  useNavigationShortcuts(items);
  return (
    <div className="app logged-in">
      <SkipLink />
      <MainHeader user={user} items={items} page={route.page} />
      <WaitingInvitesNotice page={route.page} />
      <main id="main" className="app-main" tabIndex={-1}>
        <RouteView route={route} />
      </main>
      <Footer showLanguage contactEmail={configuration.contact_email} />
      <FeedbackTab />
      <LiveConnection wsUrlBase={configuration.ws_url_base} />
    </div>
  );
}
