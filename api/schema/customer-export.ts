// Exports over GraphQL: `customerExport(source, first, after)` pages through every customer of a
// stored query or of an unlocked Smart Segment, each page read from the CRM when it is asked for (the
// CLI's `crm export` streams it into a CSV file). Domain logic: services/customer-export.ts.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { requireUser } from '../http/guards.js';
import { encodeExportCursor, EXPORT_PAGE_DEFAULT, EXPORT_PAGE_MAX, exportPage, exportSource, exportTotal, type ExportSource } from '../services/customer-export.js';
import { CustomerType } from './queries.js';

type ExportConnection = {
  source: ExportSource;
  edges: { cursor: string; node: (typeof CustomerType)['$inferType'] }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};

const CustomerExportConnection = builder.connectionObject(
  {
    type: CustomerType,
    name: 'CustomerExportConnection',
    description: 'A page of an export; pageInfo.endCursor is where the next page starts',
    fields: (t) => ({
      totalCount: t.int({
        description:
          'Customers in the whole export: counted by the CRM now when the segment is one search, else the count of its last run (ask for it on the first page only: it costs a CRM request)',
        resolve: (c, _a, ctx) => exportTotal(ctx.deps, requireUser(ctx), (c as unknown as ExportConnection).source),
      }),
    }),
  },
  { name: 'CustomerExportEdge' },
);

const sourceOf = (globalId: string): ExportSource => {
  try {
    const { typename, id } = decodeGlobalID(globalId);
    return exportSource(typename, id);
  } catch {
    return exportSource('', '');
  }
};

builder.queryField('customerExport', (t) =>
  t.field({
    type: CustomerExportConnection,
    authScopes: { authenticated: true },
    description: [
      'Every customer of one of your stored queries (its segment run again now against the CRM) or of an unlocked Smart Segment,',
      'page by page, for a CSV export of any size. Stateless: each page is read from the CRM when asked (pass the previous',
      'endCursor as `after`). A segment without a limit comes in CRM id order, a "top N" segment in its own order. Uses no quota.',
    ].join(' '),
    args: {
      source: t.arg.id({ required: true, description: 'The Relay id of a CustomerQuery or a DailySegment' }),
      first: t.arg.int({ description: `Customers per page, 1 to ${EXPORT_PAGE_MAX} (default ${EXPORT_PAGE_DEFAULT}); each page costs one CRM request per search of the segment` }),
      after: t.arg.string({ description: 'endCursor of the previous page' }),
    },
    resolve: async (_r, args, ctx) => {
      const source = sourceOf(String(args.source));
      const page = await exportPage(ctx.deps, requireUser(ctx), source, { first: args.first, after: args.after });
      const edges = page.customers.map((c) => ({ cursor: encodeExportCursor(c.cursor), node: c.customer }));
      const connection: ExportConnection = {
        source,
        edges,
        pageInfo: {
          hasNextPage: page.next !== null,
          hasPreviousPage: false,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: page.next ? encodeExportCursor(page.next) : (edges[edges.length - 1]?.cursor ?? null),
        },
      };
      return connection;
    },
  }),
);
