// What every service needs, passed explicitly (no globals) so tests can build their own.
import type { PrismaClient } from '@prisma/client';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { CrmEndpoints } from '../crm/provider.js';
import type { AppEvents } from '../events/pubsub.js';
import type { Logger } from '../logger.js';
import type { Mailer } from './mailer.js';
import type { ReadCache } from './read-cache.js';
import type { SharedSearchLimiters } from '../crm/hubspot/rate-limiter.js';

export interface ServiceDeps {
  prisma: PrismaClient;
  config: Config;
  logger: Logger;
  /**
   * node-postgres on the same database for bulk statements (contacts imports: Prisma keeps memory for
   * every large raw query). Absent (services built by hand in tests): Prisma runs them.
   */
  bulk?: pg.Pool;
  /** Outgoing mail (password reset links). Absent: mail is written to the log only. */
  mailer?: Mailer;
  /** Where users open the web app (PUBLIC_URL, else the address this process listens on): links in mail. */
  appUrl?: string;
  /** Injectable clock. */
  now: () => Date;
  /** Subscription events (in-process or Redis). */
  events: AppEvents;
  /** Where each CRM (the real one, or its sandbox in this process) is reached. */
  crmEndpoints: (crmType: string) => CrmEndpoints;
  /** Per-account CRM budgets shared across processes (with REDIS_URL); absent: per process. */
  searchLimiters?: SharedSearchLimiters;
  /** Short-lived caches of per-request reads (sessions, usage); absent: always read the database. */
  cache?: ReadCache;
  /**
   * The jobs queue of separate worker processes (API processes started with RUN_WORKER=false on
   * PostgreSQL). Absent: work that could be queued runs in this process.
   */
  jobs?: JobQueue;
}

/** Puts one-off jobs on the queue the workers take them from (each instance runs once). */
export interface JobQueue {
  enqueue(name: string, data: Record<string, unknown>): Promise<void>;
}
