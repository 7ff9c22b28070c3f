// Agenda 6 with the backend chosen from configuration:
// - PostgreSQL (default): @agendajs/postgres-backend on the product's own database, through a pg Pool
//   we own. LISTEN/NOTIFY wakes workers immediately on real PostgreSQL; on the embedded PGlite it
//   does not work through the socket multiplexer, so there an in-memory channel wakes the one
//   worker (in the API process, the only one the embedded database can have) when a job is queued.
// - MongoDB: @agendajs/mongo-backend when AGENDA_MONGODB_URL is set (jobs only; the product data
//   stays in PostgreSQL).
// Exactly-once execution across workers comes from the backends' atomic lock (PostgreSQL: UPDATE ...
// WHERE locked_at IS NULL ... FOR UPDATE SKIP LOCKED). A lock expires after the job definition's
// lockLifetime; a job still running then may be picked up by another worker, so long jobs must
// call job.touch() or get a longer lockLifetime (see jobs/registry.ts).
import { hostname } from 'node:os';
import { MongoBackend } from '@agendajs/mongo-backend';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, InMemoryNotificationChannel, type AgendaBackend, type NotificationChannel } from 'agenda';
import pg from 'pg';
import { guardPool } from '../api/db/pg-errors.js';
import type { Logger } from '../api/logger.js';
import { ReleasingPgNotificationChannel } from './pg-notification-channel.js';

export type AgendaBackendChoice =
  | { kind: 'postgres'; url: string; notifications: boolean }
  | { kind: 'mongodb'; url: string };

export interface CreateAgendaOptions {
  /** The product's PostgreSQL URL (real or the embedded PGlite socket). */
  databaseUrl: string;
  /** AGENDA_MONGODB_URL: when set, jobs are stored in MongoDB instead. */
  mongoUrl?: string;
  /** true when databaseUrl is the embedded PGlite (no LISTEN/NOTIFY). */
  embedded: boolean;
  logger: Logger;
  /** How often each worker polls for due jobs (ms or a human interval). Default 5 s. */
  processEvery?: number | string;
  /** Name of this worker in the jobs table (last_modified_by); default host-pid. */
  name?: string;
  /** Jobs run at the same time by this worker, all kinds together. Default 10. */
  maxConcurrency?: number;
  /** Jobs this worker may hold locked at once, all kinds together (0 = no limit). Default 0. */
  lockLimit?: number;
  /** Default lock lifetime of a job definition in ms. Default 10 minutes. */
  defaultLockLifetime?: number;
  /** Connections in the pool Agenda uses (PostgreSQL). Default 5. */
  poolSize?: number;
  /** A pool to share instead of opening one (the embedded database's single connection); not ended by stop(). */
  pool?: pg.Pool;
}

