// The jobs' LISTEN connection is given back to the pool whenever the channel stops using it, so the
// pool's end() (the worker's and the app's close) does not wait forever for a connection that
// PostgreSQL dropped while the channel was connecting, or that a connect took after disconnect().
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guardPool } from '../api/db/pg-errors.js';
import { createTestDatabase, TEST_PG_URL, type TestDatabase } from '../tests/helpers/test-db.js';
import { until } from '../tests/helpers/wait.js';
import { ReleasingPgNotificationChannel } from './pg-notification-channel.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('crm_listen');
});
afterAll(async () => {
  await db?.drop();
});

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);

it('a connect that fails after taking its connection (LISTEN fails) releases it', async () => {
  const pool = guardPool(new pg.Pool({ connectionString: db.url, max: 2 }));
  // a channel name LISTEN cannot parse: the statement fails on a live connection
  const channel = new ReleasingPgNotificationChannel({ pool, channelName: 'bad"name', reconnect: { enabled: false } });
  const errors: Error[] = [];
  channel.on('error', (err: Error) => errors.push(err));
  await expect(channel.connect()).rejects.toThrow();
  expect(errors.length).toBeGreaterThan(0);
  expect(pool.totalCount - pool.idleCount).toBe(0); // nothing left checked out
  await within(pool.end(), 5_000);
});

it('a connect still waiting when disconnect() runs does not keep its connection', async () => {
  const pool = guardPool(new pg.Pool({ connectionString: db.url, max: 2 }));
  const channel = new ReleasingPgNotificationChannel({ pool });
  channel.on('error', () => {});
  const connecting = channel.connect();
  await channel.disconnect();
  await connecting;
  expect(channel.state).toBe('disconnected');
  expect(pool.totalCount - pool.idleCount).toBe(0);
  await within(pool.end(), 5_000);
});

it('the LISTEN backend terminated (57P01) while connected: the channel reconnects and still delivers, and closes', async () => {
  const pool = guardPool(new pg.Pool({ connectionString: db.url, max: 3 }));
  const channel = new ReleasingPgNotificationChannel({ pool, reconnect: { enabled: true, initialDelayMs: 20 } });
  channel.on('error', () => {});
  await channel.connect();
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`, [db.name]);
  await admin.end();
  await until(() => channel.state === 'reconnecting');
  await until(() => channel.state === 'connected');
  const got: string[] = [];
  channel.subscribe((n) => void got.push(n.jobName));
  await channel.publish({ jobId: 'x' as never, jobName: 'after-restart', nextRunAt: null, priority: 0, timestamp: new Date(), source: 'test' });
  await until(() => got.includes('after-restart'));
  await channel.disconnect();
  await within(pool.end(), 5_000);
});
