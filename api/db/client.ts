// Prisma client factory over the pg driver adapter (works for real PostgreSQL and embedded PGlite).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import type pg from 'pg';
import { guardPool } from './pg-errors.js';

export type Db = PrismaClient;

export interface PrismaClientOptions {
  /** Connections of Prisma's own pool (real PostgreSQL). */
  max?: number;
  /** A pool owned by the caller (the embedded database's single connection); Prisma does not end it. */
  pool?: pg.Pool;
  /** How long a transaction may wait for a connection and run. */
  transactionOptions?: { maxWait: number; timeout: number };
}

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Tx = Awaited<ReturnType<Adapter['startTransaction']>>;

/**
 * A transaction's end whose COMMIT or ROLLBACK statement fails (the connection died under it) is
 * never followed by the adapter's commit()/rollback(), which is what hands the connection back: it
 * would stay checked out for good, and pg.Pool.end() (the app's close) would wait for it forever,
 * while a storm of such failures exhausts the pool. Here such a connection is released with the
 * error, which makes the pool destroy it.
 */
export function releaseOnFailedEnd(tx: Tx): Tx {
  const client = (tx as unknown as { client: pg.PoolClient }).client;
  let released = false;
  const executeRaw = tx.executeRaw.bind(tx);
  const commit = tx.commit.bind(tx);
  const rollback = tx.rollback.bind(tx);
  tx.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      if (!released && (query.sql === 'COMMIT' || query.sql === 'ROLLBACK')) {
        released = true;
        client.release(err instanceof Error ? err : new Error(String(err)));
      }
      throw err;
    }
  };
  tx.commit = async () => {
    if (!released) await commit();
  };
  tx.rollback = async () => {
    if (!released) await rollback();
  };
  return tx;
}

/** The pg driver adapter: its pool guarded, and transactions whose end fails releasing their connection. */
class PrismaPgReleasingFailedEnds extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    // Prisma's own pool is created in super.connect() and has no client yet: guard it before any.
    guardPool(adapter.underlyingDriver());
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => releaseOnFailedEnd(await start(isolationLevel));
    return adapter;
  }
}

/** Every client of the pool has an 'error' listener (pg-errors.ts); `opts.pool` is the caller's to end. */
export function createPrismaClient(databaseUrl: string, opts: PrismaClientOptions = {}): PrismaClient {
  const adapter = opts.pool
    ? new PrismaPgReleasingFailedEnds(opts.pool, { disposeExternalPool: false })
    : new PrismaPgReleasingFailedEnds({ connectionString: databaseUrl, max: opts.max ?? 10 });
  return new PrismaClient({ adapter, ...(opts.transactionOptions ? { transactionOptions: opts.transactionOptions } : {}) });
}