export interface AgendaHandle {
  agenda: Agenda;
  backend: AgendaBackendChoice['kind'];
  /** Whether LISTEN/NOTIFY (or another channel) wakes this worker; false means polling only. */
  notifications: boolean;
  /** Starts processing jobs (define jobs first). */
  start(): Promise<void>;
  /**
   * Graceful shutdown: stop taking jobs, release the ones locked but not started, wait up to
   * `timeoutMs` (default 25 s) for running jobs, then close the connection. Idempotent.
   */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

/** Which backend to use. MongoDB wins when configured; PostgreSQL otherwise. Pure; never connects. */
export function chooseAgendaBackend(opts: Pick<CreateAgendaOptions, 'databaseUrl' | 'mongoUrl' | 'embedded'>): AgendaBackendChoice {
  if (opts.mongoUrl) return { kind: 'mongodb', url: opts.mongoUrl };
  return { kind: 'postgres', url: opts.databaseUrl, notifications: !opts.embedded };
}

// pg_advisory_lock key serialising the backend's schema setup across workers that start together
// (its CREATE OR REPLACE FUNCTION / CREATE TRIGGER statements are not safe to run concurrently).
const SCHEMA_LOCK_KEY = 7_242_871_023;

interface BuiltBackend {
  backend: AgendaBackend;
  /** The PostgreSQL LISTEN/NOTIFY channel (real PostgreSQL only). */
  notificationChannel?: NotificationChannel;
  /** Connects and prepares the schema. */
  connect(): Promise<void>;
  /** Releases what we own (the pool, or the MongoDB client). */
  close(): Promise<void>;
}

/** Constructs the backend for a choice without connecting (Agenda connects it). */
export function buildAgendaBackend(choice: AgendaBackendChoice, logger: Logger, poolSize?: number, shared?: pg.Pool): BuiltBackend {
  if (choice.kind === 'mongodb') {
    const backend = new MongoBackend({ address: choice.url, collection: 'agendaJobs' });
    return {
      backend,
      connect: () => backend.connect(),
      close: () => backend.disconnect(),
    };
  }
  const pool =
    shared ??
    new pg.Pool({
      connectionString: choice.url,
      max: poolSize ?? 5,
      application_name: 'crm-assistant-jobs',
    });
  // A client losing its connection emits 'error' (on the pool too when idle); unhandled it would
  // kill the process. Every client of the pool has a listener, checked-out ones included (the LISTEN
  // connection, the schema lock below). The shared embedded pool is guarded by api/db/database.ts.
  if (!shared) guardPool(pool, (err) => logger.warn({ err }, 'jobs database connection error'));
  // The backend's own LISTEN channel can leak its connection when PostgreSQL drops it: ours releases it.
  const backend = new PostgresBackend({ pool, disableNotifications: true });
  const notificationChannel = choice.notifications ? new ReleasingPgNotificationChannel({ pool, reconnect: { enabled: true } }) : undefined;
  return {
    backend,
    notificationChannel,
    async connect() {
      if (!choice.notifications) return backend.connect(); // embedded: one process, no race
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
        try {
          await backend.connect();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    close: () => (shared ? Promise.resolve() : pool.end()),
  };
}

/** The part of Agenda's (private) job processor that a graceful stop needs; pinned agenda 6.2.6. */
interface ProcessorInternals {
  runningJobs: unknown[];
}

function processorOf(agenda: Agenda): ProcessorInternals | undefined {
  const p = (agenda as unknown as { jobProcessor?: Partial<ProcessorInternals> }).jobProcessor;
  return p && Array.isArray(p.runningJobs) ? (p as ProcessorInternals) : undefined;
}

/**
 * Creates Agenda on the chosen backend and waits until the backend is connected (schema ready).
 * Define jobs on `handle.agenda`, then call `handle.start()`. Throws when the backend cannot connect.
 */
export async function createAgenda(opts: CreateAgendaOptions): Promise<AgendaHandle> {
  const { logger } = opts;
  const choice = chooseAgendaBackend(opts);
  const built = buildAgendaBackend(choice, logger, opts.poolSize, opts.pool);

  // Agenda's constructor calls backend.connect() without handling a rejection (an unhandled
  // rejection would end the process). Connect ourselves and hand Agenda a promise that only
  // settles on success; a failure is thrown from here instead.
  const connecting = built.connect().then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const inner = built.backend;
  const guarded: AgendaBackend = {
    name: inner.name,
    repository: inner.repository,
    notificationChannel: built.notificationChannel ?? inner.notificationChannel,
    logger: inner.logger,
    ownsConnection: false, // we close it ourselves in stop()
    connect: () => connecting.then((r) => (r.ok ? undefined : new Promise<void>(() => {}))),
    disconnect: () => built.close(),
  };

  const agenda = new Agenda({
    backend: guarded,
    // The embedded database has no LISTEN/NOTIFY, but it belongs to this process alone: a job queued
    // here is announced in memory and starts at once instead of at the next poll.
    ...(choice.kind === 'postgres' && !choice.notifications ? { notificationChannel: new InMemoryNotificationChannel() } : {}),
    name: opts.name ?? `${hostname()}-${process.pid}`,
    processEvery: opts.processEvery ?? '5 seconds',
    maxConcurrency: opts.maxConcurrency ?? 10,
    lockLimit: opts.lockLimit ?? 0,
    defaultLockLifetime: opts.defaultLockLifetime ?? 10 * 60_000,
  });
  agenda.on('error', (err: Error) => logger.error({ err }, 'agenda error'));
  (built.notificationChannel ?? inner.notificationChannel)?.on('error', (err: Error) => logger.warn({ err }, 'agenda notification channel error'));

  const connected = await connecting;
  if (!connected.ok) {
    await built.close().catch(() => {});
    throw connected.error;
  }
  await agenda.ready;

  let started = false;
  let stopping: Promise<void> | undefined;
  return {
    agenda,
    backend: choice.kind,
    notifications: agenda.hasNotificationChannel(),
    async start() {
      await agenda.start();
      started = true;
      logger.info(
        { backend: choice.kind, notifications: agenda.hasNotificationChannel(), processEvery: agenda.attrs.processEvery },
        'jobs worker started',
      );
    },
    stop({ timeoutMs = 25_000 } = {}) {
      stopping ??= (async () => {
        if (started) {
          const processor = processorOf(agenda);
          if (processor) {
            // stop(): no new job starts, locked-but-not-started jobs are unlocked for other workers;
            // running jobs go on and keep their locks, so wait for them before closing the pool.
            await agenda.stop(false);
            const deadline = Date.now() + timeoutMs;
            while (processor.runningJobs.length > 0 && Date.now() < deadline) {
              await new Promise((r) => setTimeout(r, 50));
            }
            if (processor.runningJobs.length > 0) {
              logger.warn({ running: processor.runningJobs.length }, 'jobs still running at shutdown; their locks expire after lockLifetime');
            }
          } else {
            const result = await agenda.drain({ timeout: timeoutMs, closeConnection: false });
            if (result.timedOut) logger.warn({ running: result.running }, 'jobs still running at shutdown');
          }
        }
        await built.close();
        logger.info('jobs worker stopped');
      })();
      return stopping;
    },
  };
}
