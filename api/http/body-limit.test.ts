// The streamed per-route body limit (a file upload): the handler reads the body as it arrives — never
// buffered whole by the middleware — and the read fails past the limit with 413 and Connection: close.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { asAppError, restBody } from '../errors.js';
import { BODY_LIMIT_OVERRIDES, restBodyLimit } from './body-limit.js';

const LIMIT = 256 * 1024;

function app() {
  const seen: number[] = [];
  const a = new Hono();
  a.use('*', restBodyLimit(1024, [{ method: 'POST', path: '/upload', maxBytes: LIMIT, label: 'The file', streamed: true }]));
  a.post('/upload', async (c) => {
    let total = 0;
    const reader = c.req.raw.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      seen.push(total);
    }
    return c.json({ total });
  });
  a.onError((err, c) => c.json(restBody(asAppError(err)!), asAppError(err)!.status as 413));
  return { a, seen };
}

/** A body of `chunks` pieces of 16 kB; `produced` counts what the consumer pulled. */
function body(chunks: number) {
  const state = { produced: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.produced >= chunks) return controller.close();
      state.produced++;
      controller.enqueue(new Uint8Array(16 * 1024));
    },
  });
  return { stream, state };
}

describe('a streamed route limit', () => {
  it('hands the body to the handler as it arrives, within the limit', async () => {
    const { a, seen } = app();
    const { stream } = body(10);
    const r = await a.request('/upload', { method: 'POST', body: stream, headers: { 'transfer-encoding': 'chunked' }, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ total: 160 * 1024 });
    expect(seen.length).toBeGreaterThan(1); // pieces, not one buffered body
  });

  it('cuts a streamed body as soon as it passes the limit: 413, Connection: close, the rest never pulled', async () => {
    const { a } = app();
    const { stream, state } = body(1000);
    const r = await a.request('/upload', { method: 'POST', body: stream, headers: { 'transfer-encoding': 'chunked' }, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(413);
    expect(r.headers.get('connection')).toBe('close');
    expect(await r.json()).toEqual({ error: 'Payload too large', message: 'The file is larger than 256 kB' });
    expect(state.produced).toBeLessThan(20);
  });

  it('refuses a declared length over the limit before reading', async () => {
    const { a, seen } = app();
    const { stream, state } = body(1);
    const r = await a.request('/upload', { method: 'POST', body: stream, headers: { 'content-length': String(LIMIT + 1) }, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(413);
    expect(seen).toEqual([]);
    expect(state.produced).toBeLessThanOrEqual(1);
  });

  it('the contacts upload is declared streamed at 200 MB', () => {
    expect(BODY_LIMIT_OVERRIDES.find((o) => o.path === '/api/crm/imports')).toMatchObject({ method: 'POST', maxBytes: 200 * 1024 * 1024, streamed: true });
  });
});
