// The sidebar's usage panel (spec §2, §4): one meter per daily limit — normal below 80 %, warning
// above 80 %, at limit at 100 % or more; collapsed it shows a green dot, a yellow or a red alert. The
// upgrade button reads "Upgrade Plan", or "Upgrade Required" at the limit; free and trial tiers
// always see it. The tier badge is styled by the tier's name.
import { Badge, Button, ProgressBar, Text, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ErrorCircle16Filled, Warning16Filled } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { UsagePanel_usage$key } from '../__generated__/UsagePanel_usage.graphql';
import { meterLevel, upgradeLabel, worstLevel, type MeterLevel } from '../../../client/usage.js';
import { useCheckout } from '../hooks/useCheckout';


export function tierBadgeAppearance(tierName: string): { color: 'brand' | 'informative' | 'subtle'; appearance: 'filled' | 'tint' | 'outline' } {
  const n = tierName.toLowerCase();
  if (n.includes('premium') || n.includes('pro') || n.includes('enterprise')) return { color: 'brand', appearance: 'filled' };
  if (n.includes('free') || n.includes('trial')) return { color: 'informative', appearance: 'outline' };
  return { color: 'subtle', appearance: 'tint' };
}


const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: tokens.spacingHorizontalS },
  meter: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  meterLabel: { display: 'flex', justifyContent: 'space-between', color: tokens.colorNeutralForeground2 },
  collapsed: { display: 'flex', justifyContent: 'center', padding: `${tokens.spacingVerticalM} 0` },
  dot: { width: '10px', height: '10px', borderRadius: tokens.borderRadiusCircular, backgroundColor: tokens.colorPaletteGreenBackground3 },
  warning: { color: tokens.colorPaletteYellowForeground2 },
  limit: { color: tokens.colorPaletteRedForeground1 },
});

const COLOR: Record<MeterLevel, 'brand' | 'warning' | 'error'> = { normal: 'brand', warning: 'warning', limit: 'error' };

export function UsagePanel({ usage: key, collapsed }: { usage: UsagePanel_usage$key; collapsed: boolean }) {
  const s = useStyles();
  const usage = useFragment(
    graphql`
      fragment UsagePanel_usage on Usage {
        chatQueriesUsed
        chatQueryLimit
        smartSegmentsUsed
        smartSegmentLimit
        tierName
      }
    `,
    key,
  );
  const { start, busy } = useCheckout();
  const chat = meterLevel(usage.chatQueriesUsed, usage.chatQueryLimit);
  const segments = meterLevel(usage.smartSegmentsUsed, usage.smartSegmentLimit);
  const level = worstLevel(chat, segments);
  const summary = `${usage.tierName}: ${usage.chatQueriesUsed} of ${usage.chatQueryLimit} queries and ${usage.smartSegmentsUsed} of ${usage.smartSegmentLimit} smart segments used today`;

  if (collapsed) {
    return (
      <div className={s.collapsed}>
        <Tooltip content={summary} relationship="description" showDelay={700} hideDelay={300} positioning="after">
          <span role="img" aria-label={`Usage: ${level === 'normal' ? 'within limits' : level === 'warning' ? 'close to the limit' : 'limit reached'}`} tabIndex={0}>
            {level === 'normal' ? (
              <span className={s.dot} style={{ display: 'inline-block' }} />
            ) : level === 'warning' ? (
              <Warning16Filled className={s.warning} />
            ) : (
              <ErrorCircle16Filled className={s.limit} />
            )}
          </span>
        </Tooltip>
      </div>
    );
  }

  const upgrade = upgradeLabel(usage.tierName, level);
  const badge = tierBadgeAppearance(usage.tierName);
  return (
    <section className={s.panel} aria-label="Today's usage">
      <div className={s.head}>
        <Text weight="semibold" size={200}>
          Today&apos;s usage
        </Text>
        <Badge color={badge.color} appearance={badge.appearance} size="small">
          {usage.tierName}
        </Badge>
      </div>
      <Meter label="Queries" used={usage.chatQueriesUsed} limit={usage.chatQueryLimit} level={chat} />
      <Meter label="Smart segments" used={usage.smartSegmentsUsed} limit={usage.smartSegmentLimit} level={segments} />
      {upgrade && (
        <Button size="small" appearance={level === 'limit' ? 'primary' : 'secondary'} onClick={start} disabled={busy}>
          {upgrade}
        </Button>
      )}
    </section>
  );
}

function Meter({ label, used, limit, level }: { label: string; used: number; limit: number; level: MeterLevel }) {
  const s = useStyles();
  const value = limit > 0 ? Math.min(1, used / limit) : 1;
  return (
    <div className={s.meter}>
      <div className={mergeClasses(s.meterLabel)}>
        <Text size={200}>{label}</Text>
        <Text size={200} className={level === 'limit' ? s.limit : undefined}>
          {used}/{limit}
        </Text>
      </div>
      <ProgressBar value={value} color={COLOR[level]} thickness="large" aria-label={`${label}: ${used} of ${limit} used today`} />
    </div>
  );
}
