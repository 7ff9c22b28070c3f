// The customers table of the app (spec §2, §9), shared by the assistant's "Customer Results"
// (ResultsPanel) and a Smart Segment's customers (SmartSegmentCustomersPage): lifecycle and region
// filters and a search box (applied in the database), the table with the spec's formatting, sorted by
// a column header on the server (over every stored row), a column chooser, a row opens the contact, and
// pages of 10 with at most 5 page numbers, then "..." and the last page. Pages are asked for by number
// (offset) through the owner's `refetch`, so any page is the stored rows of that place. The owner
// renders the heading, the count and its actions (they get the table's filters and sort, e.g. for an
// export of what the table shows).
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
import { ChevronLeft20Regular, ChevronRight20Regular, ColumnTriple20Regular } from '@fluentui/react-icons';
import { useDeferredValue, useEffect, useMemo, useRef, useState, useTransition, type ReactNode } from 'react';
import type { CustomerSortField } from '../../__generated__/ResultsPanelRefetchQuery.graphql';
import { displayName, formatCount, formatDate, formatMoney, initials, relativeTime } from '../../lib/format';
import { ALWAYS_SHOWN, loadHiddenColumns, orderColumns, saveHiddenColumns, type ColumnKey } from './columns';
import { ContactDrawer, type ContactDetails } from './ContactDrawer';
import { stageLabel } from './stage';

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


export type CustomerOrderValue = { field: CustomerSortField; direction: 'asc' | 'desc' } | null;
export interface CustomerFilterValue {
  lifecycle: string;
  region: string;
  search: string | null;
}
export type TableCustomer = ContactDetails;

/** What the table tells its owner's heading and actions. */
export interface TableView {
  filter: CustomerFilterValue;
  order: CustomerOrderValue;
  /** a filter or the search is applied */
  filtered: boolean;
  /** the owner's busy or a page being fetched */
  loading: boolean;
}

export interface CustomerTableProps {
  /** the section's accessible name */
  label: string;
  rows: readonly TableCustomer[];
  /** customers matching the filters (all pages) */
  total: number;
  /** fields the question or segment is about: their columns come first */
  questionFields: string[];
  /** the owner is busy (a run or re-run) */
  busy: boolean;
  crmLabel: string;
  /** fetches a page: in a transition; `store-or-network` for a page number, `network-only` for new filters or sort */
  refetch: (vars: { first: number; offset: number; filter: CustomerFilterValue; orderBy: CustomerOrderValue }, fetchPolicy: 'network-only' | 'store-or-network') => void;
  /** the heading and count */
  titles: (view: TableView) => ReactNode;
  /** buttons before the column chooser */
  actions?: (view: TableView) => ReactNode;
  /** after the column chooser (e.g. a link) */
  trailing?: ReactNode;
  /** the text under an empty table */
  emptyText: (view: TableView) => string;
}

export function CustomerTable({ label, rows, total, questionFields, busy, crmLabel, refetch, titles, actions, trailing, emptyText }: CustomerTableProps) {
  const s = useStyles();
  const [pending, startTransition] = useTransition();
  const [lifecycle, setLifecycle] = useState('all');
  const [region, setRegion] = useState('all');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [page, setPage] = useState(1);
  const [order, setOrder] = useState<CustomerOrderValue>(null);
  const [hidden, setHidden] = useState<ColumnKey[]>(loadHiddenColumns);
  const [openContact, setOpenContact] = useState<ContactDetails | null>(null);
  // Closing the contact returns focus to the name that opened it (a row's click focuses its name first).
  const restoreFocusTarget = useRestoreFocusTarget();
  const filter = useMemo(() => ({ lifecycle, region, search: deferredSearch.trim() || null }), [lifecycle, region, deferredSearch]);
  const filtered = lifecycle !== 'all' || region !== 'all' || Boolean(filter.search);
  const first = useRef(true);

  // New filters or sort: back to page 1, fetched from the server (a new answer remounts the table).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setPage(1);
    startTransition(() => {
      refetch({ first: PAGE_SIZE, offset: 0, filter, orderBy: order }, 'network-only');
    });
  }, [filter, order, refetch]);

  const allColumns = useMemo(() => orderColumns(questionFields), [questionFields]);
  const columns = allColumns.filter((c) => !hidden.includes(c.key));
  const weights = columns.reduce((sum, c) => sum + c.weight, 0);

  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const loading = busy || pending;
  const view: TableView = { filter, order, filtered, loading };

  function goTo(target: number) {
    if (target === page || target < 1 || target > pageCount) return;
    startTransition(() => {
      setPage(target);
      refetch({ first: PAGE_SIZE, offset: (target - 1) * PAGE_SIZE, filter, orderBy: order }, 'store-or-network');
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

  const firstShown = (page - 1) * PAGE_SIZE + 1;

  function cell(key: ColumnKey, c: TableCustomer) {
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
    <section className={s.root} aria-label={label} aria-busy={loading}>
      <div className={s.head}>
        <div className={s.titles}>{titles(view)}</div>
        <div className={s.actions}>
          {actions?.(view)}
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
          {trailing}
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
        {rows.length === 0 && <Text as="p" className={s.empty}>{emptyText(view)}</Text>}
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
