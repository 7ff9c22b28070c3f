// The lists of `crm history`, `crm segments` and `crm smart`.
import { Box, Text } from 'ink';
import { formatCount, generatedAgo, relativeTime } from '../../client/format.js';
import { shortId } from '../format.js';
import { Table, type Column } from './Table.js';

export interface HistoryRow {
  queryId: string;
  naturalLanguage: string;
  createdAt: string;
  resultCount: number;
  hasError: boolean;
}

/** At most 50 queries are kept (spec §9): the heading shows count/50. */
export const historyColumns = (now?: number): Column<HistoryRow>[] => [
  { header: 'ID', cell: (q) => shortId(q.queryId), value: (q) => q.queryId },
  { header: 'When', cell: (q) => relativeTime(q.createdAt, now), value: (q) => q.createdAt, optional: 1 },
  {
    header: 'Results',
    cell: (q) => (q.hasError ? 'error' : formatCount(q.resultCount)),
    value: (q) => (q.hasError ? 'error' : q.resultCount),
    align: 'right',
    color: (q) => (q.hasError ? 'yellow' : undefined),
  },
  { header: 'Question', cell: (q) => q.naturalLanguage, min: 12 },
];

export function HistoryView({ queries, total, limit, width, now }: { queries: readonly HistoryRow[]; total: number; limit: number; width: number; now?: number }) {
  const columns = historyColumns(now);
  return (
    <Box flexDirection="column">
      <Text bold>
        Query history ({total}/{limit})
      </Text>
      {queries.length === 0 ? <Text dimColor>No queries yet: ask one with crm query "…"</Text> : <Table columns={columns} rows={queries} width={width} />}
    </Box>
  );
}

export interface SavedSegmentRow {
  segmentId: string;
  name?: string | null;
  description: string;
  createdAt: string;
  latestResult: { customerCount: number; hasError: boolean; processedAt: string } | null | undefined;
}

export const segmentColumns = (now?: number): Column<SavedSegmentRow>[] => [
  { header: 'ID', cell: (s) => shortId(s.segmentId), value: (s) => s.segmentId },
  { header: 'Name', cell: (s) => s.name ?? '', value: (s) => s.name ?? null, optional: 3 },
  { header: 'Description', cell: (s) => s.description, min: 12 },
  {
    header: 'Customers',
    cell: (s) => (!s.latestResult ? '-' : s.latestResult.hasError ? 'error' : formatCount(s.latestResult.customerCount)),
    value: (s) => (!s.latestResult ? null : s.latestResult.hasError ? 'error' : s.latestResult.customerCount),
    align: 'right',
  },
  { header: 'Counted', cell: (s) => (s.latestResult ? relativeTime(s.latestResult.processedAt, now) : 'not yet'), value: (s) => s.latestResult?.processedAt, optional: 2 },
  { header: 'Created', cell: (s) => relativeTime(s.createdAt, now), value: (s) => s.createdAt, optional: 1 },
];

export function SegmentsView({ segments, total, width, now }: { segments: readonly SavedSegmentRow[]; total: number; width: number; now?: number }) {
  const columns = segmentColumns(now);
  return (
    <Box flexDirection="column">
      <Text bold>Saved ({total})</Text>
      {segments.length === 0 ? <Text dimColor>No segments yet</Text> : <Table columns={columns} rows={segments} width={width} />}
    </Box>
  );
}

export interface DailySegmentRow {
  segmentId: string;
  date: string;
  customerCount: number;
  impactScore: string;
  hasError: boolean;
  errorMessage: string | null | undefined;
  isUnlocked: boolean;
  generatedAt: string;
  preset: { name: string; category: { displayName: string; isLocked: boolean } };
}

const status = (s: DailySegmentRow) => (s.hasError ? 'error' : s.isUnlocked ? 'unlocked' : s.preset.category.isLocked ? 'locked' : 'free');
const STATUS_COLOR: Record<string, string> = { error: 'red', unlocked: 'green', locked: 'yellow', free: 'cyan' };

export const smartColumns = (): Column<DailySegmentRow>[] => [
  { header: 'ID', cell: (s) => shortId(s.segmentId), value: (s) => s.segmentId },
  { header: 'Segment', cell: (s) => s.preset.name, min: 12 },
  { header: 'Category', cell: (s) => s.preset.category.displayName, optional: 1, min: 8 },
  { header: 'Customers', cell: (s) => formatCount(s.customerCount), value: (s) => s.customerCount, align: 'right' },
  { header: 'Impact', cell: (s) => Number(s.impactScore).toFixed(1), value: (s) => Number(s.impactScore), align: 'right' },
  { header: 'Status', cell: status, color: (s) => STATUS_COLOR[status(s)] },
];

/** Today's Segment Ideas (spec §2): "{n} segments today", "Generated {time} ago" or "never". */
export function SmartSegmentsView({ segments, date, today, width, now }: { segments: readonly DailySegmentRow[]; date: string; today: boolean; width: number; now?: number }) {
  const latest = segments.reduce<string | null>((a, s) => (!a || s.generatedAt > a ? s.generatedAt : a), null);
  const columns = smartColumns();
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{today ? "Today's Segment Ideas" : `Segment Ideas of ${date}`}</Text> · {formatCount(segments.length)} segments{today ? ' today' : ''} ·{' '}
        {generatedAgo(latest, now)}
      </Text>
      {segments.length === 0 ? <Text dimColor>Not generated {today ? 'today' : 'that day'}</Text> : <Table columns={columns} rows={segments} width={width} />}
      {segments.some((s) => s.hasError) && (
        <Box flexDirection="column" marginTop={1}>
          {segments
            .filter((s) => s.hasError)
            .map((s) => (
              <Text key={s.segmentId} color="red">
                {shortId(s.segmentId)} {s.preset.name}: {s.errorMessage ?? 'could not be generated'}
              </Text>
            ))}
        </Box>
      )}
    </Box>
  );
}
