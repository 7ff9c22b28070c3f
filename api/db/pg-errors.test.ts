// A PostgreSQL restart must not end the process: every pg client the app holds has an 'error'
// listener (guardPool / guardClient), and a transaction whose COMMIT fails on a dead connection
// gives the connection back (destroyed), so closing the pool does not wait for it forever.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_PG_URL, type TestDatabase } from '../../tests/helpers/test-db.js';
import { until } from '../../tests/helpers/wait.js';
import { createPrismaClient } from './client.js';
import { migrate } from './migrate.js';
import { guardClient, guardPool } from './pg-errors.js';

let db: TestDatabase;
let admin: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase('crm_pgerr');
  admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await db?.drop();
});

const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);

describe('guardPool', () => {
  it('a checked-out client has an error listener: emitting error does not throw (unguarded, it does)', async () => {
    const bare = new pg.Pool({ connectionString: db.url, max: 1 });
    const held = await bare.connect();
    expect(() => held.emit('error', new Error('boom'))).toThrow('boom');
    held.release(true);
    await bare.end();

    const pool = guardPool(new pg.Pool({ connectionString: db.url, max: 1 }));
    const client = await pool.connect();
    expect(() => client.emit('error', new Error('boom'))).not.toThrow();
    client.release(true);
    await pool.end();
  });

  it('a client handed to a connect callback already has a listener, before its caller can add one', async () => {
    const outcome = (pool: pg.Pool) =>
      new Promise<string>((resolve) =>
        pool.connect((err, client, release) => {
          if (err || !client) return resolve(`connect failed: ${err}`);
          try {
            client.emit('error', new Error('terminating connection due to administrator command'));
            resolve('handled');
          } catch {
            resolve('thrown');
          } finally {
            release(true);
          }
        }),
      );
    const bare = new pg.Pool({ connectionString: db.url, max: 1 });
    expect(await outcome(bare)).toBe('thrown');
    await bare.end();
    const pool = guardPool(new pg.Pool({ connectionString: db.url, max: 1 }));
    expect(await outcome(pool)).toBe('handled');
    await pool.end();
  });

  it('a held client whose backend is terminated (57P01) reports it to the handler; the pool goes on', async () => {
    const seen: string[] = [];
    const pool = guardPool(new pg.Pool({ connectionString: db.url, max: 2 }), (err) => seen.push((err as { code?: string }).code ?? err.message));
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await terminate(rows[0].pid);
    await until(() => seen.includes('57P01'));
    client.release(true);
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    await within(pool.end(), 5_000);
  });

  it('guardClient covers a stand-alone client (as migrate uses)', async () => {
    const seen: Error[] = [];
    const client = guardClient(new pg.Client({ connectionString: db.url }), (err) => seen.push(err));
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await terminate(rows[0].pid);
    await until(() => seen.length > 0);
    await client.end().catch(() => {});
  });
});

describe('Prisma transactions on a dying connection', () => {
  it('a transaction whose COMMIT fails releases its connection: $disconnect (pool end) completes', async () => {
    await migrate(db.url);
    const prisma = createPrismaClient(db.url, { max: 2 });
    const failed = prisma.$transaction(async (tx) => {
      const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await terminate(pid);
      await until(async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 0);
    });
    await expect(failed).rejects.toThrow();
    // the pool still serves (the dead connection is not handed out again) ...
    expect(await prisma.$queryRaw<{ one: number }[]>`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    // ... and closing it does not wait for a connection that was never given back
    await within(prisma.$disconnect(), 5_000);
  });
});
