// node-postgres reports a connection that dies outside a query (PostgreSQL restarted, a backend
// terminated: 57P01 admin_shutdown, a reset socket) as an 'error' event on the Client. An 'error'
// event without a listener is thrown by Node and ends the process.
//
// pg-pool listens on its clients only while they are idle in the pool: it removes its listener when
// it hands a client out, and the caller adds its own only after `await pool.connect()` resumes. A
// backend terminated right after it started sends its ReadyForQuery and the 57P01 in one socket
// read: the pool hands the client out on the first and the client emits the second in the same
// tick, with no listener at all. That is what a connection storm did to Agenda's LISTEN connection
// (and could do to any transaction Prisma's adapter starts). So every pool the app creates goes
// through guardPool, which adds a listener in the pool's 'connect' event, synchronously before the
// client is handed out, and every stand-alone pg.Client through guardClient. The failure itself
// reaches whoever uses the connection next (its query fails and the request answers 503); the
// listener only keeps the process up.
import type pg from 'pg';

export type PgErrorHandler = (err: Error) => void;

const ignore: PgErrorHandler = () => {};
const guarded = new WeakSet<pg.Pool>();

/** Adds an 'error' listener to a stand-alone client; returns it. */
export function guardClient<C extends pg.Client | pg.PoolClient>(client: C, onError: PgErrorHandler = ignore): C {
  client.on('error', onError);
  return client;
}

/**
 * An 'error' listener on the pool (idle clients) and on each client it creates (pg-pool emits
 * 'connect' with the new client before handing it out), so a checked-out client is covered too.
 * Idempotent: a pool is guarded once.
 */
export function guardPool<P extends pg.Pool>(pool: P, onError: PgErrorHandler = ignore): P {
  if (guarded.has(pool)) return pool;
  guarded.add(pool);
  pool.on('error', onError);
  pool.on('connect', (client) => guardClient(client, onError));
  return pool;
}
