// What `crm query` and `crm rerun` share: the payload they read, more of the stored customers when
// --limit asks for more than one page, and the output (view, --json, --csv).
import { formatCount } from '../client/format.js';
import { queryLimitReached, queryOutcome } from '../client/messages.js';
import { isClientError } from '../client/index.js';
import { z } from 'zod';
import { FORCE_OPTION, intOption, type OptionSpec } from './command.js';
import type { Context } from './context.js';
import { CliError, failingAs } from './errors.js';
import { exportCsv } from './export-stream.js';
import { graphql, operation } from './graphql.js';
import { planOutput, type OutputPlan } from './output-file.js';
import { QueryResult } from './views/QueryResult.js';
import { CUSTOMER_COLUMNS, type CustomerRow } from './views/CustomerTable.js';
import type { UnderstoodData } from './views/Understood.js';
import resultsCustomersNode, { type resultsCustomersQuery } from './__generated__/resultsCustomersQuery.graphql.js';

export const ResultsPayloadFragment = graphql`
  fragment results_payload on RunQueryPayload {
    outcome
    resultCount
    hasError
    message
    clarification {
      message
      notUnderstood
      issues {
        kind
        phrase
        message
      }
      understood {
        explanation
      }
      choices {
        index
        id
        label
        explanation
        asUnderstood
      }
    }
    suggestions {
      label
      example
    }
    query {
      id
      queryId
      naturalLanguage
      understood {
        ...Understood_definition @relay(mask: false)
      }
      customers(first: $first) {
        edges {
          node {
            ...CustomerTable_customer @relay(mask: false)
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
    usage {
      chatQueriesUsed
      chatQueryLimit
    }
  }
`;

const MoreCustomers = operation<resultsCustomersQuery>(
  resultsCustomersNode,
  graphql`
    query resultsCustomersQuery($id: ID!, $first: Int!, $after: String) {
      customerQuery(id: $id) {
        customers(first: $first, after: $after) {
          edges {
            node {
              ...CustomerTable_customer @relay(mask: false)
            }
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }
  `,
);

/** The server's page of stored customers. */
export const PAGE = 100;
/** A query keeps its first 1,000 customers; --csv reads all of them from the CRM. */
export const MAX_LIMIT = 1000;

export const RESULT_OPTIONS: OptionSpec[] = [
  { flags: '--json', description: 'print the result as JSON (the question, how it was understood, the counts and the first --limit customers)' },
  { flags: '--csv [file]', description: 'write ALL matching customers as CSV to the file, or to standard output without one or with - (read from the CRM page by page)' },
  FORCE_OPTION,
  { flags: '--limit <n>', description: `customers to show, 1 to ${formatCount(MAX_LIMIT)} (default 10)` },
];

export const resultInput = {
  json: z.boolean().optional(),
  csv: z.union([z.string().min(1), z.literal(true)]).optional(),
  force: z.boolean().default(false),
  limit: intOption(1, MAX_LIMIT).default(10),
};

export interface ResultInput {
  json?: boolean;
  csv?: string | true;
  force: boolean;
  limit: number;
}

/**
 * Checks the options before anything is run (a --csv file that cannot be written costs no query);
 * returns where --csv writes.
 */
export function planResultOutput(input: ResultInput): OutputPlan | undefined {
  if (input.csv === undefined) return undefined;
  const plan = planOutput(input.csv === true ? undefined : input.csv, { force: input.force });
  if (input.json && plan.kind === 'stdout') throw new CliError('--json and --csv without a file both write to standard output', 'Give --csv a file name');
  return plan;
}

