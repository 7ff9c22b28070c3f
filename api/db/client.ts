// Prisma client factory over the pg driver adapter (works for real PostgreSQL and embedded PGlite).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import type pg from 'pg';

export type Db = PrismaClient;

export interface PrismaClientOptions {
  /** Connections of Prisma's own pool (real PostgreSQL). */
  max?: number;
  /** A pool owned by the caller (the embedded database's single connection); Prisma does not end it. */
  pool?: pg.Pool;
  /** How long a transaction may wait for a connection and run. */
  transactionOptions?: { maxWait: number; timeout: number };
}

export function createPrismaClient(databaseUrl: string, opts: PrismaClientOptions = {}): PrismaClient {
  const adapter = opts.pool
    ? new PrismaPg(opts.pool, { disposeExternalPool: false })
    : new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 });
  return new PrismaClient({ adapter, ...(opts.transactionOptions ? { transactionOptions: opts.transactionOptions } : {}) });
}
