// The sidebar (spec §2): "CRM" header, the entries (two disabled "Coming soon" ones, Admin only for
// administrators) and the usage panel. Collapsed by default and remembered in the browser; collapsed
// it is narrow and expands on hover. Widths are the spec's 16 and 56 units (4 px each).
import { Button, Text, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import {
  ChatSparkle24Regular,
  Mail24Regular,
  PanelLeftContract24Regular,
  PanelLeftExpand24Regular,
  PersonKey24Regular,
  Sparkle24Regular,
  Phone24Regular,
  type FluentIcon,
} from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import type { UsagePanel_usage$key } from '../__generated__/UsagePanel_usage.graphql';
import { sidebarCollapsed } from '../lib/storage';
import { UsagePanel } from './UsagePanel';

export const SIDEBAR_COLLAPSED_PX = 16 * 4;
export const SIDEBAR_EXPANDED_PX = 56 * 4;

const useStyles = makeStyles({
  aside: {
    boxSizing: 'border-box',
    position: 'fixed',
    top: 0,
    left: 0,
    bottom: 0,
    zIndex: 10,
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    transitionProperty: 'width, box-shadow',
    transitionDuration: tokens.durationNormal,
    overflowX: 'hidden',
  },
  floating: { boxShadow: tokens.shadow16 },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    minHeight: '56px',
    paddingLeft: tokens.spacingHorizontalM,
    paddingRight: tokens.spacingHorizontalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  headerCollapsed: { justifyContent: 'center', paddingLeft: 0, paddingRight: 0 },
  nav: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, padding: tokens.spacingVerticalS, flexGrow: 1 },
  link: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    minHeight: '40px',
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecorationLine: 'none',
    whiteSpace: 'nowrap',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outlineWidth: tokens.strokeWidthThick, outlineStyle: 'solid', outlineColor: tokens.colorStrokeFocus2 },
  },
  active: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground1, ':hover': { backgroundColor: tokens.colorBrandBackground2Hover } },
  disabled: { color: tokens.colorNeutralForegroundDisabled, cursor: 'not-allowed', ':hover': { backgroundColor: 'transparent', color: tokens.colorNeutralForegroundDisabled } },
  icon: { flexShrink: 0, width: '24px', height: '24px' },
});

interface Entry {
  to: string;
  label: string;
  icon: FluentIcon;
  disabled?: boolean;
}

const ENTRIES: Entry[] = [
  { to: '/', label: 'Assistant', icon: ChatSparkle24Regular },
  { to: '/smart-segments', label: 'Smart Segments', icon: Sparkle24Regular },
  { to: '/whatsapp-campaigns', label: 'Whatsapp Campaigns', icon: Phone24Regular, disabled: true },
  { to: '/email-campaigns', label: 'Email Campaigns', icon: Mail24Regular, disabled: true },
];

export function useSidebarState() {
  const [collapsed, setCollapsed] = useState(sidebarCollapsed.get);
  const toggle = () =>
    setCollapsed((c) => {
      sidebarCollapsed.set(!c);
      return !c;
    });
  return { collapsed, toggle };
}

export function Sidebar({ collapsed, onToggle, isAdmin, usage }: { collapsed: boolean; onToggle: () => void; isAdmin: boolean; usage: UsagePanel_usage$key }) {
  const s = useStyles();
  const [hovered, setHovered] = useState(false);
  const narrow = collapsed && !hovered;
  const entries = isAdmin ? [...ENTRIES, { to: '/admin', label: 'Admin', icon: PersonKey24Regular }] : ENTRIES;
  return (
    <aside
      className={mergeClasses(s.aside, collapsed && hovered && s.floating)}
      style={{ width: narrow ? SIDEBAR_COLLAPSED_PX : SIDEBAR_EXPANDED_PX }}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHovered(false);
      }}
      aria-label="Main navigation"
    >
      <div className={mergeClasses(s.header, narrow && s.headerCollapsed)}>
        {!narrow && (
          <Text weight="bold" size={500}>
            CRM
          </Text>
        )}
        <Tooltip content={collapsed ? 'Keep the sidebar open' : 'Collapse the sidebar'} relationship="label" showDelay={700} hideDelay={300}>
          <Button appearance="subtle" icon={collapsed ? <PanelLeftExpand24Regular /> : <PanelLeftContract24Regular />} onClick={onToggle} aria-expanded={!collapsed} />
        </Tooltip>
      </div>
      <nav className={s.nav}>
        {entries.map((e) => (
          <SidebarEntry key={e.to} entry={e} narrow={narrow} />
        ))}
      </nav>
      <UsagePanel usage={usage} collapsed={narrow} />
    </aside>
  );
}

function SidebarEntry({ entry, narrow }: { entry: Entry; narrow: boolean }) {
  const s = useStyles();
  const Icon = entry.icon;
  const content: ReactNode = (
    <>
      <Icon className={s.icon} aria-hidden />
      {!narrow && <span>{entry.label}</span>}
    </>
  );
  if (entry.disabled) {
    return (
      <Tooltip content="Coming soon" relationship="description" showDelay={700} hideDelay={300} positioning="after">
        <span className={mergeClasses(s.link, s.disabled)} role="link" aria-disabled="true" aria-label={entry.label} tabIndex={0}>
          {content}
        </span>
      </Tooltip>
    );
  }
  const link = (
    <NavLink to={entry.to} end={entry.to === '/'} className={({ isActive }) => mergeClasses(s.link, isActive && s.active)} aria-label={narrow ? entry.label : undefined}>
      {content}
    </NavLink>
  );
  return narrow ? (
    <Tooltip content={entry.label} relationship="label" showDelay={700} hideDelay={300} positioning="after">
      {link}
    </Tooltip>
  ) : (
    link
  );
}