export interface Payload {
  /** COMPLETED, CLARIFICATION (nothing run: pick a choice) or NOT_UNDERSTOOD (nothing run) */
  outcome?: string;
  clarification?: {
    message: string;
    notUnderstood: readonly string[];
    issues: readonly { kind: string; phrase?: string | null; message: string }[];
    understood: { explanation: string };
    choices: readonly { index: number; id: string; label: string; explanation: string; asUnderstood: boolean }[];
  } | null;
  resultCount: number;
  hasError: boolean;
  message: string;
  /** When nothing was understood: what a question can filter on */
  suggestions?: readonly { label: string; example: string }[] | null;
  /** null when nothing was understood (no query kept, no quota used) */
  query: {
    id: string;
    queryId: string;
    naturalLanguage: string;
    understood: UnderstoodData | null | undefined;
    customers: { edges: readonly { node: CustomerRow }[]; pageInfo: { hasNextPage: boolean; endCursor?: string | null } };
  } | null | undefined;
}

/** The mutation, with the spec's wording when the daily limit is reached or the query fails. */
export function runWithLimitMessage<T>(kind: 'run' | 'rerun', work: () => Promise<T>): Promise<T> {
  return failingAs(kind === 'run' ? 'Query failed' : 'Failed to rerun query', async () => {
    try {
      return await work();
    } catch (err) {
      if (isClientError(err) && err.code === 'QUOTA_EXCEEDED') throw CliError.fromNotice(queryLimitReached(err.details), 'See crm usage', err.code);
      throw err;
    }
  });
}

async function firstCustomers(ctx: Context, payload: Payload & { query: NonNullable<Payload['query']> }, limit: number): Promise<CustomerRow[]> {
  const rows = payload.query.customers.edges.map((e) => e.node);
  let { hasNextPage, endCursor } = payload.query.customers.pageInfo;
  while (rows.length < limit && hasNextPage) {
    const page: resultsCustomersQuery['response'] = await ctx.api().request(MoreCustomers, { id: payload.query.id, first: Math.min(PAGE, limit - rows.length), after: endCursor ?? null });
    const customers = page.customerQuery?.customers;
    if (!customers) break;
    rows.push(...customers.edges.map((e) => e.node));
    ({ hasNextPage, endCursor } = customers.pageInfo);
  }
  return rows.slice(0, limit);
}

export async function showResult(ctx: Context, kind: 'run' | 'rerun', payload: Payload, input: ResultInput, csv: OutputPlan | undefined) {
  const { query } = payload;
  if (!query) {
    // Nothing was understood: no query was kept and no quota used; the server says what it can filter on.
    const examples = (payload.suggestions ?? []).slice(0, 3).map((s) => `"${s.example}"`);
    throw new CliError(payload.message, examples.length ? `Try for example ${examples.join(', ')}` : undefined);
  }
  const customers = payload.hasError ? [] : await firstCustomers(ctx, { ...payload, query }, input.limit);
  if (input.json) {
    ctx.ui.json({
      query: { id: query.id, queryId: query.queryId, naturalLanguage: query.naturalLanguage },
      resultCount: payload.resultCount,
      hasError: payload.hasError,
      message: payload.message,
      understood: query.understood ?? null,
      customers,
    });
  } else {
    const props = {
      kind,
      queryId: query.queryId,
      question: query.naturalLanguage,
      resultCount: payload.resultCount,
      hasError: payload.hasError,
      message: payload.message,
      understood: query.understood ?? null,
      customers,
      width: ctx.ui.width(),
    };
    if (csv?.kind === 'stdout') ctx.ui.printNote(<QueryResult {...props} table={false} />);
    else if (ctx.ui.piped) {
      // Piped: the customers as TSV are the output; how the question was understood goes to stderr.
      ctx.ui.printNote(<QueryResult {...props} table={false} />);
      ctx.ui.tsv(CUSTOMER_COLUMNS, customers);
    } else ctx.ui.print(<QueryResult {...props} />);
  }
  if (payload.hasError) {
    const outcome = queryOutcome(kind, payload);
    throw new CliError(`${outcome.title}: ${payload.message}`);
  }
  if (csv) {
    const n = await exportCsv(ctx, query.id, csv);
    ctx.ui.note(`Wrote ${formatCount(n)} customers to ${csv.label}`);
  }
}
