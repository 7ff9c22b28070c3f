// Your personal access tokens (crm auth tokens): which one this is, when each was last used.
import { Box, Text } from 'ink';
import { relativeTime } from '../../client/format.js';
import { fromGlobalId } from '../../client/index.js';
import { shortId } from '../format.js';
import { Table, type Column } from './Table.js';

export interface TokenRow {
  /** Relay id */
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null | undefined;
  expiresAt: string | null | undefined;
  isCurrent: boolean;
}

/** The token's own id (a uuid), as commands accept it. */
export const tokenRawId = (t: Pick<TokenRow, 'id'>) => fromGlobalId(t.id)?.id ?? t.id;

export const tokenColumns = (now?: number): Column<TokenRow>[] => [
  { header: 'ID', cell: (t) => shortId(tokenRawId(t)), value: tokenRawId },
  { header: 'Name', cell: (t) => t.name, min: 12 },
  { header: 'Token', cell: (t) => `${t.prefix}…`, value: (t) => t.prefix },
  { header: 'Last used', cell: (t) => (t.lastUsedAt ? relativeTime(t.lastUsedAt, now) : 'never'), value: (t) => t.lastUsedAt, optional: 1 },
  { header: 'Created', cell: (t) => relativeTime(t.createdAt, now), value: (t) => t.createdAt, optional: 2 },
  { header: 'Used here', cell: (t) => (t.isCurrent ? 'this one' : ''), value: (t) => String(t.isCurrent), color: () => 'green', optional: 3 },
];

export function TokensView({ tokens, total, width, now }: { tokens: readonly TokenRow[]; total: number; width: number; now?: number }) {
  return (
    <Box flexDirection="column">
      <Text bold>Personal access tokens ({total})</Text>
      {tokens.length === 0 ? <Text dimColor>No tokens: crm login or crm auth tokens create makes one</Text> : <Table columns={tokenColumns(now)} rows={tokens} width={width} />}
    </Box>
  );
}
