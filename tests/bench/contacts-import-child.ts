/**
 * One process of the contacts-import bench (tests/bench/contacts-import.ts), as a jobs worker runs an
 * import: `node --import tsx contacts-import-child.ts <databaseUrl> <importId>` runs the import and
 * prints { ms, peakRss }; without an import id it only opens the database and reads one row (the
 * baseline: the same process doing nothing). peakRss is the kernel's own peak (VmHWM) of the process.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import { createPrismaClient } from '../../api/db/client.js';
import { createEvents } from '../../api/events/pubsub.js';
import { createLogger } from '../../api/logger.js';
import { runImport } from '../../api/services/contact-imports/index.js';
import type { ServiceDeps } from '../../api/services/deps.js';
import { loadConfig } from '../../api/config.js';

const [databaseUrl, importId] = process.argv.slice(2);
const config = loadConfig({
  NODE_ENV: 'test', DATABASE_URL: databaseUrl, DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent',
  SESSION_SECRET: 'bench-session-secret-that-is-long-enough-123', TOKEN_ENCRYPTION_KEY: '0'.repeat(64), PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_bench',
});
const prisma = createPrismaClient(databaseUrl, { max: 2 });
const bulk = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const events = createEvents();
const deps: ServiceDeps = {
  prisma, bulk, config, logger: createLogger('silent'), now: () => new Date(), events,
  crmEndpoints: () => {
    throw new Error('no CRM in this process');
  },
};
const started = performance.now();
let status = 'baseline';
if (importId) status = (await runImport(deps, importId))?.status ?? 'gone';
else await prisma.contactImport.count();
const ms = performance.now() - started;
const peakKb = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
await prisma.$disconnect();
await bulk.end();
await events.close();
process.stdout.write(`${JSON.stringify({ ms, peakRss: peakKb * 1024, status })}\n`);
