// The administrator's views (spec §2 Admin console): users, statistics, pricing tiers, cleanup.
import { Box, Text } from 'ink';
import { formatCount, formatDate } from '../../client/format.js';
import { shortId } from '../format.js';
import { Table, type Column } from './Table.js';

export interface AdminUserRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  crmType: string;
  industry: string;
  tierName: string | null | undefined;
  chatQueryLimit: number;
  smartSegmentLimit: number;
  todaysUsage: { chatQueriesUsed: number; smartSegmentsUsed: number };
  isBanned: boolean;
  bannedAt: string | null | undefined;
  banReason: string | null | undefined;
}

export interface Labels {
  crmTypes: readonly { value: string; label: string }[];
  industries: readonly { value: string; label: string }[];
}

const labelOf = (options: readonly { value: string; label: string }[] | undefined, value: string) => options?.find((o) => o.value === value)?.label ?? value;

// Narrow terminals first lose the industry, then the CRM, the tier and today's usage (at 100
// columns: name with id, email, usage and status remain; at 60: name, email and status).
export const adminUserColumns = (options?: Labels): Column<AdminUserRow>[] => [
  { header: 'ID', cell: (u) => u.userId, pipedOnly: true },
  { header: 'User', cell: (u) => `${u.firstName} ${u.lastName} ${shortId(u.userId)}...`, value: (u) => `${u.firstName} ${u.lastName}`, min: 22 },
  { header: 'Email', cell: (u) => u.email, min: 16 },
  { header: 'CRM', cell: (u) => labelOf(options?.crmTypes, u.crmType), optional: 3, min: 10 },
  { header: 'Industry', cell: (u) => labelOf(options?.industries, u.industry), optional: 4, min: 8 },
  { header: 'Tier', cell: (u) => (u.tierName ? `${u.tierName} ${u.chatQueryLimit}/${u.smartSegmentLimit} limits` : 'No Tier'), optional: 2, min: 22 },
  {
    header: "Today's usage",
    cell: (u) => `${u.todaysUsage.chatQueriesUsed}/${u.chatQueryLimit} q · ${u.todaysUsage.smartSegmentsUsed}/${u.smartSegmentLimit} s`,
    optional: 1,
    min: 16,
  },
  {
    header: 'Status',
    cell: (u) => (u.isBanned ? `Banned ${formatDate(u.bannedAt)}: ${u.banReason ?? ''}` : 'Active'),
    value: (u) => (u.isBanned ? `Banned ${u.bannedAt ?? ''}: ${u.banReason ?? ''}` : 'Active'),
    color: (u) => (u.isBanned ? 'red' : 'green'),
    min: 10,
  },
];

export function AdminUsersView({
  users,
  total,
  banned,
  options,
  width,
}: {
  users: readonly AdminUserRow[];
  total: number;
  banned?: boolean | null;
  /** The labels of CRM and industry values (spec §9), as the server lists them. */
  options?: Labels;
  width: number;
}) {
  const columns = adminUserColumns(options);
  return (
    <Box flexDirection="column">
      <Text bold>
        {banned ? 'Banned users' : banned === false ? 'Active users' : 'Users'} ({formatCount(total)})
      </Text>
      {users.length === 0 ? <Text dimColor>No users found</Text> : <Table columns={columns} rows={users} width={width} />}
    </Box>
  );
}

export interface StatsData {
  totalUsers: number;
  activeUsers: number;
  totalChatQueries: number;
  totalSmartSegments: number;
}

export function StatsView({ stats }: { stats: StatsData }) {
  const rows: [string, number, string][] = [
    ['Total Users', stats.totalUsers, 'all accounts'],
    ['Active Users', stats.activeUsers, 'not banned, used the product or signed in within 30 days'],
    ['Total Queries', stats.totalChatQueries, 'chat queries in the kept usage history'],
    ['Total Segments', stats.totalSmartSegments, 'generated smart segments'],
  ];
  return (
    <Box flexDirection="column">
      {rows.map(([label, value, what]) => (
        <Text key={label}>
          {label.padEnd(16)}
          <Text bold>{formatCount(value ?? 0).padStart(10)}</Text> <Text dimColor>{what}</Text>
        </Text>
      ))}
    </Box>
  );
}

export interface TierRow {
  name: string;
  displayName: string;
  chatQueryLimit: number;
  smartSegmentLimit: number;
  priceMonthly: string;
  priceYearly: string;
  isActive: boolean;
}

export const tierColumns = (): Column<TierRow>[] => [
  { header: 'Name', cell: (t) => t.name },
  { header: 'Display name', cell: (t) => t.displayName, min: 8 },
  { header: 'Limits (daily)', cell: (t) => `${t.chatQueryLimit} queries · ${t.smartSegmentLimit} segments` },
  { header: 'Pricing', cell: (t) => `$${t.priceMonthly}/mo · $${t.priceYearly}/yr`, optional: 1 },
  { header: 'Status', cell: (t) => (t.isActive ? 'Active' : 'Inactive'), color: (t) => (t.isActive ? 'green' : 'gray') },
];

export function TiersView({ tiers, width }: { tiers: readonly TierRow[]; width: number }) {
  const columns = tierColumns();
  return (
    <Box flexDirection="column">
      <Text bold>Pricing tiers ({tiers.length})</Text>
      {tiers.length === 0 ? <Text dimColor>No pricing tiers found</Text> : <Table columns={columns} rows={tiers} width={width} />}
    </Box>
  );
}

export interface CleanupData {
  totalRecords: number;
  retentionDays: number;
  oldRecords: number;
  wouldDelete: number;
  oldestRecordDate: string | null | undefined;
}

/** The "Database Cleanup" statistics box. */
export function CleanupView({ stats }: { stats: CleanupData }) {
  const rows: [string, string][] = [
    ['Total usage records', formatCount(stats.totalRecords)],
    [`Records older than ${stats.retentionDays} days`, formatCount(stats.oldRecords)],
    ['Would delete', `${formatCount(stats.wouldDelete)} records`],
    ['Oldest record date', stats.oldestRecordDate ? formatDate(stats.oldestRecordDate) : '-'],
  ];
  const w = Math.max(...rows.map(([l]) => l.length));
  return (
    <Box flexDirection="column">
      <Text bold>Database Cleanup · retention {stats.retentionDays} days</Text>
      {rows.map(([label, value]) => (
        <Text key={label}>
          {'  '}
          {label.padEnd(w)} <Text bold>{value}</Text>
        </Text>
      ))}
    </Box>
  );
}
