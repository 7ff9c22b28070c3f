// "Customer Results" (spec §2, §9): count, Export and Create Segment (disabled when there is nothing
// or while loading), lifecycle and region filters and a search box (applied in the database), the
// table with the spec's formatting, and pages of 10 with at most 5 page numbers, then "..." and the
// last page.
import {
  Avatar,
  Badge,
  Button,
  Dropdown,
  Field,
  Option,
  SearchBox,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableCellLayout,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownload20Regular, ChevronLeft20Regular, ChevronRight20Regular, SaveCopy20Regular } from '@fluentui/react-icons';
import { useDeferredValue, useEffect, useMemo, useRef, useState, useTransition } from 'react';
import { graphql, useRefetchableFragment, useRelayEnvironment } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import { Link } from 'react-router-dom';
import type { ResultsPanel_query$key } from '../__generated__/ResultsPanel_query.graphql';
import type { ResultsPanelRefetchQuery } from '../__generated__/ResultsPanelRefetchQuery.graphql';
import { downloadFile, exportQueryCustomers, today } from '../lib/export-customers';
import { messageOf } from '../lib/errors';
import { displayName, formatCount, formatDate, formatMoney, initials, relativeTime } from '../lib/format';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useCreateSavedSegmentMutation } from '../mutations/CreateSavedSegmentMutation';

export const PAGE_SIZE = 10;
const MAX_PAGE_NUMBERS = 5;

