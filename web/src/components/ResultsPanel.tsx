// "Customer Results" (spec §2, §9): the answer's count, Export and Create Segment (disabled when there
// is nothing or while loading) around the shared customers table (results/CustomerTable.tsx: filters,
// search, server-side sort, column chooser, contact drawer, pages of 10). Export writes what the table
// shows: its filters, search and sort applied.
import { Button, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, SaveCopy20Regular } from '@fluentui/react-icons';
import { useCallback, useMemo, useState } from 'react';
import { graphql, useRefetchableFragment, useRelayEnvironment } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import { Link } from 'react-router-dom';
import type { ResultsPanel_query$key } from '../__generated__/ResultsPanel_query.graphql';
import type { ResultsPanelRefetchQuery } from '../__generated__/ResultsPanelRefetchQuery.graphql';
import { downloadFile, exportQueryCustomers, today } from '../lib/export-customers';
import { messageOf } from '../lib/errors';
import { formatCount } from '../lib/format';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useCreateSavedSegmentMutation } from '../mutations/CreateSavedSegmentMutation';
import { useShell } from '../routes/SignedInLayout';
import { CustomerTable, type CustomerTableProps, type TableView } from './results/CustomerTable';

export { LIFECYCLE_FILTERS, PAGE_SIZE, REGION_FILTERS, pageNumbers } from './results/CustomerTable';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL, minWidth: 0 },
  titles: { display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
});

interface Props {
  query: ResultsPanel_query$key | null;
  /** A run or re-run is in progress. */
  busy: boolean;
}

export function ResultsPanel(props: Props) {
  const s = useStyles();
  if (!props.query) {
    return (
      <section className={s.root} aria-label="Customer Results">
        <div className={s.titles}>
          <Text as="h2" size={500} weight="semibold">
            Customer Results
          </Text>
          <Text className={s.muted}>Ask a question to see matching customers.</Text>
        </div>
      </section>
    );
  }
  return <Results {...props} query={props.query} />;
}

function Results({ query: key, busy }: Props & { query: ResultsPanel_query$key }) {
  const s = useStyles();
  const notify = useNotify();
  const environment = useRelayEnvironment();
  const crmLabel = useShell().data.crmConnection.crmLabel;
  const [data, refetch] = useRefetchableFragment<ResultsPanelRefetchQuery, ResultsPanel_query$key>(
    graphql`
      fragment ResultsPanel_query on CustomerQuery
      @refetchable(queryName: "ResultsPanelRefetchQuery")
      @argumentDefinitions(
        first: { type: "Int", defaultValue: 10 }
        offset: { type: "Int" }
        filter: { type: "CustomerFilterInput" }
        orderBy: { type: "CustomerOrder" }
      ) {
        id
        naturalLanguage
        resultCount
        hasError
        resultsState
        understood {
          clauses {
            anyOf {
              field
            }
          }
          sort {
            field
          }
        }
        customers(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) {
          totalCount
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
    key,
  );
  const [exporting, setExporting] = useState<string | null>(null);
  const [createSegment, creating] = useCreateSavedSegmentMutation();

  // The first page came with the answer; the rest of the customers are stored meanwhile (MainPage's
  // subscription brings the query as it is then into the store). Any page beyond waits for them.
  const loadingRest = data.resultsState === 'LOADING';

  const questionFields = useMemo(
    () => [...(data.understood?.clauses.flatMap((c) => c.anyOf.map((x) => x.field as string)) ?? []), ...(data.understood?.sort ? [data.understood.sort.field as string] : [])],
    [data.understood],
  );
  const tableRefetch = useCallback<CustomerTableProps['refetch']>((vars, fetchPolicy) => refetch(vars, { fetchPolicy }), [refetch]);

  const total = data.customers.totalCount;
  const empty = data.resultCount === 0 || total === 0;

  async function exportCsv({ filter, order }: TableView) {
    setExporting('0%');
    try {
      const { csv, count } = await exportQueryCustomers(environment, data.id, { filter, orderBy: order }, (done, all) => setExporting(`${Math.round((done / Math.max(1, all)) * 100)}%`));
      downloadFile(`customers-${today()}.csv`, csv);
      notify({ title: 'Download Complete', body: `Successfully downloaded ${formatCount(count)} customers`, intent: 'success' });
    } catch (err) {
      notify({ title: 'Download Failed', body: messageOf(err, 'Please try again'), intent: 'error' });
    } finally {
      setExporting(null);
    }
  }

  async function saveAsSegment() {
    try {
      await mutate(createSegment, { variables: { input: { description: data.naturalLanguage.trim() }, connections: [ConnectionHandler.getConnectionID(ROOT_ID, 'SegmentsPage_savedSegments')] } });
      notify({ title: 'Segment created', body: `"${data.naturalLanguage}" was saved to your segments.`, intent: 'success' });
    } catch (err) {
      notify({ title: 'Error creating segment', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  const countText = (filtered: boolean) =>
    data.hasError
      ? 'The CRM could not be reached for this query.'
      : `${formatCount(total)} of ${formatCount(data.resultCount)} customers${data.resultCount > total && !filtered ? (data.resultsState === 'INCOMPLETE' ? ` (the CRM stopped answering: the first ${formatCount(total)} are kept)` : ' (the first 1,000 are kept)') : ''}`;

  return (
    <CustomerTable
      label="Customer Results"
      rows={data.customers.edges.map((e) => e.node)}
      total={total}
      questionFields={questionFields}
      busy={busy}
      crmLabel={crmLabel}
      refetch={tableRefetch}
      emptyText={() => (data.resultCount === 0 ? 'No customers match this question.' : 'No customers match these filters.')}
      titles={({ filtered }) => (
        <>
          <Text as="h2" size={500} weight="semibold">
            Customer Results
          </Text>
          <Text className={s.muted}>{countText(filtered)}</Text>
        </>
      )}
      actions={(view) => {
        const { filtered, order, loading } = view;
        const exportLabel = exporting !== null ? `Exporting ${exporting}` : filtered ? `Export ${formatCount(total)} shown` : 'Export';
        const exportDescription = filtered
          ? `Export the ${formatCount(total)} customers shown, with the filters and search applied${order ? ' and in this order' : ''}`
          : `Export all ${formatCount(total)} customers${order ? ' in this order' : ''}`;
        return (
          <>
            {loading ? <Spinner size="tiny" label="Loading..." /> : loadingRest && <Spinner size="tiny" label="Storing the rest..." />}
            <Button
              icon={<ArrowDownload20Regular />}
              disabled={empty || loading || exporting !== null}
              onClick={() => exportCsv(view)}
              title={exportDescription}
              aria-description={exportDescription}
            >
              {exportLabel}
            </Button>
            <Button icon={<SaveCopy20Regular />} disabled={empty || loading || creating} onClick={saveAsSegment}>
              Create Segment
            </Button>
          </>
        );
      }}
      trailing={<Link to="/segments">Saved segments</Link>}
    />
  );
}
