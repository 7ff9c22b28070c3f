// Test helpers around the embedded Pipedrive sandbox: Pipedrive users and the reference answer (the
// synthetic people evaluated in memory, in the segment's order).
import { expect } from 'vitest';
import type { App } from '../../api/app.js';
import { productStage } from '../../api/crm/field-map.js';
import { DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS, type PipedriveSandbox } from '../../api/crm/pipedrive-sandbox/index.js';
import { sortRecords, type CrmRecord } from '../../api/crm/record.js';
import { compileRecordEvaluator } from '../../api/segmentation/evaluate.js';
import { parseSegment } from '../../api/segmentation/index.js';
import { registerUser } from './crm.js';

export const PIPEDRIVE_TOKEN = DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.apiTokens[0];

export function pipedriveSandbox(app: App): PipedriveSandbox {
  return app.sandboxes.get('pipedrive') as PipedriveSandbox;
}

/** A user who registered with Pipedrive (on `tier`), connected by personal API token unless `connect` is false. */
export async function pipedriveUser(app: App, url: string, opts: { tier?: string; connect?: boolean } = {}) {
  const u = await registerUser(url, { crmType: 'pipedrive' });
  if (opts.tier && opts.tier !== 'free') {
    const row = await app.deps.prisma.pricingTier.findUniqueOrThrow({ where: { name: opts.tier } });
    await app.deps.prisma.user.update({ where: { id: u.userId }, data: { currentTierId: row.id } });
  }
  if (opts.connect !== false) expect((await u.c.post('/api/crm/token', { token: PIPEDRIVE_TOKEN })).status).toBe(200);
  return u;
}

/** The customers a question selects among the sandbox's people, in its order (the reference answer). */
export async function expectedPipedrive(app: App, question: string): Promise<CrmRecord[]> {
  const opts = { now: app.deps.now(), timeZone: app.deps.config.usageTimeZone };
  const { segment } = await parseSegment(question, opts);
  const records: CrmRecord[] = pipedriveSandbox(app).data.people.map((p) => ({
    id: String(p.id), firstName: p.firstName, lastName: p.lastName, email: p.email, company: p.company, stage: p.stage, lifecycleStage: productStage(p.stage),
    lastPurchaseAt: p.lastPurchaseAt, lastPurchaseAmount: p.lastPurchaseAmount, lifetimeValue: p.lifetimeValue, city: p.city, state: p.state, country: p.country,
    createdAt: Math.floor(p.createdAt / 1000) * 1000,
  }));
  const out = sortRecords(records.filter(compileRecordEvaluator(segment.where, opts)), segment.sort);
  return segment.limit !== undefined ? out.slice(0, segment.limit) : out;
}
