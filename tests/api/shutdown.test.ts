// A graceful stop (what SIGTERM does): requests in flight finish with their real answer, new
// connections are refused, websocket clients are told to reconnect (1001), and stop() returns.
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectedUser } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

let t: TestApp | undefined;
afterAll(async () => {
  await t?.db.drop();
});

describe('graceful stop', () => {
  it('finishes in-flight requests, refuses new connections and closes websockets with 1001', async () => {
    const app = (t = await startTestApp({ SANDBOX_CONTACTS: '2000', SHUTDOWN_TIMEOUT_MS: '50000' }));
    const u = await connectedUser(t.app, t.url, 'pro');
    const cookie = [...u.c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie } });
    await new Promise((r) => socket.once('open', r));
    const socketClosed = new Promise<number>((r) => socket.once('close', (code) => r(code)));

    const inFlight = Array.from({ length: 6 }, (_x, i) => u.c.post('/api/queries', { naturalLanguage: `customers with lifetime value over $${i}00` }));
    // Wait until the server is handling all of them (a request still on the wire when the server
    // stops accepting is refused, which is the point of stopping).
    await until(() => app.app.inflightCount >= 6, { timeoutMs: 5000, intervalMs: 5, what: 'six requests in flight' }).catch(() => {});
    expect(t.app.inflightCount).toBe(6);
    const stopping = t.app.stop();
    const settled = await Promise.allSettled(inFlight);
    await stopping;

    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason?.cause?.code ?? r.reason)))).toEqual(Array(6).fill(200));
    expect(await socketClosed).toBe(1001);
    await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
  });
});

describe('an oversized webhook body', () => {
  it('answers 413 and the client can send its next request', async () => {
    const app = await startTestApp({ SANDBOX_CONTACTS: '50' });
    try {
      const big = await fetch(`${app.url}/api/paddle/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'paddle-signature': 'ts=1;h1=00' },
        body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ error: 'Payload too large', message: 'Webhook body is larger than 1 MB' });
      // The next requests (the same client, keep-alive) succeed.
      for (let i = 0; i < 3; i++) expect((await fetch(`${app.url}/api/auth/status`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
