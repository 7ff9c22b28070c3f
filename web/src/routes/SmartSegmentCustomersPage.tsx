// A Smart Segment's customers in the app (/smart-segments/:id, the segment's raw id): after unlocking,
// the owner opens them in the same customers table as the assistant's answer (results/CustomerTable:
// filters, search, server-side sort, column chooser, contact drawer, pages of 10), with "Download
// Customer List" as on the card. The server reads them from the CRM with the segment's stored searches
// the first time (after each generation) and keeps the first 1,000 (DailySegment.customers). A locked
// segment, someone else's or an unknown id show what to do instead; nothing is read for them.
import { Button, ProgressBar, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowLeft16Regular, LockClosed20Regular } from '@fluentui/react-icons';
import { Suspense, useCallback, useState } from 'react';
import { graphql, loadQuery, useLazyLoadQuery, usePreloadedQuery, useQueryLoader, useRefetchableFragment, type PreloadedQuery } from 'react-relay';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { downloadComplete } from '../../../client/messages.js';
import { toGlobalId } from '../../../client/global-id.js';
import type { SmartSegmentCustomersPageQuery } from '../__generated__/SmartSegmentCustomersPageQuery.graphql';
import type { SmartSegmentCustomersTableQuery } from '../__generated__/SmartSegmentCustomersTableQuery.graphql';
import type { SmartSegmentCustomers_segment$key } from '../__generated__/SmartSegmentCustomers_segment.graphql';
import type { SmartSegmentCustomersRefetchQuery } from '../__generated__/SmartSegmentCustomersRefetchQuery.graphql';
import { LoadingScreen } from '../components/LoadingScreen';
import { PageHeader } from '../components/PageHeader';
import { CustomerTable, type CustomerTableProps } from '../components/results/CustomerTable';
import { UserMenu } from '../components/UserMenu';
import { downloadSmartSegment, type DownloadProgress } from '../lib/download-smart-segment';
import { formatCount, formatDate, relativeTime } from '../lib/format';
import { useNotify } from '../lib/toasts';
import { getEnvironment } from '../relay/environment';
import { requireSignedIn } from './auth-check';
import { useShell } from './SignedInLayout';

const QUERY = graphql`
  query SmartSegmentCustomersPageQuery($id: ID!) {
    node(id: $id) {
      __typename
      ... on DailySegment {
        id
        segmentId
        date
        customerCount
        isUnlocked
        hasError
        errorMessage
        preset {
          name
          description
          category {
            displayName
          }
        }
      }
    }
  }
`;

const TABLE_QUERY = graphql`
  query SmartSegmentCustomersTableQuery($id: ID!) {
    node(id: $id) {
      ...SmartSegmentCustomers_segment @alias(as: "dailySegment")
    }
  }
`;

