// The Smart Segments screen (/smart-segments, spec §2, §4, §8, §9): tabs All, Favorites and one per
// category, "Today's Segment Ideas" with today's count and when they were generated, and a grid of
// preset cards. While generation runs, cards fill in one by one from `dailySegmentsUpdated`, whose
// events carry the segment (appended to the screen's connection, or updated by id) and the day's count:
// no query is read again. The spec's 5 s polling runs only while the websocket is down, and the
// query is read once when it comes back (events sent meanwhile are gone).
import { Badge, Button, MessageBar, MessageBarBody, MessageBarTitle, Tab, TabList, Text, makeStyles, tokens } from '@fluentui/react-components';
import { PlugDisconnected24Regular } from '@fluentui/react-icons';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { graphql, loadQuery, useFragment, usePreloadedQuery, useQueryLoader, useRelayEnvironment, useSubscription, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router-dom';
import { fetchQuery, type GraphQLSubscriptionConfig } from 'relay-runtime';
import type { SmartSegmentsPageQuery } from '../__generated__/SmartSegmentsPageQuery.graphql';
import type { SmartSegmentsPageSubscription } from '../__generated__/SmartSegmentsPageSubscription.graphql';
import type { SmartSegmentsPage_usage$key } from '../__generated__/SmartSegmentsPage_usage.graphql';
import { unlockLimitReached } from '../../../client/messages.js';
import { meterLevel, midnightIn } from '../../../client/usage.js';
import { LoadingScreen } from '../components/LoadingScreen';
import { PageHeader } from '../components/PageHeader';
import { SmartSegmentCard, categoryIcon } from '../components/SmartSegmentCard';
import { UserMenu } from '../components/UserMenu';
import { useLiveFallback } from '../lib/live-fallback';
import { generatedAgo } from '../lib/format';
import { getEnvironment } from '../relay/environment';
import { addToRootList } from '../lib/root-lists';
import { requireSignedIn } from './auth-check';
import { useShell } from './SignedInLayout';

const QUERY = graphql`
  query SmartSegmentsPageQuery {
    crmConnection {
      id
      connected
      crmType
      crmLabel
    }
    registrationOptions {
      crmTypes {
        value
        label
      }
    }
    smartSegmentCategories {
      id
      name
      displayName
    }
    smartSegmentPresets {
      id
      presetId
      isFavorite
      category {
        id
      }
      ...SmartSegmentCard_preset
    }
    dailySegmentsDay {
      id
      count
      lastGeneratedAt
    }
    dailySegments(first: 100) @connection(key: "SmartSegmentsPage_dailySegments") {
      __id
      edges {
        node {
          id
          presetId
          ...SmartSegmentCard_daily
        }
      }
    }
  }
`;

const SUBSCRIPTION = graphql`
  subscription SmartSegmentsPageSubscription($connections: [ID!]!) {
    dailySegmentsUpdated {
      segment @appendNode(connections: $connections, edgeTypeName: "QueryDailySegmentsConnectionEdge") {
        id
        presetId
        ...SmartSegmentCard_daily
        # a preset (or category) created after the screen was read comes with its segment
        preset {
          id
          presetId
          isFavorite
          category {
            id
            name
            displayName
          }
          ...SmartSegmentCard_preset
        }
      }
      day {
        id
        count
        lastGeneratedAt
      }
    }
  }
`;

const FavoritesIcon = categoryIcon('favorites');

/** Today's unlocks against the limit (the frame's usage, kept live by usageUpdated and every unlock's payload). */
const USAGE = graphql`
  fragment SmartSegmentsPage_usage on Usage {
    smartSegmentsUsed
    smartSegmentLimit
    tierName
    timeZone
  }
`;

/** The id of the note saying why unlocking is closed; the unlock buttons are described by it. */
const UNLOCK_LIMIT_NOTE = 'unlock-limit-note';

/** Spec §9: daily segments every 5 s (only while live updates are unavailable). */
const POLL_MS = 5000;

export async function loader() {
  await requireSignedIn();
  return loadQuery<SmartSegmentsPageQuery>(getEnvironment(), QUERY, {}, { fetchPolicy: 'store-and-network' });
}

const useStyles = makeStyles({
  content: { maxWidth: '1280px', width: '100%', margin: '0 auto', padding: tokens.spacingHorizontalXL, boxSizing: 'border-box', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  grid: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
  },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalXXL, textAlign: 'center' },
  connect: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalXXXL,
    textAlign: 'center',
    color: tokens.colorNeutralForeground2,
  },
  tabs: { flexWrap: 'wrap' },
});

export function SmartSegmentsPage() {
  const [ref] = useQueryLoader<SmartSegmentsPageQuery>(QUERY, useLoaderData() as PreloadedQuery<SmartSegmentsPageQuery>);
  return ref ? (
    <Suspense fallback={<LoadingScreen />}>
      <SmartSegments queryRef={ref} />
    </Suspense>
  ) : (
    <LoadingScreen />
  );
}

