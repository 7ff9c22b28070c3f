// PostgreSQL going away under traffic, without restarting the machine's server: every backend
// connection of the test database is terminated (57P01 admin_shutdown, what a restart does to
// clients) again and again while requests run. Each request must either succeed or fail cleanly
// with 503 / SERVICE_UNAVAILABLE (no 500, no hang), requests after the storm succeed, and every
// write that was acknowledged is in the database.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { createLogger } from '../../api/logger.js';
import { registerUser } from '../helpers/crm.js';
import { startTestApp, testConfig, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, TEST_PG_URL } from '../helpers/test-db.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '200' });
});
afterAll(async () => {
  await t?.close();
});

/** Terminates every connection of the test database (but this one) until stopped; counts them. */
function terminateRepeatedly(database: string) {
  let stop = false;
  let killed = 0;
  const done = (async () => {
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    while (!stop) {
      const r = await admin.query(
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      killed += r.rows.filter((x) => x.ok).length;
      await new Promise((res) => setTimeout(res, 15));
    }
    await admin.end();
  })();
  return {
    async stop() {
      stop = true;
      await done;
      return killed;
    },
  };
}

it('requests during repeated connection kills succeed or get a clean 503; acknowledged writes are kept', async () => {
  const { c, userId } = await registerUser(t.url);
  const storm = terminateRepeatedly(t.db.name);
  const outcomes: { status: number; body: any; kind: 'rest' | 'gql' }[] = [];
  const acknowledged: string[] = [];
  let n = 0;
  const worker = async () => {
    for (let i = 0; i < 25; i++) {
      const k = n++;
      if (k % 2 === 0) {
        const r = await c.post('/api/segments', { description: `segment ${k}` });
        outcomes.push({ status: r.status, body: r.json, kind: 'rest' });
        if (r.status === 201) acknowledged.push(r.json.id);
      } else {
        const query = `mutation($d: String!) { createSavedSegment(input: { description: $d }) { savedSegment { id } } }`;
        const r = await c.post('/graphql', { query, variables: { d: `segment ${k}` } });
        // A GraphQL error is answered 200 by Yoga: count it by its code.
        const code = r.json?.errors?.[0]?.extensions?.code;
        const status = r.json?.errors ? (code === 'SERVICE_UNAVAILABLE' ? 503 : 500) : r.status;
        outcomes.push({ status, body: r.json ?? r.text, kind: r.json?.errors ? 'gql' : 'rest' });
        if (status === 200) {
          // a Relay global id: base64 of "SavedSegment:<uuid>"
          acknowledged.push(Buffer.from(r.json.data.createSavedSegment.savedSegment.id, 'base64').toString().split(':')[1]);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const killed = await storm.stop();
  expect(killed).toBeGreaterThan(0);

  const failures = outcomes.filter((o) => o.status >= 300);
  for (const f of failures) {
    expect(f.status, JSON.stringify(f.body)).toBe(503);
    if (f.kind === 'rest') expect(f.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  }
  expect(outcomes.length).toBe(100);

  // After the storm: the server has reconnected and everything acknowledged is there.
  const after = await c.post('/api/segments', { description: 'after the storm' });
  expect(after.status).toBe(201);
  acknowledged.push(after.json.id);
  const list = await c.get('/api/segments');
  expect(list.status).toBe(200);
  const ids = new Set((list.json as { id: string }[]).map((s) => s.id));
  for (const id of acknowledged) expect(ids.has(id), id).toBe(true);
  // (a write whose commit succeeded but whose answer was cut may be there too: never fewer)
  const stored = await t.app.deps.prisma.segment.count({ where: { userId } });
  expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
  console.log(`db-restart: ${killed} connections killed, ${outcomes.length} requests, ${failures.length} answered 503, ${acknowledged.length} writes acknowledged and found`);
});

/** A TCP proxy in front of the test PostgreSQL that can be cut (connections dropped, new ones refused) and restored. */
async function startProxy() {
  const target = new URL(TEST_PG_URL);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    url: (db: string) => `postgresql://postgres@127.0.0.1:${port}/${db}`,
    async cut() {
      await new Promise<void>((r) => {
        server!.close(() => r());
        for (const s of sockets) s.destroy();
      });
    },
    restore: listen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    },
  };
}

it('a database that is down answers 503 at once, and the server reconnects when it is back', async () => {
  const db = await createTestDatabase();
  const proxy = await startProxy();
  const app = buildApp(testConfig(proxy.url(db.name), { SANDBOX_CONTACTS: '200', SEED_ON_START: 'false' }), { logger: createLogger('silent'), onSeeded: () => {} });
  const { url } = await app.start(0);
  try {
    const { c } = await registerUser(url);
    const before = await c.post('/api/segments', { description: 'before' });
    expect(before.status).toBe(201);

    await proxy.cut();
    const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(20_000) });
    expect(health.status).toBe(503);
    const during = await c.post('/api/segments', { description: 'during' });
    expect(during.status).toBe(503);
    expect(during.json).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(during.headers.get('retry-after')).toBe('1');
    const gql = await c.gql('{ usage { chatQueriesUsed } }');
    expect(gql.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');

    await proxy.restore();
    const after = await c.post('/api/segments', { description: 'after' });
    expect(after.status).toBe(201);
    const list = (await c.get('/api/segments')).json as { id: string; description: string }[];
    expect(list.map((s) => s.description).sort()).toEqual(['after', 'before']);
  } finally {
    await app.stop();
    await proxy.close();
    await db.drop();
  }
});
