// The CLI's views on ink-testing-library's lastFrame(): what a user reads, in plain text (no colour
// outside a terminal), at the widths they are given.
import { renderToString } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { adminUserColumns, AdminUsersView, CleanupView, StatsView, TiersView, type AdminUserRow } from './Admin.js';
import { CUSTOMER_COLUMNS, CustomerTable, type CustomerRow } from './CustomerTable.js';
import { historyColumns, HistoryView, segmentColumns, SegmentsView, smartColumns, SmartSegmentsView, type DailySegmentRow } from './Lists.js';
import { ExportProgress, GenerationProgressView } from './Live.js';
import { QueryResult } from './QueryResult.js';
import { GAP, layout, Table, tsv, type Column } from './Table.js';
import { tokenColumns, TokensView } from './Tokens.js';
import { Understood, type UnderstoodData } from './Understood.js';
import { UsageView } from './UsageView.js';

afterEach(() => cleanup());

const NOW = Date.parse('2026-11-23T12:00:00Z');

const customer = (over: Partial<CustomerRow>): CustomerRow => ({
  id: '1',
  firstName: null,
  lastName: null,
  email: null,
  company: null,
  lifecycleStage: 'unknown',
  lastPurchaseDate: null,
  lastPurchaseAmount: null,
  lifetimeValue: null,
  city: null,
  state: null,
  country: null,
  ...over,
});

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('Table', () => {
  const rows = [{ a: 'short', b: 'a rather long piece of text that will not fit', c: 'x' }];
  const columns = [
    { header: 'A', cell: (r: (typeof rows)[0]) => r.a },
    { header: 'B', cell: (r: (typeof rows)[0]) => r.b, min: 10 },
    { header: 'Optional', cell: (r: (typeof rows)[0]) => r.c, optional: 1, min: 8 },
  ];

  it('keeps content widths while they fit, then cuts the growable columns with an ellipsis', () => {
    expect(layout(columns, rows, 200).widths).toEqual([5, 45, 8]);
    const { lastFrame } = render(<Table columns={columns} rows={rows} width={40} />);
    for (const line of lines(lastFrame())) expect(line.length).toBeLessThanOrEqual(40);
    expect(lastFrame()).toContain('a rather long piece of…');
    expect(lastFrame()).toContain('Optional');
  });

  it('leaves out optional columns when even the minimum widths do not fit', () => {
    expect(layout(columns, rows, 23).columns.map((c) => c.header)).toEqual(['A', 'B', 'Optional']);
    expect(layout(columns, rows, 22).columns.map((c) => c.header)).toEqual(['A', 'B']);
  });
});