export async function loader({ params }: LoaderFunctionArgs) {
  await requireSignedIn();
  return loadQuery<SmartSegmentCustomersPageQuery>(getEnvironment(), QUERY, { id: toGlobalId('DailySegment', params.id ?? '') }, { fetchPolicy: 'store-and-network' });
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalXL} 0`, minWidth: 0 },
  back: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  lockedHeading: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  notice: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalXL, maxWidth: '640px' },
  progress: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: '200px' },
});

export function SmartSegmentCustomersPage() {
  const [ref] = useQueryLoader<SmartSegmentCustomersPageQuery>(QUERY, useLoaderData() as PreloadedQuery<SmartSegmentCustomersPageQuery>);
  return ref ? (
    <Suspense fallback={<LoadingScreen />}>
      <Screen queryRef={ref} />
    </Suspense>
  ) : (
    <LoadingScreen />
  );
}

function Screen({ queryRef }: { queryRef: PreloadedQuery<SmartSegmentCustomersPageQuery> }) {
  const s = useStyles();
  const shell = useShell();
  const data = usePreloadedQuery<SmartSegmentCustomersPageQuery>(QUERY, queryRef);
  const segment = data.node?.__typename === 'DailySegment' ? data.node : null;
  const menu = <UserMenu viewer={shell.data.viewer!} connection={shell.data.crmConnection} onOpenCrm={shell.openCrm} />;
  const back = (
    <Link to="/smart-segments" className={s.back}>
      <ArrowLeft16Regular aria-hidden /> Smart Segments
    </Link>
  );

  if (!segment || !segment.preset) {
    return (
      <>
        <PageHeader title="Smart Segments" menu={menu} />
        <div className={s.notice}>
          <Text as="h2" size={500} weight="semibold">
            Segment not found
          </Text>
          <Text>This Smart Segment does not exist or is not yours. Segments are generated for each day.</Text>
          {back}
        </div>
      </>
    );
  }
  const subtitle = `${segment.preset.category.displayName} · ${formatDate(segment.date)}`;
  return (
    <>
      <PageHeader title={segment.preset.name} subtitle={subtitle} menu={menu} />
      <div className={s.content}>
        {back}
        <Text className={s.muted}>{segment.preset.description}</Text>
      </div>
      {segment.hasError ? (
        <div className={s.notice} role="status">
          <Text>{segment.errorMessage || 'This segment could not be generated, so it has no customers to show.'}</Text>
        </div>
      ) : !segment.isUnlocked ? (
        <div className={s.notice}>
          <Text as="h2" size={500} weight="semibold" className={s.lockedHeading}>
            <LockClosed20Regular aria-hidden /> Segment locked
          </Text>
          <Text>
            Unlock this segment on the Smart Segments screen to see its {formatCount(segment.customerCount)} customers. Each unlock uses one of your daily smart
            segment unlocks.
          </Text>
        </div>
      ) : (
        <Suspense
          fallback={
            <div className={s.notice}>
              <Spinner size="small" label="Reading the customers from the CRM..." />
            </div>
          }
        >
          <SegmentCustomers id={segment.id} segment={segment} />
        </Suspense>
      )}
    </>
  );
}

function SegmentCustomers({ id, segment }: { id: string; segment: { id: string; segmentId: string; date: string } }) {
  const data = useLazyLoadQuery<SmartSegmentCustomersTableQuery>(TABLE_QUERY, { id }, { fetchPolicy: 'store-or-network' });
  return data.node?.dailySegment ? <Customers segmentKey={data.node.dailySegment} segment={segment} /> : null;
}

function Customers({ segmentKey, segment }: { segmentKey: SmartSegmentCustomers_segment$key; segment: { id: string; segmentId: string; date: string } }) {
  const s = useStyles();
  const notify = useNotify();
  const crmLabel = useShell().data.crmConnection.crmLabel;
  const [download, setDownload] = useState<DownloadProgress | null>(null);
  const [data, refetch] = useRefetchableFragment<SmartSegmentCustomersRefetchQuery, SmartSegmentCustomers_segment$key>(
    graphql`
      fragment SmartSegmentCustomers_segment on DailySegment
      @refetchable(queryName: "SmartSegmentCustomersRefetchQuery")
      @argumentDefinitions(
        first: { type: "Int", defaultValue: 10 }
        offset: { type: "Int" }
        filter: { type: "CustomerFilterInput" }
        orderBy: { type: "CustomerOrder" }
      ) {
        id
        customers(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) {
          totalCount
          crmTotal
          storedAt
          edges {
            node {
              id
              firstName
              lastName
              email
              company
              lifecycleStage
              lastPurchaseDate
              lastPurchaseAmount
              lifetimeValue
              city
              state
              country
              crmUrl
            }
          }
        }
      }
    `,
    segmentKey,
  );
  const tableRefetch = useCallback<CustomerTableProps['refetch']>((vars, fetchPolicy) => refetch(vars, { fetchPolicy }), [refetch]);
  const { totalCount: total, crmTotal, storedAt } = data.customers;

  async function doDownload() {
    try {
      const count = await downloadSmartSegment(segment, setDownload);
      notify({ ...downloadComplete(count), intent: 'success' });
    } catch {
      notify({ title: 'Download Failed', body: 'Please try again.', intent: 'error' });
    } finally {
      setDownload(null);
    }
  }

  return (
    <CustomerTable
      label="Segment customers"
      rows={data.customers.edges.map((e) => e.node)}
      total={total}
      questionFields={[]}
      busy={false}
      crmLabel={crmLabel}
      refetch={tableRefetch}
      emptyText={({ filtered }) => (filtered ? 'No customers match these filters.' : 'This segment has no customers.')}
      titles={({ filtered }) => (
        <>
          <Text as="h2" size={500} weight="semibold">
            Customers
          </Text>
          <Text className={s.muted}>
            {formatCount(total)} of {formatCount(crmTotal)} customers
            {crmTotal > total && !filtered ? ' (the first 1,000 are kept)' : ''} · read from {crmLabel} {relativeTime(storedAt)}
          </Text>
        </>
      )}
      actions={({ loading }) => (
        <>
          {loading && <Spinner size="tiny" label="Loading..." />}
          {download ? (
            <div className={s.progress} role="status" aria-live="polite">
              {download.phase === 'fetching' ? (
                <Spinner size="tiny" label="Fetching customers from the CRM..." />
              ) : (
                <>
                  <Text size={200}>
                    Downloaded {formatCount(download.done)} of {formatCount(download.total)} customers...
                  </Text>
                  <ProgressBar value={download.total ? download.done / download.total : 0} aria-label="Download progress" />
                </>
              )}
            </div>
          ) : (
            <Button icon={<ArrowDownload20Regular />} onClick={doDownload} disabled={crmTotal === 0}>
              Download Customer List
            </Button>
          )}
        </>
      )}
    />
  );
}

