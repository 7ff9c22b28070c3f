// "Customer Results" (spec §2, §9): count, Export and Create Segment (disabled when there is nothing
// or while loading), lifecycle and region filters and a search box (applied in the database), the
// table with the spec's formatting, sorted by a column header on the server (over every stored row),
// a row opens the contact, and pages of 10 with at most 5 page numbers, then "..." and the last page.
// Pages are asked for by number (offset), so any page, forwards or backwards, is the stored rows of
// that place. Export writes what the table shows: its filters, search and sort applied.
import {
  Avatar,
  Badge,
  Button,
  Dropdown,
  Field,
  Menu,
  MenuItemCheckbox,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Option,
  SearchBox,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { ArrowDownload20Regular, ChevronLeft20Regular, ChevronRight20Regular, ColumnTriple20Regular, SaveCopy20Regular } from '@fluentui/react-icons';
import { useDeferredValue, useEffect, useMemo, useRef, useState, useTransition } from 'react';
import { graphql, useRefetchableFragment, useRelayEnvironment } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import { Link } from 'react-router-dom';
import type { ResultsPanel_query$key } from '../__generated__/ResultsPanel_query.graphql';
import type { CustomerSortField, ResultsPanelRefetchQuery } from '../__generated__/ResultsPanelRefetchQuery.graphql';
import { downloadFile, exportQueryCustomers, today } from '../lib/export-customers';
import { messageOf } from '../lib/errors';
import { displayName, formatCount, formatDate, formatMoney, initials, relativeTime } from '../lib/format';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useCreateSavedSegmentMutation } from '../mutations/CreateSavedSegmentMutation';
import { useShell } from '../routes/SignedInLayout';
import { ALWAYS_SHOWN, loadHiddenColumns, orderColumns, saveHiddenColumns, type ColumnKey } from './results/columns';
import { ContactDrawer, type ContactDetails } from './results/ContactDrawer';
import { stageLabel } from './results/stage';

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
  search: { minWidth: '180px', flexGrow: 1 },
  tableWrap: { overflowX: 'auto', backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  // Laid out fixed to the panel's width: every shown column fits, long values end in an ellipsis
  // (the whole value in the cell's tooltip), nothing breaks mid-word.
  table: { tableLayout: 'fixed', width: '100%', minWidth: '420px', fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 },
  // A header wraps between words ("Lifetime / value") rather than being cut.
  headerCell: { fontSize: tokens.fontSizeBase200, wordBreak: 'normal', overflowWrap: 'normal', whiteSpace: 'normal', paddingLeft: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalXS },
  cell: { overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', paddingLeft: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalXS },
  row: { cursor: 'pointer' },
  customer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  customerText: { display: 'flex', flexDirection: 'column', minWidth: 0, flexGrow: 1, overflow: 'hidden', alignItems: 'flex-start' },
  nameButton: {
    minWidth: 0,
    maxWidth: '100%',
    padding: 0,
    height: 'auto',
    justifyContent: 'flex-start',
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground1,
    ':hover': { textDecorationLine: 'underline' },
  },
  ellipsis: { display: 'block', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  secondary: { color: tokens.colorNeutralForeground3, display: 'block', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  badge: { maxWidth: '100%', minWidth: 0 },
  badgeText: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  empty: { padding: tokens.spacingHorizontalXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  pager: { display: 'flex', justifyContent: 'center', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  range: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalM },
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

type Order = { field: CustomerSortField; direction: 'asc' | 'desc' } | null;

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
  const [pending, startTransition] = useTransition();
  const [lifecycle, setLifecycle] = useState('all');
  const [region, setRegion] = useState('all');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [page, setPage] = useState(1);
  const [order, setOrder] = useState<Order>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [hidden, setHidden] = useState<ColumnKey[]>(loadHiddenColumns);
  const [openContact, setOpenContact] = useState<ContactDetails | null>(null);
  // Closing the contact returns focus to the name that opened it (a row's click focuses its name first).
  const restoreFocusTarget = useRestoreFocusTarget();
  const [createSegment, creating] = useCreateSavedSegmentMutation();
  const filter = useMemo(() => ({ lifecycle, region, search: deferredSearch.trim() || null }), [lifecycle, region, deferredSearch]);
  const filtered = lifecycle !== 'all' || region !== 'all' || Boolean(filter.search);
  const first = useRef(true);

  // The first page came with the answer; the rest of the customers are stored meanwhile (MainPage's
  // subscription brings the query as it is then into the store). Any page beyond waits for them.
  const loadingRest = data.resultsState === 'LOADING';

  // New filters or sort: back to page 1, fetched from the server (a re-run remounts the panel: see MainPage).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setPage(1);
    startTransition(() => {
      refetch({ first: PAGE_SIZE, offset: 0, filter, orderBy: order }, { fetchPolicy: 'network-only' });
    });
  }, [filter, order, refetch]);

  const questionFields = useMemo(
    () => [...(data.understood?.clauses.flatMap((c) => c.anyOf.map((x) => x.field as string)) ?? []), ...(data.understood?.sort ? [data.understood.sort.field as string] : [])],
    [data.understood],
  );
  const allColumns = useMemo(() => orderColumns(questionFields), [questionFields]);
  const columns = allColumns.filter((c) => !hidden.includes(c.key));
  const weights = columns.reduce((sum, c) => sum + c.weight, 0);

  const connection = data.customers;
  const total = connection.totalCount;
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const rows = connection.edges.map((e) => e.node);
  const loading = busy || pending;
  const empty = data.resultCount === 0 || total === 0;

  function goTo(target: number) {
    if (target === page || target < 1 || target > pageCount) return;
    startTransition(() => {
      setPage(target);
      refetch({ first: PAGE_SIZE, offset: (target - 1) * PAGE_SIZE, filter, orderBy: order }, { fetchPolicy: 'store-or-network' });
    });
  }

  /** A header click: ascending, then descending, then the CRM's order again. */
  function sortBy(field: CustomerSortField) {
    setOrder((o) => (o?.field !== field ? { field, direction: 'asc' } : o.direction === 'asc' ? { field, direction: 'desc' } : null));
  }

  function showColumns(shown: string[]) {
    const next = allColumns.filter((c) => c.key !== ALWAYS_SHOWN && !shown.includes(c.key)).map((c) => c.key);
    setHidden(next);
    saveHiddenColumns(next);
  }

  async function exportCsv() {
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

  const countText = data.hasError
    ? 'The CRM could not be reached for this query.'
    : `${formatCount(total)} of ${formatCount(data.resultCount)} customers${data.resultCount > total && !filtered ? (data.resultsState === 'INCOMPLETE' ? ` (the CRM stopped answering: the first ${formatCount(total)} are kept)` : ' (the first 1,000 are kept)') : ''}`;
  const exportLabel = exporting !== null ? `Exporting ${exporting}` : filtered ? `Export ${formatCount(total)} shown` : 'Export';
  const exportDescription = filtered
    ? `Export the ${formatCount(total)} customers shown, with the filters and search applied${order ? ' and in this order' : ''}`
    : `Export all ${formatCount(total)} customers${order ? ' in this order' : ''}`;
  const firstShown = (page - 1) * PAGE_SIZE + 1;

  function cell(key: ColumnKey, c: (typeof rows)[number]) {
    switch (key) {
      case 'customer': {
        const name = displayName(c);
        return (
          <div className={s.customer}>
            <Avatar initials={initials(c)} name={name} size={24} color="colorful" aria-hidden />
            <div className={s.customerText}>
              <Button
                appearance="transparent"
                size="small"
                className={s.nameButton}
                title={`${name} · open contact`}
                {...restoreFocusTarget}
                onClick={(e) => {
                  e.stopPropagation();
                  setOpenContact(c);
                }}
              >
                <span className={s.ellipsis}>{name}</span>
              </Button>
              {c.email && (
                <span className={s.secondary} title={c.email}>
                  {c.email}
                </span>
              )}
            </div>
          </div>
        );
      }
      case 'company':
        return <span title={c.company ?? undefined}>{c.company || '-'}</span>;
      case 'stage':
        return (
          <Badge appearance="tint" size="small" className={s.badge} color={STAGE_COLOR[c.lifecycleStage] ?? 'subtle'} title={stageLabel(c.lifecycleStage)}>
            <span className={s.badgeText}>{stageLabel(c.lifecycleStage)}</span>
          </Badge>
        );
      case 'location': {
        const place = [c.city, c.state, c.country].filter(Boolean).join(', ');
        return <span title={place || undefined}>{place || '-'}</span>;
      }
      case 'lifetimeValue':
        return formatMoney(c.lifetimeValue);
      case 'lastPurchase':
        if (!c.lastPurchaseDate) return '-';
        return (
          <span title={`${formatDate(c.lastPurchaseDate)} · ${relativeTime(c.lastPurchaseDate)} · ${formatMoney(c.lastPurchaseAmount)}`}>
            {formatDate(c.lastPurchaseDate)}
            <span className={s.secondary}>
              {relativeTime(c.lastPurchaseDate)} · {formatMoney(c.lastPurchaseAmount)}
            </span>
          </span>
        );
    }
  }

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
          {loading ? <Spinner size="tiny" label="Loading..." /> : loadingRest && <Spinner size="tiny" label="Storing the rest..." />}
          <Button icon={<ArrowDownload20Regular />} disabled={empty || loading || exporting !== null} onClick={exportCsv} title={exportDescription} aria-description={exportDescription}>
            {exportLabel}
          </Button>
          <Button icon={<SaveCopy20Regular />} disabled={empty || loading || creating} onClick={saveAsSegment}>
            Create Segment
          </Button>
          <Menu
            checkedValues={{ columns: allColumns.filter((c) => !hidden.includes(c.key)).map((c) => c.key) }}
            onCheckedValueChange={(_e, d) => showColumns(d.checkedItems)}
          >
            <MenuTrigger disableButtonEnhancement>
              <Button icon={<ColumnTriple20Regular />} appearance="subtle">
                Columns
              </Button>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {allColumns.map((c) => (
                  <MenuItemCheckbox key={c.key} name="columns" value={c.key} disabled={c.key === ALWAYS_SHOWN}>
                    {c.label}
                  </MenuItemCheckbox>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
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
        <Table className={s.table} aria-label="Customers" size="small" sortable>
          <colgroup>
            {columns.map((c) => (
              <col key={c.key} style={{ width: `${((c.weight / weights) * 100).toFixed(2)}%` }} />
            ))}
          </colgroup>
          <TableHeader>
            <TableRow>
              {columns.map((c) => (
                <TableHeaderCell
                  key={c.key}
                  className={s.headerCell}
                  title={`Sort by ${c.label.toLowerCase()}`}
                  sortDirection={order?.field === c.sort ? (order.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                  onClick={() => sortBy(c.sort)}
                >
                  {c.label}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((c) => (
              <TableRow
                key={c.id}
                className={s.row}
                onClick={(e) => {
                  e.currentTarget.querySelector<HTMLElement>('button')?.focus();
                  setOpenContact(c);
                }}
              >
                {columns.map((col) => (
                  <TableCell key={col.key} className={mergeClasses(s.cell)}>
                    {cell(col.key, c)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {rows.length === 0 && <Text as="p" className={s.empty}>{data.resultCount === 0 ? 'No customers match this question.' : 'No customers match these filters.'}</Text>}
      </div>
      {pageCount > 1 && (
        <nav className={s.pager} aria-label="Pages">
          <Button appearance="subtle" icon={<ChevronLeft20Regular />} aria-label="Previous page" disabledFocusable={page === 1 || loading} onClick={() => goTo(page - 1)} />
          {pageNumbers(page, pageCount).map((p, i) =>
            p === '...' ? (
              <Text key={`gap-${i}`} aria-hidden>
                ...
              </Text>
            ) : (
              <Button key={p} appearance={p === page ? 'primary' : 'subtle'} aria-current={p === page ? 'page' : undefined} aria-label={`Page ${p}`} disabledFocusable={loading && p !== page} onClick={() => goTo(p)}>
                {p}
              </Button>
            ),
          )}
          <Button appearance="subtle" icon={<ChevronRight20Regular />} aria-label="Next page" disabledFocusable={page === pageCount || loading} onClick={() => goTo(page + 1)} />
          <Text className={s.range} aria-live="polite">
            {firstShown}–{Math.min(page * PAGE_SIZE, total)} of {formatCount(total)}
          </Text>
        </nav>
      )}
      <ContactDrawer contact={openContact} crmLabel={crmLabel} onClose={() => setOpenContact(null)} />
    </section>
  );
}
