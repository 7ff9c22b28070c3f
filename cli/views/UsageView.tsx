// Today's usage with a meter per daily limit (spec §4 levels, client/usage.ts).
import { Box, Text } from 'ink';
import { meterLevel, upgradeLabel, worstLevel, type MeterLevel } from '../../client/usage.js';

export interface UsageData {
  chatQueriesUsed: number;
  chatQueryLimit: number;
  smartSegmentsUsed: number;
  smartSegmentLimit: number;
  tierName: string;
}

const COLORS: Record<MeterLevel, string> = { normal: 'green', warning: 'yellow', limit: 'red' };
const WORDS: Record<MeterLevel, string> = { normal: '', warning: 'close to the limit', limit: 'limit reached' };
const BAR = 24;

function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const level = meterLevel(used, limit);
  const filled = limit > 0 ? Math.min(BAR, Math.round((BAR * used) / limit)) : BAR;
  return (
    <Text>
      {label.padEnd(16)}
      <Text color={COLORS[level]}>{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(BAR - filled)}</Text> {`${used}/${limit}`.padStart(7)}
      {WORDS[level] ? <Text color={COLORS[level]}> {WORDS[level]}</Text> : null}
    </Text>
  );
}

export function UsageView({ usage }: { usage: UsageData }) {
  const level = worstLevel(meterLevel(usage.chatQueriesUsed, usage.chatQueryLimit), meterLevel(usage.smartSegmentsUsed, usage.smartSegmentLimit));
  const upgrade = upgradeLabel(usage.tierName, level);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Today&apos;s usage</Text> · {usage.tierName}
      </Text>
      <Meter label="Queries" used={usage.chatQueriesUsed} limit={usage.chatQueryLimit} />
      <Meter label="Smart segments" used={usage.smartSegmentsUsed} limit={usage.smartSegmentLimit} />
      {upgrade && <Text color={level === 'limit' ? 'red' : undefined} dimColor={level !== 'limit'}>{upgrade}: Billing in the web app's user menu</Text>}
      <Text dimColor>Limits reset at midnight.</Text>
    </Box>
  );
}
