// REST: saved segments (spec section 7) plus run-as-query and on-demand processing.
import { Hono } from 'hono';
import { requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { createSegment, deleteSegment, listSegments, processOwnSegment, runSegmentAsQuery } from '../services/segments.js';
import { processedSegmentJson, queryOutcomeJson, savedSegmentJson } from './presenters.js';

export const segmentRoutes = new Hono<AppEnv>();

segmentRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  return c.json((await listSegments(ctx.deps, requireUser(ctx))).map(savedSegmentJson));
});

segmentRoutes.post('/', async (c) => {
  const ctx = c.var.ctx;
  const s = await createSegment(ctx.deps, requireUser(ctx), (await readJson(c)).description);
  return c.json({ ...savedSegmentJson({ ...s, latest: null }), message: 'Segment created' }, 201);
});

segmentRoutes.delete('/:id', async (c) => {
  const ctx = c.var.ctx;
  await deleteSegment(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json({ success: true, message: 'Segment deleted' });
});

segmentRoutes.post('/:id/run', async (c) => {
  const ctx = c.var.ctx;
  const o = await runSegmentAsQuery(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json(queryOutcomeJson(o));
});

segmentRoutes.post('/:id/process', async (c) => {
  const ctx = c.var.ctx;
  const p = await processOwnSegment(ctx.deps, requireUser(ctx), c.req.param('id'));
  return c.json(processedSegmentJson(p));
});