export const LIFECYCLE_FILTERS = [
  { value: 'all', label: 'All stages' },
  { value: 'lead', label: 'Lead' },
  { value: 'customer', label: 'Customer' },
  { value: 'opportunity', label: 'Opportunity' },
  { value: 'subscriber', label: 'Subscriber' },
];
export const REGION_FILTERS = [
  { value: 'all', label: 'All regions' },
  { value: 'North America', label: 'North America' },
  { value: 'Europe', label: 'Europe' },
  { value: 'Asia-Pacific', label: 'Asia Pacific' },
  { value: 'Latin America', label: 'Latin America' },
  { value: 'Middle East & Africa', label: 'Middle East & Africa' },
];

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL, minWidth: 0 },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  titles: { display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  filters: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'flex-end' },
  search: { minWidth: '220px', flexGrow: 1 },
  tableWrap: { overflowX: 'auto', backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  table: { minWidth: '860px' },
  // Fixed table layout: long names and emails end in an ellipsis (full text in the tooltip title).
  customerCol: { width: '30%' },
  cellContent: { minWidth: 0, overflow: 'hidden' },
  ellipsis: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  secondary: { color: tokens.colorNeutralForeground3, display: 'block' },
  empty: { padding: tokens.spacingHorizontalXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  pager: { display: 'flex', justifyContent: 'center', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
});

const STAGE_COLOR: Record<string, 'brand' | 'success' | 'warning' | 'informative' | 'subtle'> = {
  customer: 'success',
  opportunity: 'warning',
  lead: 'brand',
  subscriber: 'informative',
};

/** Page numbers to show: at most 5 around the current page, then "..." and the last page. */
export function pageNumbers(current: number, count: number): (number | '...')[] {
  if (count <= MAX_PAGE_NUMBERS + 1) return Array.from({ length: count }, (_x, i) => i + 1);
  const start = Math.max(1, Math.min(current - 2, count - MAX_PAGE_NUMBERS));
  const pages: (number | '...')[] = Array.from({ length: MAX_PAGE_NUMBERS }, (_x, i) => start + i);
  if (start + MAX_PAGE_NUMBERS - 1 < count - 1) pages.push('...');
  if (start + MAX_PAGE_NUMBERS - 1 < count) pages.push(count);
  return pages;
}

interface Props {
  query: ResultsPanel_query$key | null;
  /** A run or re-run is in progress. */
  busy: boolean;
  /** Changes after a re-run: the stored customers changed. */
  version: number;
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

function Results({ query: key, busy, version }: Props & { query: ResultsPanel_query$key }) {
  const s = useStyles();
  const notify = useNotify();
  const environment = useRelayEnvironment();
  const [data, refetch] = useRefetchableFragment<ResultsPanelRefetchQuery, ResultsPanel_query$key>(
    graphql`
      fragment ResultsPanel_query on CustomerQuery
      @refetchable(queryName: "ResultsPanelRefetchQuery")
      @argumentDefinitions(
        first: { type: "Int", defaultValue: 10 }
        after: { type: "String" }
        last: { type: "Int" }
        before: { type: "String" }
        filter: { type: "CustomerFilterInput" }
      ) {
        id
        naturalLanguage
        resultCount
        hasError
        customers(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
          totalCount
          edges {
            cursor
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
            }
          }
          pageInfo {
            startCursor
            endCursor
          }
        }
      }
    `,
    key,
  );
  const [pending, startTransition] = useTransition();
  const [lifecycle, setLifecycle] = useState('all');
  const [region, setRegion] = useState('all');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [page, setPage] = useState(1);
  /** Which 10 of the fetched rows are the page (a jump may fetch several pages at once). */
  const [offset, setOffset] = useState(0);
  const [exporting, setExporting] = useState<string | null>(null);
  const [createSegment, creating] = useCreateSavedSegmentMutation();
  const filter = useMemo(() => ({ lifecycle, region, search: deferredSearch.trim() || null }), [lifecycle, region, deferredSearch]);
  const first = useRef(true);

  // New filters (or new stored results after a re-run): back to page 1, fetched from the server.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setPage(1);
    setOffset(0);
    startTransition(() => {
      refetch({ first: PAGE_SIZE, after: null, last: null, before: null, filter }, { fetchPolicy: 'network-only' });
    });
  }, [filter, version, refetch]);

  const connection = data.customers;
  const total = connection.totalCount;
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const rows = connection.edges.slice(offset, offset + PAGE_SIZE);
  const loading = busy || pending;
  const empty = data.resultCount === 0 || total === 0;

  function goTo(target: number) {
    if (target === page || target < 1 || target > pageCount) return;
    const vars = { filter, first: null as number | null, after: null as string | null, last: null as number | null, before: null as string | null };
    let nextOffset = 0;
    if (target === 1) vars.first = PAGE_SIZE;
    else if (target === pageCount) {
      vars.last = total - (pageCount - 1) * PAGE_SIZE;
    } else if (target > page) {
      // The pages between here and the target come along; the target's rows follow them.
      vars.first = (target - page) * PAGE_SIZE;
      vars.after = rows[rows.length - 1]?.cursor ?? connection.pageInfo.endCursor ?? null;
      nextOffset = (target - page - 1) * PAGE_SIZE;
    } else {
      vars.last = (page - target) * PAGE_SIZE;
      vars.before = rows[0]?.cursor ?? connection.pageInfo.startCursor ?? null;
    }
    startTransition(() => {
      setPage(target);
      setOffset(nextOffset);
      refetch(vars, { fetchPolicy: 'store-or-network' });
    });
  }

  async function exportCsv() {
    setExporting('0%');
    try {
      const { csv, count } = await exportQueryCustomers(environment, data.id, (done, all) => setExporting(`${Math.round((done / Math.max(1, all)) * 100)}%`));
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

  const countText = data.hasError
    ? 'The CRM could not be reached for this query.'
    : `${formatCount(total)} of ${formatCount(data.resultCount)} customers${data.resultCount > total && filter.lifecycle === 'all' && filter.region === 'all' && !filter.search ? ' (the first 1,000 are kept)' : ''}`;

  return (
    <section className={s.root} aria-label="Customer Results" aria-busy={loading}>
      <div className={s.head}>
        <div className={s.titles}>
          <Text as="h2" size={500} weight="semibold">
            Customer Results
          </Text>
          <Text className={s.muted}>{countText}</Text>
        </div>
        <div className={s.actions}>
          {loading && <Spinner size="tiny" label="Loading..." />}
          <Button icon={<ArrowDownload20Regular />} disabled={empty || loading || exporting !== null} onClick={exportCsv}>
            {exporting !== null ? `Exporting ${exporting}` : 'Export'}
          </Button>
          <Button icon={<SaveCopy20Regular />} disabled={empty || loading || creating} onClick={saveAsSegment}>
            Create Segment
          </Button>
          <Link to="/segments">Saved segments</Link>
        </div>
      </div>
      <div className={s.filters}>
        <Field label="Lifecycle stage">
          <Dropdown value={LIFECYCLE_FILTERS.find((f) => f.value === lifecycle)!.label} selectedOptions={[lifecycle]} onOptionSelect={(_e, d) => setLifecycle(d.optionValue ?? 'all')}>
            {LIFECYCLE_FILTERS.map((f) => (
              <Option key={f.value} value={f.value}>
                {f.label}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label="Region">
          <Dropdown value={REGION_FILTERS.find((f) => f.value === region)!.label} selectedOptions={[region]} onOptionSelect={(_e, d) => setRegion(d.optionValue ?? 'all')}>
            {REGION_FILTERS.map((f) => (
              <Option key={f.value} value={f.value}>
                {f.label}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label="Search" className={s.search}>
          <SearchBox placeholder="Name, email or company" value={search} onChange={(_e, d) => setSearch(d.value)} />
        </Field>
      </div>
      <div className={s.tableWrap} role="region" aria-label="Customer table" tabIndex={0}>
        <Table className={s.table} aria-label="Customers" size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell className={s.customerCol}>Customer</TableHeaderCell>
              <TableHeaderCell>Company</TableHeaderCell>
              <TableHeaderCell>Stage</TableHeaderCell>
              <TableHeaderCell>Location</TableHeaderCell>
              <TableHeaderCell>Lifetime value</TableHeaderCell>
              <TableHeaderCell>Last purchase</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(({ node: c }) => (
              <TableRow key={c.id}>
                <TableCell>
                  <TableCellLayout
                    title={[displayName(c), c.email].filter(Boolean).join(' · ')}
                    media={<Avatar initials={initials(c)} name={displayName(c)} size={28} color="colorful" />}
                    content={{ className: s.cellContent }}
                    main={{ className: s.ellipsis }}
                    description={c.email ? { children: c.email, className: s.ellipsis } : undefined}
                  >
                    {displayName(c)}
                  </TableCellLayout>
                </TableCell>
                <TableCell>{c.company || '-'}</TableCell>
                <TableCell>
                  <Badge appearance="tint" color={STAGE_COLOR[c.lifecycleStage] ?? 'subtle'}>
                    {c.lifecycleStage}
                  </Badge>
                </TableCell>
                <TableCell>{[c.city, c.state, c.country].filter(Boolean).join(', ') || '-'}</TableCell>
                <TableCell>{formatMoney(c.lifetimeValue)}</TableCell>
                <TableCell>
                  {formatDate(c.lastPurchaseDate)}
                  {c.lastPurchaseDate && <span className={s.secondary}>{relativeTime(c.lastPurchaseDate)} · {formatMoney(c.lastPurchaseAmount)}</span>}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {rows.length === 0 && <Text as="p" className={s.empty}>{data.resultCount === 0 ? 'No customers match this question.' : 'No customers match these filters.'}</Text>}
      </div>
      {pageCount > 1 && (
        <nav className={s.pager} aria-label="Pages">
          <Button appearance="subtle" icon={<ChevronLeft20Regular />} aria-label="Previous page" disabled={page === 1 || loading} onClick={() => goTo(page - 1)} />
          {pageNumbers(page, pageCount).map((p, i) =>
            p === '...' ? (
              <Text key={`gap-${i}`} aria-hidden>
                ...
              </Text>
            ) : (
              <Button key={p} appearance={p === page ? 'primary' : 'subtle'} aria-current={p === page ? 'page' : undefined} aria-label={`Page ${p}`} disabled={loading && p !== page} onClick={() => goTo(p)}>
                {p}
              </Button>
            ),
          )}
          <Button appearance="subtle" icon={<ChevronRight20Regular />} aria-label="Next page" disabled={page === pageCount || loading} onClick={() => goTo(page + 1)} />
        </nav>
      )}
    </section>
  );
}
