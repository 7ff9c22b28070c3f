/**
 * streamSegment: a question's first rows after the CRM's first answer, the rest in chunks, through the
 * connector's `read` (any CRM). The fake connector answers in pages, each after a delay, as a CRM does.
 */
import { describe, expect, it } from 'vitest';
import type { CrmConnector, ReadOptions, SegmentPlan } from '../crm/connector.js';
import type { CrmRecord } from '../crm/record.js';
import { streamSegment } from './segment-runner.js';

const CTX = { now: new Date('2026-06-15T00:00:00Z'), timeZone: 'UTC' };

const record = (i: number): CrmRecord => ({
  id: String(i),
  firstName: `F${i}`,
  lastName: `L${i}`,
  email: null,
  company: null,
  stage: 'lead',
  lifecycleStage: 'lead',
  lastPurchaseAt: null,
  lastPurchaseAmount: null,
  lifetimeValue: i,
  city: null,
  state: null,
  country: null,
  createdAt: null,
});

/** A CRM of `total` records answering `pageSize` per request, each request taking `delayMs`. */
function pagedConnector(total: number, pageSize: number, delayMs: number) {
  const requests: number[] = [];
  const started = Date.now();
  const connector = {
    crmType: 'hubspot',
    async *read(_plan: SegmentPlan, options: ReadOptions = {}) {
      const cap = Math.min(total, options.limit ?? Infinity);
      for (let start = 0; start < cap; start += pageSize) {
        options.signal?.throwIfAborted();
        await new Promise((r) => setTimeout(r, delayMs));
        requests.push(Date.now() - started);
        if (start === 0) options.onTotal?.(total);
        for (let i = start; i < Math.min(cap, start + pageSize); i++) yield record(i);
      }
    },
  } as unknown as CrmConnector;
  return { connector, requests };
}

const plan: SegmentPlan = { crmType: 'hubspot', native: {} };

describe('streamSegment', () => {
  it('answers with the whole first CRM page and the exact total after one request, and streams the rest a page at a time', async () => {
    const { connector, requests } = pagedConnector(2000, 200, 30);
    const s = await streamSegment(connector, plan, CTX, { limit: 1000, firstRows: 11 });
    expect(requests).toHaveLength(1);
    expect(s.total).toBe(2000);
    expect(s.first.map((c) => c.id)).toEqual(Array.from({ length: 200 }, (_x, i) => String(i)));
    const chunks: string[][] = [];
    for await (const chunk of s.rest!) chunks.push(chunk.map((c) => c.id));
    expect(chunks.map((c) => c.length)).toEqual([200, 200, 200, 200]);
    expect(chunks.flat()).toEqual(Array.from({ length: 800 }, (_x, i) => String(200 + i)));
    expect(requests).toHaveLength(5);
  });

  it('has no rest when the first answer holds every record', async () => {
    const { connector } = pagedConnector(150, 200, 5);
    const s = await streamSegment(connector, plan, CTX, { limit: 1000, firstRows: 11 });
    expect(s).toMatchObject({ total: 150, rest: null });
    expect(s.first).toHaveLength(150);
  });

  it('waits for more pages when the first is smaller than the rows wanted', async () => {
    const { connector, requests } = pagedConnector(100, 4, 5);
    const s = await streamSegment(connector, plan, CTX, { limit: 1000, firstRows: 11 });
    expect(requests).toHaveLength(3);
    expect(s.first.map((c) => c.id)).toEqual(Array.from({ length: 12 }, (_x, i) => String(i)));
    let n = 0;
    for await (const chunk of s.rest!) n += chunk.length;
    expect(n).toBe(88);
  });

  it('stops reading the CRM when aborted', async () => {
    const { connector, requests } = pagedConnector(2000, 200, 20);
    const controller = new AbortController();
    const s = await streamSegment(connector, plan, CTX, { limit: 1000, firstRows: 11, signal: controller.signal });
    controller.abort();
    await expect(async () => {
      for await (const _chunk of s.rest!) void _chunk;
    }).rejects.toThrow();
    expect(requests.length).toBeLessThanOrEqual(2);
  });

  it('reads a plan with a residual whole (the product orders and counts it)', async () => {
    const { connector, requests } = pagedConnector(500, 200, 5);
    const residual: SegmentPlan = { crmType: 'hubspot', native: {}, residual: { and: [] } as never };
    const s = await streamSegment(connector, residual, CTX, { limit: 1000, firstRows: 11 });
    expect(requests).toHaveLength(3);
    expect(s.rest).toBeNull();
    expect(s.first).toHaveLength(s.total);
  });
});
