// The frame of every signed-in screen: the sidebar with the usage panel, the CRM Integration modal
// (opened once per browser session when no token is stored, and on the OAuth return), and live data
// — usage from `usageUpdated`, today's segment count from `dailySegmentsUpdated`, each event carrying
// its records into the store by id — with the spec's polling intervals only while the websocket is
// down, and one read when it comes back.
import { makeStyles, tokens } from '@fluentui/react-components';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { graphql, loadQuery, usePreloadedQuery, useQueryLoader, useRelayEnvironment, useSubscription, type PreloadedQuery } from 'react-relay';
import { Outlet, useLoaderData, useLocation, useNavigate, useOutletContext } from 'react-router-dom';
import { fetchQuery, type GraphQLSubscriptionConfig } from 'relay-runtime';
import type { SignedInLayoutDailySubscription } from '../__generated__/SignedInLayoutDailySubscription.graphql';
import type { SignedInLayoutQuery } from '../__generated__/SignedInLayoutQuery.graphql';
import type { SignedInLayoutUsageSubscription } from '../__generated__/SignedInLayoutUsageSubscription.graphql';
import { CrmIntegrationDialog } from '../components/CrmIntegrationDialog';
import { LoadingScreen } from '../components/LoadingScreen';
import { ReconnectingBanner } from '../components/ReconnectingBanner';
import { SIDEBAR_COLLAPSED_PX, SIDEBAR_EXPANDED_PX, Sidebar, useSidebarState } from '../components/Sidebar';
import { crmModalFlag } from '../lib/storage';
import { useLiveFallback } from '../lib/live-fallback';
import { preloadToaster, useNotify } from '../lib/toasts';
import { getEnvironment, onSessionEnded, resetAfterSignedInScreens, resetIfSignedOut } from '../relay/environment';
import { markSignedOut, requireSignedIn } from './auth-check';

export const LAYOUT_QUERY = graphql`
  query SignedInLayoutQuery {
    viewer {
      id
      isAdmin
      ...UserMenu_viewer
    }
    usage {
      id
      ...UsagePanel_usage
      ...ChatPanel_usage
      ...SmartSegmentsPage_usage
    }
    crmConnection {
      id
      hasToken
      crmLabel
      ...UserMenu_connection
      ...CrmIntegrationDialog_connection
    }
    dailySegmentsDay {
      id
      count
    }
  }
`;

/** Polling fallback of spec §9 (usage every 3 s; the daily count's 5 s is covered by it), only while the websocket is down. */
const USAGE_POLL_MS = 3000;

export async function signedInLayoutLoader() {
  await requireSignedIn();
  return loadQuery<SignedInLayoutQuery>(getEnvironment(), LAYOUT_QUERY, {});
}

export interface ShellContext {
  data: SignedInLayoutQuery['response'];
  openCrm: () => void;
}

/** What signed-in screens read from the frame: viewer, connection and today's segment count. */
export const useShell = () => useOutletContext<ShellContext>();

const useStyles = makeStyles({
  main: { minHeight: '100vh', backgroundColor: tokens.colorNeutralBackground2, transitionProperty: 'margin-left', transitionDuration: tokens.durationNormal, minWidth: 0, ':focus': { outlineStyle: 'none' } },
});

export function SignedInLayout() {
  useEffect(() => resetIfSignedOut, []);
  const [ref] = useQueryLoader<SignedInLayoutQuery>(LAYOUT_QUERY, useLoaderData() as PreloadedQuery<SignedInLayoutQuery>);
  return ref ? (
    <Suspense fallback={<LoadingScreen />}>
      <Shell queryRef={ref} />
    </Suspense>
  ) : (
    <LoadingScreen />
  );
}

