// REST: query history, new queries, re-runs, messages, and the customers of the latest query.
import { Hono } from 'hono';
import type { Customer as CustomerRow, Query } from '@prisma/client';
import { requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import {
  createQuery,
  listMessages,
  listQueries,
  queryCustomers,
  rerunQuery,
  type QueryOutcome,
} from '../services/queries.js';

export const queryRoutes = new Hono<AppEnv>();

export const queryJson = (q: Query) => ({
  id: q.id,
  naturalLanguage: q.naturalLanguage,
  createdAt: q.createdAt,
  resultCount: q.resultCount,
  hasError: q.hasError,
  segment: q.segment,
});

const outcomeJson = (o: QueryOutcome) => ({
  query: queryJson(o.query),
  resultCount: o.resultCount,
  hasError: o.hasError,
  message: o.message,
});

export const customerJson = (c: CustomerRow) => ({
  id: c.id,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  company: c.company,
  lifecycleStage: c.lifecycleStage,
  lastPurchaseDate: c.lastPurchaseDate,
  lastPurchaseAmount: c.lastPurchaseAmount,
  lifetimeValue: c.lifetimeValue,
  city: c.city,
  state: c.state,
  country: c.country,
});

queryRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  return c.json((await listQueries(ctx.deps, requireUser(ctx))).map(queryJson));
});

queryRoutes.post('/', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const body = await readJson(c);
  return c.json(outcomeJson(await createQuery(ctx.deps, user, { naturalLanguage: body.naturalLanguage, segment: body.segment })));
});

queryRoutes.post('/:id/rerun', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const body = await readJson(c);
  return c.json(outcomeJson(await rerunQuery(ctx.deps, user, c.req.param('id'), { segment: body.segment })));
});

queryRoutes.get('/:id/messages', async (c) => {
  const ctx = c.var.ctx;
  const messages = await listMessages(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json(messages.map((m) => ({ id: m.id, queryId: m.queryId, role: m.role, content: m.content, createdAt: m.createdAt })));
});

/** Mounted at /api/customers: customers of the latest query (or ?queryId=). */
export const customerRoutes = new Hono<AppEnv>();

customerRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  const customers = await queryCustomers(ctx.deps, requireUser(ctx), c.req.query('queryId') || undefined);
  return c.json(customers.map(customerJson));
});
