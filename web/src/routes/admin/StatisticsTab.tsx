// The Statistics tab of the Admin console (spec §2): the four cards (0 when a figure is missing) and
// a 30-day chart of daily chat queries and smart-segment unlocks, with the same figures in a table
// for screen readers. The chart library comes with this tab's chunk only.
import { Card, Text, makeStyles, tokens } from '@fluentui/react-components';
import { LineChart, type LineChartPoints } from '@fluentui/react-charts';
import { useMemo } from 'react';
import { graphql, useLazyLoadQuery } from 'react-relay';
import type { StatisticsTabQuery } from '../../__generated__/StatisticsTabQuery.graphql';
import { formatCount, formatDate } from '../../lib/format';

const DAYS = 30;

const QUERY = graphql`
  query StatisticsTabQuery($days: Int!) {
    usageStats {
      totalUsers
      activeUsers
      totalChatQueries
      totalSmartSegments
    }
    dailyUsageSeries(days: $days) {
      date
      chatQueries
      smartSegmentUnlocks
    }
  }
`;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  cards: { display: 'grid', gap: tokens.spacingHorizontalL, gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))' },
  card: { padding: tokens.spacingHorizontalL },
  label: { color: tokens.colorNeutralForeground3 },
  chartCard: { padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  chart: { width: '100%', minHeight: '300px' },
  srOnly: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

export default function StatisticsTab() {
  const s = useStyles();
  const data = useLazyLoadQuery<StatisticsTabQuery>(QUERY, { days: DAYS }, { fetchPolicy: 'store-and-network' });
  const stats = data.usageStats;
  const cards = [
    { label: 'Total Users', value: stats?.totalUsers },
    { label: 'Active Users', value: stats?.activeUsers },
    { label: 'Total Queries', value: stats?.totalChatQueries },
    { label: 'Total Segments', value: stats?.totalSmartSegments },
  ];
  const series = data.dailyUsageSeries;
  const totals = series.reduce((t, p) => ({ queries: t.queries + p.chatQueries, unlocks: t.unlocks + p.smartSegmentUnlocks }), { queries: 0, unlocks: 0 });
  const lines = useMemo<LineChartPoints[]>(
    () => [
      { legend: 'Chat queries', color: tokens.colorPaletteBlueForeground2, data: series.map((p) => ({ x: new Date(`${p.date}T12:00:00Z`), y: p.chatQueries })) },
      { legend: 'Segment unlocks', color: tokens.colorPaletteMarigoldForeground2, data: series.map((p) => ({ x: new Date(`${p.date}T12:00:00Z`), y: p.smartSegmentUnlocks })) },
    ],
    [series],
  );

  return (
    <div className={s.root}>
      <div className={s.cards}>
        {cards.map((c) => (
          <Card key={c.label} className={s.card} aria-label={`${c.label}: ${c.value ?? 0}`}>
            <Text className={s.label}>{c.label}</Text>
            <Text size={800} weight="semibold">
              {formatCount(c.value ?? 0)}
            </Text>
          </Card>
        ))}
      </div>
      <Card className={s.chartCard}>
        <Text as="h2" size={500} weight="semibold" id="daily-usage-heading">
          Daily usage, last {DAYS} days
        </Text>
        <Text className={s.label}>
          {formatCount(totals.queries)} chat queries and {formatCount(totals.unlocks)} segment unlocks in {DAYS} days
        </Text>
        <div className={s.chart}>
          <LineChart data={{ chartTitle: `Daily usage, last ${DAYS} days`, lineChartData: lines }} height={300} yAxisTickCount={5} />
        </div>
        <table className={s.srOnly} aria-labelledby="daily-usage-heading">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Chat queries</th>
              <th scope="col">Segment unlocks</th>
            </tr>
          </thead>
          <tbody>
            {series.map((p) => (
              <tr key={p.date}>
                <th scope="row">{formatDate(p.date)}</th>
                <td>{p.chatQueries}</td>
                <td>{p.smartSegmentUnlocks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
