// The jobs worker. `npm run worker` runs it as its own process (production: M workers on one
// PostgreSQL, or on MongoDB with AGENDA_MONGODB_URL); in embedded mode the API process runs it
// in-process through startWorker(), since the embedded database belongs to that process.
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../api/config.js';
import { resolveCrmEndpoints } from '../api/crm/endpoints.js';
import { openDatabase, type Database } from '../api/db/database.js';
import { createEvents } from '../api/events/pubsub.js';
import { createSharedSearchLimiters } from '../api/crm/hubspot/rate-limiter.js';
import { createLogger } from '../api/logger.js';
import type { JobQueue, ServiceDeps } from '../api/services/deps.js';
import { createAgenda, type AgendaHandle } from './agenda.js';
import { contactImportJobs } from './contact-imports.js';
import { maintenanceJobs } from './maintenance.js';
import { smartSegmentJobs } from './smart-segments.js';
import { defineJobs, type JobGroup, type WorkerSettings } from './registry.js';

/** Every job group, one line each. */
export const JOB_GROUPS: JobGroup[] = [
  maintenanceJobs,
  smartSegmentJobs,
  contactImportJobs,
];

// Worker settings read from the environment (to move into api/config.ts).
export const ENV_MAINTENANCE_CRON = 'MAINTENANCE_CRON';
export const ENV_CLEANUP_USAGE_CRON = 'CLEANUP_USAGE_CRON';
export const ENV_JOBS_PROCESS_EVERY = 'JOBS_PROCESS_EVERY';
export const ENV_GENERATION_CRON = 'GENERATION_CRON';
export const ENV_GENERATION_LOCK_LIFETIME_MS = 'GENERATION_LOCK_LIFETIME_MS';
export const DEFAULT_GENERATION_CRON = '0 5 * * *';
export const DEFAULT_MAINTENANCE_CRON = '15 3 * * *';
export const DEFAULT_PROCESS_EVERY = '5 seconds';

/** "off" or "none" disables a schedule. */
function cronFromEnv(value: string | undefined, fallback: string | null): string | null {
  if (value === undefined || value.trim() === '') return fallback;
  return /^(off|none|disabled?)$/i.test(value.trim()) ? null : value.trim();
}

export function workerSettingsFromEnv(env: NodeJS.ProcessEnv, timeZone: string): WorkerSettings {
  return {
    maintenanceCron: cronFromEnv(env[ENV_MAINTENANCE_CRON], DEFAULT_MAINTENANCE_CRON),
    cleanupCron: cronFromEnv(env[ENV_CLEANUP_USAGE_CRON], null),
    generationCron: cronFromEnv(env[ENV_GENERATION_CRON], DEFAULT_GENERATION_CRON),
    timeZone,
    ...(Number(env[ENV_GENERATION_LOCK_LIFETIME_MS]) > 0 ? { generationLockLifetimeMs: Number(env[ENV_GENERATION_LOCK_LIFETIME_MS]) } : {}),
  };
}

export interface WorkerOptions {
  /** Default: from the environment, cron in config.usageTimeZone. */
  settings?: WorkerSettings;
  /** Default: JOB_GROUPS. */
  groups?: JobGroup[];
  /** Poll interval; default JOBS_PROCESS_EVERY or 5 seconds. */
  processEvery?: number | string;
  /** Worker name in the jobs table; default host-pid. */
  name?: string;
}

export interface Worker {
  agenda: AgendaHandle['agenda'];
  handle: AgendaHandle;
  /** Queues one-off jobs for this worker (and any other on the same backend): deps.jobs of an API process running it. */
  queue: JobQueue;
  /** Graceful: running jobs finish (up to timeoutMs, default 25 s). Does not close `database`. */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

/** Starts Agenda on `database` with every job group defined and scheduled. */
export async function startWorker(
  deps: ServiceDeps,
  database: Pick<Database, 'url' | 'embedded' | 'pool'>,
  opts: WorkerOptions = {},
): Promise<Worker> {
  const settings = opts.settings ?? workerSettingsFromEnv(process.env, deps.config.usageTimeZone);
  const handle = await createAgenda({
    databaseUrl: database.url,
    mongoUrl: deps.config.agendaMongoUrl,
    embedded: database.embedded,
    // The embedded database has one connection for the whole process (see api/db/database.ts).
    pool: database.pool,
    logger: deps.logger,
    processEvery: opts.processEvery ?? process.env[ENV_JOBS_PROCESS_EVERY] ?? DEFAULT_PROCESS_EVERY,
    name: opts.name,
  });
  const stopping = new AbortController();
  try {
    for (const group of opts.groups ?? JOB_GROUPS) await defineJobs(handle.agenda, deps, group(settings), stopping.signal);
    await handle.start();
  } catch (err) {
    await handle.stop({ timeoutMs: 0 });
    throw err;
  }
  return {
    agenda: handle.agenda,
    handle,
    queue: {
      async enqueue(name, data) {
        await handle.agenda.now(name, data);
      },
    },
    stop: (o) => {
      stopping.abort(); // running jobs wind down (and hand over what is left) within the deadline
      return handle.stop(o);
    },
  };
}

/** Entry of `npm run worker`. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  if (!config.databaseUrl) {
    // The embedded database lives inside the API process (one PGlite per data directory).
    logger.error('npm run worker needs DATABASE_URL; in embedded mode the API process runs the jobs itself');
    process.exit(1);
  }
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection in worker'));

  const database = await openDatabase(config);
  const events = createEvents(config.redisUrl);
  const appUrl = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const deps: ServiceDeps = {
    prisma: database.prisma,
    bulk: database.bulk,
    config,
    logger,
    now: () => new Date(),
    events,
    crmEndpoints: resolveCrmEndpoints(config, appUrl),
    ...(config.redisUrl ? { searchLimiters: createSharedSearchLimiters(config.redisUrl) } : {}),
  };
  let worker: Worker;
  try {
    worker = await startWorker(deps, database);
  } catch (err) {
    logger.error({ err }, 'worker failed to start');
    await events.close();
    await database.close();
    process.exit(1);
  }

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'worker shutting down');
    try {
      await worker.stop();
      await deps.searchLimiters?.close();
      await events.close();
      await database.close();
    } catch (err) {
      logger.error({ err }, 'error during worker shutdown');
      process.exitCode = 1;
    }
    process.exit();
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
