// REST: query history, new queries, re-runs, messages, and the customers of the latest query.
import { Hono } from 'hono';
import { requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { listMessages, listQueries, queryCustomers, rerunQuery, runQuestion } from '../services/queries.js';
import { clarificationJson, customerJson, messageJson, queryJson, queryOutcomeJson } from './presenters.js';

export const queryRoutes = new Hono<AppEnv>();

queryRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  return c.json((await listQueries(ctx.deps, requireUser(ctx))).map(queryJson));
});

queryRoutes.post('/', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const body = await readJson(c);
  const outcome = await runQuestion(ctx.deps, user, {
    naturalLanguage: body.naturalLanguage,
    segment: body.segment,
    choice: typeof body.choice === 'number' ? body.choice : body.choice === undefined || body.choice === null ? undefined : Number.NaN,
    choiceId: typeof body.choiceId === 'string' ? body.choiceId : undefined,
    asUnderstood: body.asUnderstood === true,
  });
  if (outcome.outcome === 'CLARIFICATION') {
    // 422: understood only in part, contradicting itself or read one of several ways; nothing was run, stored
    // or charged. POST again with { naturalLanguage, choice, choiceId } or { naturalLanguage, asUnderstood: true }
    return c.json(clarificationJson(outcome), 422);
  }
  if (outcome.outcome === 'NOT_UNDERSTOOD') {
    // 422: the request was fine but nothing in it could be understood; nothing was run, stored or charged
    return c.json(
      {
        error: 'Question not understood',
        code: 'NOT_UNDERSTOOD',
        message: outcome.message,
        ignoredPhrases: outcome.ignoredPhrases,
        suggestions: outcome.suggestions.map((f) => ({ field: f.field, label: f.label, example: f.example })),
        query: null,
        resultCount: 0,
        hasError: false,
      },
      422,
    );
  }
  return c.json(queryOutcomeJson(outcome));
});

queryRoutes.post('/:id/rerun', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const body = await readJson(c);
  return c.json(queryOutcomeJson(await rerunQuery(ctx.deps, user, c.req.param('id'), { segment: body.segment })));
});

queryRoutes.get('/:id/messages', async (c) => {
  const ctx = c.var.ctx;
  const messages = await listMessages(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json(messages.map(messageJson));
});

/** Mounted at /api/customers: customers of the latest query (or ?queryId=). */
export const customerRoutes = new Hono<AppEnv>();

customerRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  const customers = await queryCustomers(ctx.deps, requireUser(ctx), c.req.query('queryId') || undefined);
  return c.json(customers.map(customerJson));
});
