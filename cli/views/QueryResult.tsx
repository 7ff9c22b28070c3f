// The answer to `crm query` / `crm rerun`: the outcome (spec §8), how the question was understood,
// and the first customers, with where to get all of them.
import { Box, Text } from 'ink';
import { formatCount } from '../../client/format.js';
import { queryOutcome } from '../../client/messages.js';
import { shortId } from '../format.js';
import { CustomerTable, type CustomerRow } from './CustomerTable.js';
import { NoticeLine } from './Notice.js';
import { Understood, type UnderstoodData } from './Understood.js';

export interface QueryResultProps {
  kind: 'run' | 'rerun';
  queryId: string;
  question: string;
  resultCount: number;
  hasError: boolean;
  /** The assistant's answer (shown when the CRM could not be searched). */
  message: string;
  understood: UnderstoodData | null;
  customers: readonly CustomerRow[];
  width: number;
  /** false: without the customers' table (piped, the customers go to stdout as TSV). */
  table?: boolean;
}

export function QueryResult(p: QueryResultProps) {
  const outcome = queryOutcome(p.kind, p);
  return (
    <Box flexDirection="column" gap={1}>
      <Box flexDirection="column">
        <Text>
          <Text dimColor>Question</Text> {p.question}
        </Text>
        {/* A failed search is reported by the error line (and the exit code) instead. */}
        {!p.hasError && <NoticeLine notice={outcome} level={outcome.level} />}
      </Box>
      {p.understood && <Understood understood={p.understood} />}
      {p.table !== false && p.customers.length > 0 && <CustomerTable customers={p.customers} width={p.width} />}
      {!p.hasError && (
        <Text dimColor>
          {p.resultCount > 0 ? `Showing ${formatCount(p.customers.length)} of ${formatCount(p.resultCount)} · ` : ''}query {shortId(p.queryId)}
          {p.resultCount > p.customers.length ? ` · all of them: crm export ${shortId(p.queryId)}` : ''}
        </Text>
      )}
    </Box>
  );
}