describe('tables at any width', () => {
  /** The table's lines are as wide as the layout says, at most `width`, none wraps, and every column starts after its gap. */
  function expectAligned<R>(frame: string, columns: readonly Column<R>[], rows: readonly R[], width: number) {
    const { columns: shown, widths } = layout(columns, rows, width);
    const first = shown[0].header;
    const at = lines(frame).findIndex((l) => l.startsWith(first) && (l.length === first.length || l[first.length] === ' '));
    expect(at).toBeGreaterThanOrEqual(0);
    const table = lines(frame).slice(at, at + rows.length + 1);
    expect(table).toHaveLength(rows.length + 1);
    const starts = widths.map((_w, i) => widths.slice(0, i).reduce((a, b) => a + b, 0) + GAP * i);
    for (const line of table) {
      expect([...line].length, line).toBeLessThanOrEqual(width);
      for (const start of starts.slice(1)) expect([...line].slice(start - GAP, start).join(''), `${line} @${start}`).toBe(' '.repeat(GAP));
    }
    return table;
  }

  const ann = customer({ id: '1', firstName: 'Rebeka', lastName: 'Karpiński', email: 'rkarpinski@sokolowski-telecom.pl', company: 'Sokołowski Telecom Sp. z o.o.', lifecycleStage: 'opportunity', lifetimeValue: 14128, lastPurchaseDate: '2026-11-20', city: 'Kraków', country: 'Poland' });

  it('at 60 columns every table has fewer columns, aligned, instead of overflowing', () => {
    const at60 = (view: ReactElement) => renderToString(view, { columns: 60 });
    const customers = [ann, customer({ id: '2', email: 'x@y.z' })];
    const table = expectAligned(at60(<CustomerTable customers={customers} width={60} />), CUSTOMER_COLUMNS, customers, 60);
    expect(table[0]).toMatch(/^Name\s+Email\s+Lifetime value$/);
    const users: AdminUserRow[] = [
      { userId: '1c9e77d0-0000', firstName: 'Demonstration', lastName: 'Usermanager', email: 'demonstration.user@crm-assistant.local', crmType: 'hubspot', industry: 'telecom', tierName: 'Enterprise Plan', chatQueryLimit: 1000, smartSegmentLimit: 100, todaysUsage: { chatQueriesUsed: 100, smartSegmentsUsed: 10 }, isBanned: true, bannedAt: '2026-11-20T10:00:00Z', banReason: 'Automated scraping of the whole CRM' },
    ];
    expectAligned(at60(<AdminUsersView users={users} total={1} width={60} />), adminUserColumns(), users, 60);
    const history = [{ queryId: 'aaaaaaaa-1111', naturalLanguage: 'customers in Europe who bought in the last 30 days with lifetime value over $5k', createdAt: '2026-11-23T11:00:00Z', resultCount: 12345, hasError: false }];
    expectAligned(at60(<HistoryView queries={history} total={1} limit={50} width={60} now={NOW} />), historyColumns(NOW), history, 60);
    const segments = [{ segmentId: '5be0c1d2-0000', description: 'high-value customers in Germany who bought twice this year', createdAt: '2026-11-20T10:00:00Z', latestResult: { customerCount: 1234, hasError: false, processedAt: '2026-11-23T11:00:00Z' } }];
    expectAligned(at60(<SegmentsView segments={segments} total={1} width={60} now={NOW} />), segmentColumns(NOW), segments, 60);
    const smart: DailySegmentRow[] = [
      { segmentId: '9d41c2aa-0000', date: '2026-11-23', customerCount: 123456, impactScore: '2175.25', hasError: false, errorMessage: null, isUnlocked: true, generatedAt: '2026-11-23T11:55:00Z', preset: { name: 'Dormant high spenders in the last quarter', category: { displayName: 'Operational Hygiene', isLocked: true } } },
    ];
    expectAligned(at60(<SmartSegmentsView segments={smart} date="2026-11-23" today width={60} now={NOW} />), smartColumns(), smart, 60);
    const tokens = [{ id: 'UGVyc29uYWxBY2Nlc3NUb2tlbjo3YzFkMmUzZi0wMDAw', name: 'crm CLI on a-very-long-hostname.example.com', prefix: 'crm_pat_Ab12Cd', createdAt: '2026-11-20T10:00:00Z', lastUsedAt: null, expiresAt: null, isCurrent: true }];
    expectAligned(at60(<TokensView tokens={tokens} total={1} width={60} now={NOW} />), tokenColumns(NOW), tokens, 60);
    // Even narrower than the columns that are always shown: cut further, still one line per row.
    expectAligned(renderToString(<CustomerTable customers={customers} width={30} />, { columns: 30 }), CUSTOMER_COLUMNS, customers, 30);
  });

  it('a column whose content fits is never dropped', () => {
    const short = [customer({ id: '1', firstName: 'Al', lastName: 'B', email: 'a@b.it', company: null, lifecycleStage: 'lead', city: null, country: 'Italy', lastPurchaseDate: '2026-11-20', lifetimeValue: 100 })];
    const frame = renderToString(<CustomerTable customers={short} width={100} />, { columns: 100 });
    expect(lines(frame)[0]).toMatch(/^Name\s+Email\s+Company\s+Stage\s+Location\s+Last purchase\s+Lifetime value$/);
  });

  it('piped, a table is TSV: a header, every column (also those only for pipes), full values', () => {
    const text = tsv(CUSTOMER_COLUMNS, [ann, customer({ id: '2', company: 'Tab\tand\nnewline' })]);
    expect(text.split('\n')).toEqual([
      'ID\tName\tEmail\tCompany\tStage\tLocation\tLast purchase\tLifetime value',
      '1\tRebeka Karpiński\trkarpinski@sokolowski-telecom.pl\tSokołowski Telecom Sp. z o.o.\topportunity\tKraków, Poland\t2026-11-20\t14128',
      '2\tUnknown\t\tTab and newline\tunknown\t\t\t',
      '',
    ]);
  });
});

