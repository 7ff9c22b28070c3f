// The Maintenance tab of the Admin console (spec §2, §5, §8, §9): the "Database Cleanup" card with the
// retention period (1 to 365 days, 90 when not a number), the cleanup statistics for it (read again
// 300 ms after the retention changes, and after each run), "Run Cleanup" behind a confirmation, and
// "Run Daily Maintenance".
import {
  Button,
  Card,
  CardHeader,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Broom20Regular, WrenchScrewdriver20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useRef, useState, useTransition } from 'react';
import { graphql, useLazyLoadQuery, useRelayEnvironment } from 'react-relay';
import { fetchQuery, type Subscription } from 'relay-runtime';
import type { MaintenanceTabStatsQuery } from '../../__generated__/MaintenanceTabStatsQuery.graphql';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { messageOf } from '../../lib/errors';
import { formatCount, formatDate } from '../../lib/format';
import { mutate } from '../../lib/mutate';
import { useNotify } from '../../lib/toasts';
import { useRunCleanupMutation } from '../../mutations/RunCleanupMutation';
import { useRunDailyMaintenanceMutation } from '../../mutations/RunDailyMaintenanceMutation';
import { cleanupCompleted } from '../../../../client/messages.js';

const DEFAULT_RETENTION_DAYS = 90;
const MIN_RETENTION_DAYS = 1;
const MAX_RETENTION_DAYS = 365;
const RETENTION_MESSAGE = `Retention days must be between ${MIN_RETENTION_DAYS} and ${MAX_RETENTION_DAYS}`;
const RELOAD_DELAY_MS = 300;

/** The retention the input stands for: 90 when it is not a number, null when out of range (not sent). */
function retentionOf(text: string): number | null {
  const n = text.trim() === '' ? NaN : Number(text);
  if (Number.isNaN(n)) return DEFAULT_RETENTION_DAYS;
  return Number.isInteger(n) && n >= MIN_RETENTION_DAYS && n <= MAX_RETENTION_DAYS ? n : null;
}

