// Request-body limits (issue 22, item 3): 413 before the body is buffered, on REST (with per-route
// limits) and on /graphql (a smaller one), whether the size is declared (Content-Length) or streamed
// (chunked). Raw sockets show what the server reads: it answers before the rest is even sent.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';

const REST_LIMIT = 128 * 1024;
const GRAPHQL_LIMIT = 32 * 1024;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '50', REST_BODY_LIMIT_BYTES: String(REST_LIMIT), GRAPHQL_BODY_LIMIT_BYTES: String(GRAPHQL_LIMIT) });
});
afterAll(async () => {
  await t?.close();
});

interface RawAnswer {
  /** The status of the response, or null when none came before the client had sent everything and waited. */
  status: number | null;
  /** Bytes of the body the client had written when the answer came. */
  sent: number;
  head: string;
  body: string;
}

/**
 * Sends a request over a raw socket: the headers, then up to `total` body bytes in 16 kB chunks
 * (chunked unless `contentLength` is declared), stopping as soon as the server answers.
 */
function rawPost(path: string, opts: { total: number; contentLength?: number; prefix?: string; waitMs?: number }): Promise<RawAnswer> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let sent = 0;
    let answered = false;
    const finish = () => {
      const [head, ...rest] = received.split('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      socket.destroy();
      resolve({ status: status ? Number(status) : null, sent, head, body: rest.join('\r\n\r\n') });
    };
    socket.on('data', (d) => {
      received += d.toString('latin1');
      if (!answered && received.includes('\r\n\r\n')) {
        answered = true;
        setTimeout(finish, 100); // the rest of a short body
      }
    });
    socket.on('error', (err) => (answered ? undefined : (err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? finish() : reject(err)));
    socket.on('connect', async () => {
      const chunked = opts.contentLength === undefined;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${opts.contentLength}\r\n`) +
          '\r\n',
      );
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const prefix = Buffer.from(opts.prefix ?? '{"pad":"');
      let first = true;
      while (!answered && sent < opts.total) {
        const body = first ? Buffer.concat([prefix, chunk.subarray(prefix.length)]) : chunk;
        first = false;
        const part = body.subarray(0, Math.min(body.length, opts.total - sent));
        const ok = socket.write(chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
        sent += part.length;
        if (!ok) await new Promise((r) => socket.once('drain', r));
        await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setTimeout(r, opts.waitMs ?? 2000));
      if (!answered) finish();
    });
  });
}

describe('REST', () => {
  it('answers 413 to a declared 16 MB body before a byte of it is sent', async () => {
    const r = await rawPost('/api/auth/login', { total: 0, contentLength: 16 * 1024 * 1024 });
    expect(r.status).toBe(413);
    expect(r.head).toMatch(/connection: close/i);
    expect(JSON.parse(r.body)).toEqual({ error: 'Payload too large', message: 'The request body is larger than 128 kB' });
  });

  it('stops reading a streamed body at the limit: 413 long before 16 MB are sent', async () => {
    const r = await rawPost('/api/auth/register', { total: 16 * 1024 * 1024 });
    expect(r.status).toBe(413);
    expect(r.sent).toBeLessThan(4 * 1024 * 1024);
  });

  it('serves bodies within the limit, and a route declared with a larger one', async () => {
    const c = new Client(t.url);
    const near = await c.post('/api/auth/login', { email: 'x@example.com', password: 'p'.repeat(100), pad: 'x'.repeat(REST_LIMIT - 1000) });
    expect(near.status).toBe(401);
    // the Paddle webhook takes up to 1 MB (its signature is what refuses this one)
    const webhook = await fetch(`${t.url}/api/paddle/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'paddle-signature': 'ts=1;h1=00' },
      body: JSON.stringify({ pad: 'x'.repeat(512 * 1024) }),
    });
    expect(webhook.status).toBe(401);
    // the keep-alive connection goes on after a 413
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.url}/api/auth/status`)).status).toBe(200);
  });
});

describe('/graphql', () => {
  it('answers 413 to a declared body over its own (smaller) limit before reading it', async () => {
    const r = await rawPost('/graphql', { total: 0, contentLength: 64 * 1024 * 1024 });
    expect(r.status).toBe(413);
    expect(r.head).toMatch(/connection: close/i);
    expect(JSON.parse(r.body)).toEqual({
      errors: [{ message: 'The request body is larger than 32 kB', extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
    });
  });

  it('stops reading a streamed body at the limit', async () => {
    const r = await rawPost('/graphql', { total: 64 * 1024 * 1024, prefix: '{"query":"{ __typename }","variables":{"pad":"' });
    expect(r.status).toBe(413);
    expect(r.sent).toBeLessThan(4 * 1024 * 1024);
  });

  it('serves a body within the limit; a REST-sized one is refused', async () => {
    const c = new Client(t.url);
    const ok = await c.post('/graphql', { query: '{ authStatus { authenticated } }', extensions: { pad: 'x'.repeat(GRAPHQL_LIMIT - 500) } });
    expect(ok.json).toEqual({ data: { authStatus: { authenticated: false } } });
    const big = await c.post('/graphql', { query: '{ authStatus { authenticated } }', extensions: { pad: 'x'.repeat(GRAPHQL_LIMIT * 2) } });
    expect(big.status).toBe(413);
    expect(big.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
