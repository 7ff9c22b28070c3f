// The Admin console (/admin, spec §2, §6): "Checking permissions..." while the viewer is read,
// "Access Denied" for non-administrators, then "Admin Console" with its tabs. Each tab is its own
// chunk with its own query (so the chart library loads only with Statistics), behind a boundary that
// shows the spec's inline alert when its data cannot be loaded. The selected tab is kept in the URL.
import { Spinner, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components';
import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { UserMenu } from '../../components/UserMenu';
import { requireSignedIn } from '../auth-check';
import { useShell } from '../SignedInLayout';
import { AccessDenied } from './AccessDenied';
import { TabErrorBoundary } from './TabErrorBoundary';

export async function loader() {
  await requireSignedIn();
  return null;
}

interface AdminTab {
  value: string;
  label: string;
  Component: LazyExoticComponent<ComponentType>;
  /** The inline alert of spec §8 when the tab's data cannot be loaded. */
  errorTitle: string;
  errorMessage: string;
}

export const ADMIN_TABS: AdminTab[] = [
  {
    value: 'users',
    label: 'Users',
    Component: lazy(() => import('./UsersTab')),
    errorTitle: 'Error Loading Users',
    errorMessage: 'Failed to load user data. Please try refreshing the page or check your admin permissions.',
  },
  {
    value: 'statistics',
    label: 'Statistics',
    Component: lazy(() => import('./StatisticsTab')),
    errorTitle: 'Error Loading Statistics',
    errorMessage: 'Failed to load usage statistics. Please try refreshing the page or check your admin permissions.',
  },
  {
    value: 'pricing',
    label: 'Pricing',
    Component: lazy(() => import('./PricingTab')),
    errorTitle: 'Error Loading Pricing Tiers',
    errorMessage: 'Failed to load pricing tiers. Please try refreshing the page or check your admin permissions.',
  },
  {
    value: 'smart-segments',
    label: 'Smart Segments',
    Component: lazy(() => import('./SmartSegmentsTab')),
    errorTitle: 'Error Loading Smart Segments',
    errorMessage: 'Failed to load categories. Please check your admin permissions.',
  },
  {
    value: 'maintenance',
    label: 'Maintenance',
    Component: lazy(() => import('./MaintenanceTab')),
    errorTitle: 'Error Loading Cleanup Statistics',
    errorMessage: 'Failed to load cleanup statistics. Please check your admin permissions.',
  },
  {
    value: 'audit',
    label: 'Audit Log',
    Component: lazy(() => import('./AuditLogTab')),
    errorTitle: 'Error Loading Audit Log',
    errorMessage: 'Failed to load the audit log. Please try refreshing the page or check your admin permissions.',
  },
];

const useStyles = makeStyles({
  content: {
    maxWidth: '1280px',
    width: '100%',
    margin: '0 auto',
    padding: tokens.spacingHorizontalXL,
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
  tabs: { flexWrap: 'wrap' },
  panel: { minWidth: 0 },
});

/** The spinner of a check or a tab's data on its way. */
export function Checking({ label }: { label: string }) {
  return (
    <div style={{ padding: tokens.spacingVerticalXXXL, display: 'flex', justifyContent: 'center' }} role="status">
      <Spinner label={label} labelPosition="below" />
    </div>
  );
}

export function AdminPage() {
  const s = useStyles();
  const shell = useShell();
  const [params, setParams] = useSearchParams();
  const viewer = shell.data.viewer;
  if (!viewer) return <Checking label="Checking permissions..." />;
  if (!viewer.isAdmin) return <AccessDenied />;

  const selected = ADMIN_TABS.find((t) => t.value === params.get('tab')) ?? ADMIN_TABS[0]!;
  const menu = <UserMenu viewer={viewer} connection={shell.data.crmConnection} onOpenCrm={shell.openCrm} />;
  return (
    <>
      <PageHeader title="Admin Console" menu={menu} />
      <div className={s.content}>
        <TabList
          className={s.tabs}
          selectedValue={selected.value}
          onTabSelect={(_e, d) => setParams(d.value === ADMIN_TABS[0]!.value ? {} : { tab: String(d.value) }, { replace: true })}
          aria-label="Admin sections"
        >
          {ADMIN_TABS.map((t) => (
            <Tab key={t.value} value={t.value} id={`admin-tab-${t.value}`} aria-controls="admin-panel">
              {t.label}
            </Tab>
          ))}
        </TabList>
        <div id="admin-panel" role="tabpanel" aria-labelledby={`admin-tab-${selected.value}`} className={s.panel}>
          <TabErrorBoundary key={selected.value} title={selected.errorTitle} message={selected.errorMessage}>
            <Suspense fallback={<Checking label="Loading..." />}>
              <selected.Component />
            </Suspense>
          </TabErrorBoundary>
        </div>
      </div>
    </>
  );
}