const QUERY = graphql`
  query MaintenanceTabStatsQuery($retentionDays: Int!) {
    cleanupStats(retentionDays: $retentionDays) {
      totalRecords
      retentionDays
      oldRecords
      wouldDelete
      oldestRecordDate
    }
  }
`;

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  retention: { maxWidth: '280px' },
  stats: {
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalM,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  statsHead: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minHeight: '24px' },
  list: {
    margin: 0,
    padding: 0,
    listStyleType: 'none',
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  item: { margin: 0, minWidth: 0, overflowWrap: 'anywhere' },
  term: { color: tokens.colorNeutralForeground3 },
  value: { fontWeight: tokens.fontWeightSemibold },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export default function MaintenanceTab() {
  const s = useStyles();
  const notify = useNotify();
  const environment = useRelayEnvironment();

  // What the statistics show: read by useLazyLoadQuery; a reload fetches first, then points the query
  // at the fresh data in the store (store-or-network: it is there), so the tab does not suspend while the retention is being typed.
  const [args, setArgs] = useState<{ days: number; fetchKey: number; policy: 'store-and-network' | 'store-or-network' }>({
    days: DEFAULT_RETENTION_DAYS,
    fetchKey: 0,
    policy: 'store-and-network',
  });
  const data = useLazyLoadQuery<MaintenanceTabStatsQuery>(
    QUERY,
    { retentionDays: args.days },
    { fetchKey: args.fetchKey, fetchPolicy: args.policy },
  );
  const stats = data.cleanupStats;

  const [text, setText] = useState(String(DEFAULT_RETENTION_DAYS));
  const retention = retentionOf(text);
  const [loading, setLoading] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const [, startTransition] = useTransition();
  const inFlight = useRef<Subscription | null>(null);

  const reload = useCallback(
    (days: number) => {
      inFlight.current?.unsubscribe(); // only the latest retention counts
      setLoading(true);
      setLoadFailed(false);
      inFlight.current = fetchQuery<MaintenanceTabStatsQuery>(environment, QUERY, { retentionDays: days }, { fetchPolicy: 'network-only' }).subscribe({
        complete: () => {
          inFlight.current = null;
          setLoading(false);
          startTransition(() => setArgs((a) => ({ days, fetchKey: a.fetchKey + 1, policy: 'store-or-network' })));
        },
        error: () => {
          inFlight.current = null;
          setLoading(false);
          setLoadFailed(true);
        },
      });
    },
    [environment],
  );
  useEffect(() => () => inFlight.current?.unsubscribe(), []);

  // The statistics follow the retention, 300 ms after the last change.
  const shownDays = args.days;
  useEffect(() => {
    if (retention === null || retention === shownDays) return;
    const timer = setTimeout(() => reload(retention), RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [retention, shownDays, reload]);

  const [confirming, setConfirming] = useState(false);
  const [cleanup, cleaning] = useRunCleanupMutation();
  const [maintain, maintaining] = useRunDailyMaintenanceMutation();
  // Statistics for another retention than the one typed are about to change: nothing to confirm yet.
  const current = retention !== null && retention === stats.retentionDays && !loading;

  async function runCleanup() {
    setConfirming(false);
    try {
      const r = await mutate(cleanup, { variables: { input: { retentionDays: stats.retentionDays } } });
      notify({ ...cleanupCompleted(r.runCleanup.message), intent: 'success' });
    } catch (err) {
      notify({ title: 'Cleanup Failed', body: messageOf(err, 'Failed to run cleanup operation'), intent: 'error' });
    }
    reload(stats.retentionDays);
  }

  async function runMaintenance() {
    try {
      const r = await mutate(maintain, { variables: {} });
      const { message } = r.runDailyMaintenance;
      const partial = /finished with errors/i.test(message);
      notify({
        title: 'Maintenance Completed',
        body: partial ? message : `Daily maintenance tasks completed successfully (${message.replace(/^Daily maintenance completed:\s*/i, '')})`,
        intent: partial ? 'warning' : 'success',
      });
    } catch (err) {
      notify({ title: 'Maintenance Failed', body: messageOf(err, 'Failed to run daily maintenance'), intent: 'error' });
    }
    reload(retention ?? stats.retentionDays);
  }

  // One line each ("Would delete: 12 records"), so each reads as a sentence.
  const items: [string, string][] = [
    ['Total usage records', formatCount(stats.totalRecords)],
    [`Records older than ${plural(stats.retentionDays, 'day')}`, formatCount(stats.oldRecords)],
    ['Would delete', plural(stats.wouldDelete, 'record')],
    ['Oldest record date', formatDate(stats.oldestRecordDate)],
  ];

  return (
    <Card className={s.card}>
      <CardHeader
        header={
          <Text as="h2" size={500} weight="semibold">
            Database Cleanup
          </Text>
        }
        description={
          <Text size={200} className={s.muted}>
            Remove usage records older than the retention period.
          </Text>
        }
      />
      <Field
        className={s.retention}
        label="Retention Period (Days)"
        hint={`${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS} days; ${DEFAULT_RETENTION_DAYS} when empty`}
        validationMessage={retention === null ? RETENTION_MESSAGE : undefined}
        validationState={retention === null ? 'error' : 'none'}
      >
        <Input type="number" min={MIN_RETENTION_DAYS} max={MAX_RETENTION_DAYS} step={1} value={text} onChange={(_e, d) => setText(d.value)} />
      </Field>

      <section className={s.stats} aria-labelledby="cleanup-stats-heading" aria-busy={loading}>
        <div className={s.statsHead}>
          <Text as="h3" weight="semibold" id="cleanup-stats-heading">
            Statistics
          </Text>
          {loading && <Spinner size="extra-tiny" aria-label="Updating statistics" />}
        </div>
        {loadFailed && (
          <MessageBar intent="error">
            <MessageBarBody>Failed to load cleanup statistics. Please check your admin permissions.</MessageBarBody>
          </MessageBar>
        )}
        <ul className={s.list}>
          {items.map(([term, value]) => (
            <li key={term} className={s.item}>
              <span className={s.term}>{term}:</span> <span className={s.value}>{value}</span>
            </li>
          ))}
        </ul>
      </section>

      <div className={s.actions}>
        <Button
          appearance="primary"
          icon={<Broom20Regular />}
          onClick={() => setConfirming(true)}
          disabled={cleaning || !current || stats.wouldDelete === 0}
        >
          {cleaning ? 'Running...' : 'Run Cleanup'}
        </Button>
        <Button icon={<WrenchScrewdriver20Regular />} onClick={runMaintenance} disabled={maintaining}>
          {maintaining ? 'Running...' : 'Run Daily Maintenance'}
        </Button>
      </div>

      <ConfirmDialog
        open={confirming}
        title="Run cleanup"
        confirmLabel="Delete records"
        danger
        onConfirm={runCleanup}
        onCancel={() => setConfirming(false)}
      >
        This will permanently delete {plural(stats.wouldDelete, 'usage record')} older than {plural(stats.retentionDays, 'day')}. This action cannot be
        undone. Do you want to continue?
      </ConfirmDialog>
    </Card>
  );
}
