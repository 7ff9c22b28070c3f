// Chooses where the data lives: DATABASE_URL when set, otherwise the embedded PGlite under DATA_DIR.
// Migrations are applied before the client is handed out.
//
// The embedded database is one PGlite session behind a socket: statements of two connections would
// interleave inside it (prepared-statement and portal errors, requests answered 500 under load). So
// the whole process shares ONE connection — Prisma and the jobs worker alike — and statements queue
// for it. A transaction holds it until it ends, so code inside a transaction must use only `tx`
// (every `$transaction` callback does); other requests wait, which is why transactions may wait long
// for the connection here instead of Prisma's default 2 s.
import type { PrismaClient } from '@prisma/client';
import pg from 'pg';
import type { Config } from '../config.js';
import { createPrismaClient } from './client.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded.js';
import { migrate } from './migrate.js';
import { guardPool } from './pg-errors.js';

export interface Database {
  prisma: PrismaClient;
  url: string;
  embedded: boolean;
  /** The embedded database's single shared connection (also used by the jobs worker). */
  pool?: pg.Pool;
  /**
   * node-postgres on the same database for bulk statements (contacts imports): Prisma keeps memory for
   * every large raw query it compiles. The embedded database's shared connection, else two connections.
   */
  bulk: pg.Pool;
  close(): Promise<void>;
}

export const EMBEDDED_TRANSACTION_OPTIONS = { maxWait: 60_000, timeout: 60_000 };

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedDbPort'>): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, port: config.embeddedDbPort });
    url = embedded.url;
  }
  try {
    await migrate(url);
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  // A dropped connection emits 'error' on its client (and on the pool when idle); unhandled it would
  // end the process: every client of these pools has a listener (pg-errors.ts).
  const pool = embedded ? guardPool(new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0, application_name: 'crm-assistant' })) : undefined;
  const prisma = pool
    ? createPrismaClient(url, { pool, transactionOptions: EMBEDDED_TRANSACTION_OPTIONS })
    : createPrismaClient(url, { max: 10 });
  const bulk = pool ?? guardPool(new pg.Pool({ connectionString: url, max: 2, application_name: 'crm-assistant-bulk', allowExitOnIdle: true }));
  return {
    prisma,
    url,
    embedded: Boolean(embedded),
    pool,
    bulk,
    async close() {
      await prisma.$disconnect();
      if (bulk !== pool) await bulk.end();
      await pool?.end();
      await embedded?.stop();
    },
  };
}
