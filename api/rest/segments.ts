// REST: saved segments (spec section 7) plus run-as-query and on-demand processing.
import { Hono } from 'hono';
import { requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { createSegment, deleteSegment, listSegments, processOwnSegment, runSegmentAsQuery, type SavedSegmentWithLatest } from '../services/segments.js';
import { queryJson } from './queries.js';

export const segmentRoutes = new Hono<AppEnv>();

const segmentJson = (s: SavedSegmentWithLatest) => ({
  id: s.id,
  description: s.description,
  createdAt: s.createdAt,
  customerCount: s.latest && !s.latest.hasError ? s.latest.customerCount : null,
  processedAt: s.latest?.processedAt ?? null,
  hasError: Boolean(s.latest?.hasError),
  errorMessage: s.latest?.errorMessage ?? null,
});

segmentRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  return c.json((await listSegments(ctx.deps, requireUser(ctx))).map(segmentJson));
});

segmentRoutes.post('/', async (c) => {
  const ctx = c.var.ctx;
  const s = await createSegment(ctx.deps, requireUser(ctx), (await readJson(c)).description);
  return c.json({ ...segmentJson({ ...s, latest: null }), message: 'Segment created' }, 201);
});

segmentRoutes.delete('/:id', async (c) => {
  const ctx = c.var.ctx;
  await deleteSegment(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json({ success: true, message: 'Segment deleted' });
});

segmentRoutes.post('/:id/run', async (c) => {
  const ctx = c.var.ctx;
  const o = await runSegmentAsQuery(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json({ query: queryJson(o.query), resultCount: o.resultCount, hasError: o.hasError, message: o.message });
});

segmentRoutes.post('/:id/process', async (c) => {
  const ctx = c.var.ctx;
  const p = await processOwnSegment(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json({ segmentId: p.segmentId, customerCount: p.customerCount, hasError: Boolean(p.hasError), errorMessage: p.errorMessage, processedAt: p.processedAt });
});