function Shell({ queryRef }: { queryRef: PreloadedQuery<SignedInLayoutQuery> }) {
  const s = useStyles();
  const data = usePreloadedQuery<SignedInLayoutQuery>(LAYOUT_QUERY, queryRef);
  const { collapsed, toggle } = useSidebarState();
  const [crmOpen, setCrmOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  useLiveData();
  useSessionEnd();
  useOAuthReturn(() => setCrmOpen(false));
  useEffect(preloadToaster, []);

  // Opens once per browser session when the token check reports no token (spec §2).
  useEffect(() => {
    if (!data.crmConnection.hasToken && !crmModalFlag.wasShown() && !new URLSearchParams(window.location.search).has('oauth')) {
      crmModalFlag.markShown();
      setCrmOpen(true);
    }
  }, [data.crmConnection.hasToken]);

  // Closing the dialog: Fluent returns focus to the control that opened it. Opened by itself (no control), or
  // when that control is gone, focus would be left on the page or on the toast the save shows: it goes to the
  // screen's main area instead, from where Tab reaches the question box.
  const changeCrmOpen = useCallback((open: boolean) => {
    setCrmOpen(open);
    if (open) return;
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!active || active === document.body || active.closest('[data-toaster-position], [role="status"], [role="alert"]')) mainRef.current?.focus();
    });
  }, []);
  const context = useMemo<ShellContext>(() => ({ data, openCrm: () => setCrmOpen(true) }), [data]);
  if (!data.viewer) return <LoadingScreen />;
  return (
    <>
      <Sidebar collapsed={collapsed} onToggle={toggle} isAdmin={data.viewer.isAdmin} usage={data.usage} />
      <main ref={mainRef} tabIndex={-1} className={s.main} style={{ marginLeft: collapsed ? SIDEBAR_COLLAPSED_PX : SIDEBAR_EXPANDED_PX }}>
        <ReconnectingBanner />
        <Suspense fallback={<LoadingScreen />}>
          <Outlet context={context} />
        </Suspense>
      </main>
      <CrmIntegrationDialog open={crmOpen} onOpenChange={changeCrmOpen} connection={data.crmConnection} />
    </>
  );
}

const USAGE_SUBSCRIPTION = graphql`
  subscription SignedInLayoutUsageSubscription {
    usageUpdated {
      id
      ...UsagePanel_usage
      ...ChatPanel_usage
      ...SmartSegmentsPage_usage
    }
  }
`;

const DAILY_SUBSCRIPTION = graphql`
  subscription SignedInLayoutDailySubscription {
    dailySegmentsUpdated {
      day {
        id
        count
      }
    }
  }
`;

/**
 * Live usage and segment count over the websocket: each event's records are normalised into the
 * store by id, so nothing is read again. While it is down, the frame's query is read at the spec's
 * usage interval (which also covers the 5 s of the daily count), and once when it comes back.
 */
function useLiveData() {
  const environment = useRelayEnvironment();
  const usageConfig = useMemo<GraphQLSubscriptionConfig<SignedInLayoutUsageSubscription>>(
    () => ({ subscription: USAGE_SUBSCRIPTION, variables: {}, onError: () => {} }),
    [],
  );
  const dailyConfig = useMemo<GraphQLSubscriptionConfig<SignedInLayoutDailySubscription>>(
    () => ({ subscription: DAILY_SUBSCRIPTION, variables: {}, onError: () => {} }),
    [],
  );
  useSubscription(usageConfig);
  useSubscription(dailyConfig);
  const read = useCallback(() => void fetchQuery(environment, LAYOUT_QUERY, {}, { fetchPolicy: 'network-only' }).toPromise().catch(() => {}), [environment]);
  useLiveFallback(read, USAGE_POLL_MS);
}

/** The server ended this session (sign-out elsewhere, ban): back to /auth with nothing cached. */
function useSessionEnd() {
  const navigate = useNavigate();
  const notify = useNotify();
  useEffect(
    () =>
      onSessionEnded(() => {
        crmModalFlag.clear();
        markSignedOut();
        notify({ title: 'Signed out', body: 'Your session has ended. Please sign in again.', intent: 'warning' });
        resetAfterSignedInScreens();
        void navigate('/auth', { replace: true });
      }),
    [navigate, notify],
  );
}

/** `?oauth=success|error&message=` after the CRM's OAuth redirect: a toast, then a clean URL (spec §2, §8). */
function useOAuthReturn(onHandled: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get('oauth');
    if (!outcome) return;
    if (outcome === 'success') notify({ title: 'OAuth Connected', body: 'Your CRM is connected.', intent: 'success' });
    else notify({ title: 'OAuth Error', body: params.get('message') || 'Failed to connect to the CRM', intent: 'error' });
    params.delete('oauth');
    params.delete('message');
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    onHandled();
  }, [location.search, location.pathname, navigate, notify, onHandled]);
}
