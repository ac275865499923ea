import type { AuthenticatedUser, Configuration } from '@scriptorium/common/api/base';
import { useEffect } from 'react';
import { CommandPalette } from '../../actions/command-palette';
import type { Route } from '../../app/router/routes';
import { FeedbackTab } from '../../components/feedback/feedback-tab';
import { WaitingInvitesNotice } from '../../pages/contacts/waiting-invites-notice';
import { LiveConnection } from '../../ws/live-connection';
import type { RouteTable } from '../routes/route-table';
import { RouteView } from '../routes/route-view';
import { Footer } from './footer';
import { MainHeader } from './main-header';
import { loadRemainingTexts } from './remaining-texts';
import { SkipLink } from './skip-link';

interface LoggedInShellProps {
  user: AuthenticatedUser;
  configuration: Configuration;
  route: Route;
  table: RouteTable;
}

/**
 * Spec 2.2: header, the page and the feedback tab for logged-in users; the footer keeps the
 * language selector within reach after login too.
 */
export function LoggedInShell({ user, configuration, route, table }: LoggedInShellProps) {
  useEffect(loadRemainingTexts, []);
  return (
    <div className="app logged-in">
      {/* Pages listen to the app-wide connection (e.g. live titles), so it holds them all. */}
      <LiveConnection wsUrlBase={configuration.ws_url_base}>
        <SkipLink />
        <MainHeader user={user} items={table.headerItems} page={route.page} />
        <WaitingInvitesNotice page={route.page} />
        <main id="main" className="app-main" tabIndex={-1}>
          <RouteView route={route} table={table} />
        </main>
        <Footer showLanguage contactEmail={configuration.contact_email} />
        <FeedbackTab />
        <CommandPalette />
      </LiveConnection>
    </div>
  );
}
