import type { ReactNode } from 'react';
import { Tabs as AriaTabs, Tab, TabList, TabPanel } from 'react-aria-components';
import './tabs.css';

export interface TabItem {
  id: string;
  /** The tab's visible name (also its panel's name). */
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps {
  /** Accessible name of the list of tabs ('Book'). */
  label: string;
  tabs: TabItem[];
  /** Controlled: the tab shown. */
  selectedId?: string;
  /** Uncontrolled: the tab shown first (default: the first). */
  defaultSelectedId?: string;
  onSelectionChange?(id: string): void;
  /**
   * Keep the hidden panels in the page (hidden, out of the tab order): their fields keep what was
   * typed and belong to a surrounding form when it is sent.
   */
  keepMounted?: boolean;
  className?: string;
}

/**
 * Sections a user switches between, on react-aria's Tabs: a tab list (left and right arrows, Home
 * and End move between tabs and show them) above the shown panel.
 */
export function Tabs({
  label,
  tabs,
  selectedId,
  defaultSelectedId,
  onSelectionChange,
  keepMounted = false,
  className,
}: TabsProps) {
  return (
    <AriaTabs
      className={`tabs${className ? ` ${className}` : ''}`}
      selectedKey={selectedId}
      defaultSelectedKey={defaultSelectedId}
      onSelectionChange={(key) => onSelectionChange?.(String(key))}
    >
      <TabList className="tabs-list" aria-label={label}>
        {tabs.map((tab) => (
          <Tab key={tab.id} id={tab.id} className="tabs-tab">
            {tab.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((tab) => (
        <TabPanel key={tab.id} id={tab.id} className="tabs-panel" shouldForceMount={keepMounted}>
          {tab.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