/** Generated segments arrive with their events (into the screen's connection); the query is read only as a fallback. */
function useLiveSegments(connection: string) {
  const environment = useRelayEnvironment();
  const config = useMemo<GraphQLSubscriptionConfig<SmartSegmentsPageSubscription>>(
    () => ({
      subscription: SUBSCRIPTION,
      variables: { connections: [connection] },
      onError: () => {},
      // the segment's preset and category join the screen's lists when they are new to it
      updater: (store) => {
        const preset = store.getRootField('dailySegmentsUpdated')?.getLinkedRecord('segment')?.getLinkedRecord('preset');
        addToRootList(store, 'smartSegmentCategories', preset?.getLinkedRecord('category'));
        addToRootList(store, 'smartSegmentPresets', preset);
      },
    }),
    [connection],
  );
  useSubscription(config);
  const read = useCallback(() => void fetchQuery(environment, QUERY, {}, { fetchPolicy: 'network-only' }).toPromise().catch(() => {}), [environment]);
  useLiveFallback(read, POLL_MS);
}

function SmartSegments({ queryRef }: { queryRef: PreloadedQuery<SmartSegmentsPageQuery> }) {
  const s = useStyles();
  const shell = useShell();
  const data = usePreloadedQuery<SmartSegmentsPageQuery>(QUERY, queryRef);
  const [tab, setTab] = useState('all');
  useLiveSegments(data.dailySegments.__id);

  const dailyByPreset = useMemo(() => new Map(data.dailySegments.edges.map((e) => [e.node.presetId, e.node])), [data.dailySegments.edges]);
  // Spec §2: one tab per category, except one named favorites (the Favorites tab stands for it).
  const categoryTabs = data.smartSegmentCategories.filter((c) => c.name.toLowerCase() !== 'favorites');
  const shown = data.smartSegmentPresets.filter((p) => (tab === 'all' ? true : tab === 'favorites' ? p.isFavorite : p.category.id === tab));
  const crmName = data.crmConnection.crmLabel;
  // At the daily unlock limit every unlock (free categories too) is closed, with the reason, before a click
  // is refused; downloads of unlocked segments stay open.
  const usage = useFragment<SmartSegmentsPage_usage$key>(USAGE, shell.data.usage);
  const unlockLimit =
    meterLevel(usage.smartSegmentsUsed, usage.smartSegmentLimit) === 'limit'
      ? unlockLimitReached({ used: usage.smartSegmentsUsed, limit: usage.smartSegmentLimit, tier: usage.tierName })
      : null;

  const menu = <UserMenu viewer={shell.data.viewer!} connection={shell.data.crmConnection} onOpenCrm={shell.openCrm} billingAction={false} />;
  if (!data.crmConnection.connected) {
    return (
      <>
        <PageHeader title="Smart Segments" menu={menu} />
        <div className={s.content}>
          <div className={s.connect} role="region" aria-labelledby="connect-heading">
            <PlugDisconnected24Regular aria-hidden />
            <Text as="h2" size={500} weight="semibold" id="connect-heading">
              Connect {crmName} to view segments
            </Text>
            <Text>
              Smart Segments are generated every day from your {crmName} contacts. Connect your CRM account and today&apos;s segment ideas appear here, with
              their customer counts and impact scores.
            </Text>
            <Button appearance="primary" onClick={shell.openCrm}>
              Connect CRM
            </Button>
          </div>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Smart Segments" menu={menu} />
      <div className={s.content}>
        <TabList className={s.tabs} selectedValue={tab} onTabSelect={(_e, d) => setTab(String(d.value))} aria-label="Segment categories">
          <Tab value="all">All</Tab>
          <Tab value="favorites" icon={<FavoritesIcon />}>
            Favorites
          </Tab>
          {categoryTabs.map((c) => {
            const I = categoryIcon(c.name);
            return (
              <Tab key={c.id} value={c.id} icon={<I />}>
                {c.displayName}
              </Tab>
            );
          })}
        </TabList>
        <section aria-labelledby="ideas-heading" className={s.content} style={{ padding: 0 }}>
          <div className={s.heading}>
            <Text as="h2" size={500} weight="semibold" id="ideas-heading">
              Today&apos;s Segment Ideas
            </Text>
            <Badge appearance="tint" color="brand">
              {data.dailySegmentsDay.count} segments today
            </Badge>
            <Text size={200} className={s.muted}>
              {generatedAgo(data.dailySegmentsDay.lastGeneratedAt)}
            </Text>
          </div>
          {unlockLimit && (
            <MessageBar intent="warning">
              <MessageBarBody id={UNLOCK_LIMIT_NOTE}>
                <MessageBarTitle>{unlockLimit.title}</MessageBarTitle> {unlockLimit.body} Unlocks reset at {midnightIn(usage.timeZone)}.
              </MessageBarBody>
            </MessageBar>
          )}
          {shown.length === 0 ? (
            <Text as="p" className={s.empty}>
              {tab === 'favorites' ? 'No favorite segments yet' : 'No segment presets found'}
            </Text>
          ) : (
            <ul className={s.grid} aria-label="Segment presets">
              {shown.map((p) => (
                <li key={p.id}>
                  <SmartSegmentCard preset={p} daily={dailyByPreset.get(p.presetId) ?? null} unlockClosedBy={unlockLimit ? UNLOCK_LIMIT_NOTE : null} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