describe('CustomerTable', () => {
  it('shows names, money and dates by the spec, and drops the company first when narrow', () => {
    const rows = [
      customer({ id: '1', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.com', company: 'Acme', lifecycleStage: 'customer', lifetimeValue: 12345, lastPurchaseDate: '2025-01-05', city: 'Berlin', country: 'Germany' }),
      customer({ id: '2', email: 'bob.smith@example.com' }),
      customer({ id: '3' }),
    ];
    // ink-testing-library's terminal is 100 wide: a wider table is rendered as the CLI does, to a string.
    const wide = renderToString(<CustomerTable customers={rows} width={140} />, { columns: 140 });
    expect(lines(wide)[0]).toMatch(/^Name\s+Email\s+Company\s+Stage\s+Location\s+Last purchase\s+Lifetime value$/);
    expect(wide).toMatch(/Ann Lee\s+ann@acme\.com\s+Acme\s+customer\s+Berlin, Germany\s+Jan 5, 2025\s+\$12,345/);
    expect(wide).toMatch(/bob\.smith\s+bob\.smith@example\.com\s+-/);
    expect(wide).toMatch(/Unknown\s+-\s+-\s+unknown\s+-\s+-\s+-/);
    const narrow = render(<CustomerTable customers={rows} width={90} />).lastFrame()!;
    expect(lines(narrow)[0]).not.toContain('Company');
    for (const line of lines(narrow)) expect(line.length).toBeLessThanOrEqual(90);
  });
});

const understood = (over: Partial<UnderstoodData> = {}): UnderstoodData => ({
  editable: true,
  explanation: 'Customers · in Europe · lifetime value over $5,000',
  clauses: [{ anyOf: [{ label: 'in Europe' }] }, { anyOf: [{ label: 'leads' }, { label: 'subscribers' }] }],
  sort: { field: 'lifetimeValue', direction: 'desc' },
  limit: 10,
  ignoredPhrases: ['pink hats'],
  ...over,
});

describe('Understood', () => {
  it('lists each condition, one-of clauses, the order and limit, and what was ignored', () => {
    const frame = render(<Understood understood={understood()} />).lastFrame();
    expect(lines(frame)).toEqual([
      'Understood',
      '  ✓ in Europe',
      '  ✓ one of: leads | subscribers',
      '  ↕ sorted by lifetime value, highest first, at most 10',
      '  ? not understood, ignored: “pink hats”',
    ]);
  });

  it('says "all customers" without conditions, and words dates and text by their kind', () => {
    const frame = render(<Understood understood={understood({ clauses: [], sort: { field: 'lastPurchaseDate', direction: 'asc' }, limit: null, ignoredPhrases: [] })} />).lastFrame();
    expect(frame).toContain('✓ all customers');
    expect(frame).toContain('sorted by last purchase date, oldest first');
  });

  it('shows the explanation when the segment cannot be shown as conditions', () => {
    const frame = render(<Understood understood={understood({ editable: false, clauses: [], sort: null, limit: null, ignoredPhrases: [] })} />).lastFrame();
    expect(lines(frame)).toEqual(['Understood', '  Customers · in Europe · lifetime value over $5,000']);
  });
});

describe('QueryResult', () => {
  const base = {
    kind: 'run' as const,
    queryId: '3f2a1b9c-0000-4000-8000-000000000000',
    question: 'customers in Europe',
    message: 'Found 1,234 customers',
    understood: understood({ ignoredPhrases: [] }),
    width: 100,
  };

  it('shows the outcome, how it was understood, the customers and how to get all of them', () => {
    const frame = render(<QueryResult {...base} resultCount={1234} hasError={false} customers={[customer({ firstName: 'Ann', lastName: 'Lee' })]} />).lastFrame()!;
    expect(frame).toContain('Question customers in Europe');
    expect(frame).toContain('✔ Search completed — Found 1,234 customers matching your criteria.');
    expect(frame).toContain('✓ in Europe');
    expect(frame).toContain('Ann Lee');
    expect(frame).toContain('Showing 1 of 1,234 · query 3f2a1b9c · all of them: crm export 3f2a1b9c');
  });

  it('says so when nothing matched, and leaves a failed search to the error line', () => {
    expect(render(<QueryResult {...base} resultCount={0} hasError={false} customers={[]} />).lastFrame()).toContain(
      'No results found — Try adjusting your search criteria.',
    );
    const failed = render(<QueryResult {...base} resultCount={0} hasError customers={[]} />).lastFrame()!;
    expect(failed).not.toContain('Search completed');
    expect(failed).not.toContain('Showing');
    expect(render(<QueryResult {...base} kind="rerun" resultCount={5} hasError={false} customers={[]} />).lastFrame()).toContain('Query updated — Found 5 customers');
  });
});

describe('UsageView', () => {
  const usage = { chatQueriesUsed: 2, chatQueryLimit: 10, smartSegmentsUsed: 0, smartSegmentLimit: 3, tierName: 'Pro Plan' };

  it('shows a meter per limit with its level, and the upgrade action by the spec', () => {
    const normal = render(<UsageView usage={usage} />).lastFrame()!;
    expect(normal).toMatch(/Queries\s+█+░+\s+2\/10\n/);
    expect(normal).not.toContain('Upgrade');
    const warning = render(<UsageView usage={{ ...usage, chatQueriesUsed: 9 }} />).lastFrame()!;
    expect(warning).toContain('9/10 close to the limit');
    expect(warning).toContain('Upgrade Plan');
    const limit = render(<UsageView usage={{ ...usage, smartSegmentsUsed: 3 }} />).lastFrame()!;
    expect(limit).toContain('3/3 limit reached');
    expect(limit).toContain('Upgrade Required');
    expect(render(<UsageView usage={{ ...usage, tierName: 'Free Plan' }} />).lastFrame()).toContain('Upgrade Plan');
  });
});

describe('lists', () => {
  it('history shows count/50, short ids and errors', () => {
    const frame = render(
      <HistoryView
        queries={[
          { queryId: 'aaaaaaaa-1111', naturalLanguage: 'leads in Canada', createdAt: '2026-11-23T11:00:00Z', resultCount: 93, hasError: false },
          { queryId: 'bbbbbbbb-2222', naturalLanguage: 'customers', createdAt: '2026-11-20T12:00:00Z', resultCount: 0, hasError: true },
        ]}
        total={2}
        limit={50}
        width={100}
        now={NOW}
      />,
    ).lastFrame()!;
    expect(lines(frame)[0]).toBe('Query history (2/50)');
    expect(frame).toMatch(/aaaaaaaa\s+1 hour ago\s+93\s+leads in Canada/);
    expect(frame).toMatch(/bbbbbbbb\s+3 days ago\s+error\s+customers/);
  });

  it('saved segments: "No segments yet" when empty', () => {
    expect(render(<SegmentsView segments={[]} total={0} width={100} />).lastFrame()).toBe('Saved (0)\nNo segments yet');
  });

  it('Smart Segments: counts, "Generated … ago" or "never", impact with one decimal, status', () => {
    const seg = (over: Partial<DailySegmentRow>): DailySegmentRow => ({
      segmentId: '9d41c2aa-0000',
      date: '2026-11-23',
      customerCount: 1234,
      impactScore: '63.05',
      hasError: false,
      errorMessage: null,
      isUnlocked: false,
      generatedAt: '2026-11-23T11:55:00Z',
      preset: { name: 'High-value customers', category: { displayName: 'Free', isLocked: false } },
      ...over,
    });
    const frame = render(
      <SmartSegmentsView
        segments={[seg({}), seg({ segmentId: '11111111', isUnlocked: true }), seg({ segmentId: '22222222', preset: { name: 'Lapsed', category: { displayName: 'Reactivation', isLocked: true } } }), seg({ segmentId: '33333333', hasError: true, errorMessage: 'CRM timeout' })]}
        date="2026-11-23"
        today
        width={100}
        now={NOW}
      />,
    ).lastFrame()!;
    expect(lines(frame)[0]).toBe("Today's Segment Ideas · 4 segments today · Generated 5 minutes ago");
    expect(frame).toMatch(/9d41c2aa\s+High-value customers\s+Free\s+1,234\s+63\.0\s+free/);
    expect(frame).toMatch(/11111111.*unlocked/);
    expect(frame).toMatch(/22222222\s+Lapsed\s+Reactivation.*locked/);
    expect(frame).toContain('33333333 High-value customers: CRM timeout');
    const empty = render(<SmartSegmentsView segments={[]} date="2026-11-23" today width={100} />).lastFrame();
    expect(empty).toBe("Today's Segment Ideas · 0 segments today · Generated never\nNot generated today");
  });
});

describe('admin views', () => {
  const user = (over: Partial<AdminUserRow>): AdminUserRow => ({
    userId: '7a19debd-0000-4000-8000-000000000000',
    firstName: 'Ada',
    lastName: 'Admin',
    email: 'ada@example.com',
    crmType: 'hubspot',
    industry: 'it_software',
    tierName: 'Pro Plan',
    chatQueryLimit: 100,
    smartSegmentLimit: 25,
    todaysUsage: { chatQueriesUsed: 3, smartSegmentsUsed: 1 },
    isBanned: false,
    bannedAt: null,
    banReason: null,
    ...over,
  });
  const options = { crmTypes: [{ value: 'hubspot', label: 'HubSpot' }], industries: [{ value: 'it_software', label: 'IT & Software' }] };

  it('users: name with the id cut to 8, labels, tier limits or "No Tier", usage, ban status', () => {
    const users = [
      user({}),
      user({ userId: 'd6f6c635-1', firstName: 'Demo', lastName: 'User', email: 'demo@example.com', tierName: null, chatQueryLimit: 10, smartSegmentLimit: 3, isBanned: true, bannedAt: '2026-11-20T10:00:00Z', banReason: 'abuse' }),
    ];
    const wide = renderToString(<AdminUsersView users={users} total={2} options={options} width={170} />, { columns: 170 });
    expect(lines(wide)[0]).toBe('Users (2)');
    expect(wide).toMatch(/Ada Admin 7a19debd\.\.\.\s+ada@example\.com\s+HubSpot\s+IT & Software\s+Pro Plan 100\/25 limits\s+3\/100 q · 1\/25 s\s+Active/);
    expect(wide).toMatch(/Demo User d6f6c635\.\.\..*No Tier\s+3\/10 q · 1\/3 s\s+Banned Nov 20, 2026: abuse/);
    // 100 columns: the industry and the CRM go first; what still fits stays.
    const narrow = render(<AdminUsersView users={users} total={2} options={options} width={100} />).lastFrame()!;
    expect(lines(narrow)[1]).toMatch(/^User\s+Email\s+Tier\s+Today's usage\s+Status$/);
    expect(narrow).toMatch(/Demo User d6f6c635\.\.\.\s+demo@example\.com\s+No Tier\s+3\/10 q · 1\/3 s\s+Banned Nov 20, 2…/);
    // 60 columns: name, email and status.
    const sixty = renderToString(<AdminUsersView users={users} total={2} options={options} width={60} />, { columns: 60 });
    expect(lines(sixty)[1]).toMatch(/^User\s+Email\s+Status$/);
    expect(render(<AdminUsersView users={[]} total={0} banned width={100} />).lastFrame()).toBe('Banned users (0)\nNo users found');
  });

  it('statistics, tiers and the cleanup box', () => {
    expect(render(<StatsView stats={{ totalUsers: 12, activeUsers: 7, totalChatQueries: 1500, totalSmartSegments: 96 }} />).lastFrame()).toMatch(
      /Total Users\s+12 all accounts\nActive Users\s+7 .*\nTotal Queries\s+1,500 .*\nTotal Segments\s+96 /,
    );
    const tiers = render(
      <TiersView tiers={[{ name: 'pro', displayName: 'Pro Plan', chatQueryLimit: 100, smartSegmentLimit: 25, priceMonthly: '49.00', priceYearly: '490.00', isActive: true }]} width={100} />,
    ).lastFrame();
    expect(tiers).toMatch(/pro\s+Pro Plan\s+100 queries · 25 segments\s+\$49\.00\/mo · \$490\.00\/yr\s+Active/);
    const box = render(<CleanupView stats={{ totalRecords: 40, retentionDays: 30, oldRecords: 12, wouldDelete: 12, oldestRecordDate: '2026-08-01' }} />).lastFrame();
    expect(lines(box)).toEqual([
      'Database Cleanup · retention 30 days',
      '  Total usage records        40',
      '  Records older than 30 days 12',
      '  Would delete               12 records',
      '  Oldest record date         Aug 1, 2026',
    ]);
  });
});

describe('live views', () => {
  it('export progress: a bar and the counts', () => {
    const frame = render(<ExportProgress state={{ done: 2500, total: 10000, target: 'out.csv' }} />).lastFrame()!;
    expect(lines(frame)[0]).toBe('Exporting to out.csv');
    expect(frame).toContain('Exported 2,500 of 10,000 customers (25%)');
  });

  it('generation progress: users done of total, segments, errors', () => {
    const { lastFrame, rerender } = render(<GenerationProgressView state={null} />);
    expect(lastFrame()).toContain('Starting generation…');
    rerender(<GenerationProgressView state={{ users: 4, completedUsers: 1, totalSegments: 12, successCount: 11, failedCount: 1, done: false }} />);
    expect(lastFrame()).toContain("Generating today's Smart Segments");
    expect(lastFrame()).toContain('Users 1/4 · segments 12 · errors 1');
  });
});
