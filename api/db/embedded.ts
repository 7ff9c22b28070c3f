// Embedded PostgreSQL: PGlite keeps its data under <DATA_DIR>/pgdata and pglite-socket serves it on
// a loopback port, so Prisma (adapter-pg) and Agenda (pg pool) talk to it like to any PostgreSQL.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedDatabase(opts: { dataDir: string; port?: number }): Promise<EmbeddedDatabase> {
  const dir = path.join(opts.dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  // Several pooled connections are multiplexed onto PGlite's single session; the socket server
  // queues them and keeps a transaction's statements together.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: opts.port ?? 0, maxConnections: 100 });
  await server.start();
  const conn = server.getServerConn(); // "127.0.0.1:PORT"
  return {
    url: `postgresql://postgres:postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
