// What every service needs, passed explicitly (no globals) so tests can build their own.
import type { PrismaClient } from '@prisma/client';
import type { Config } from '../config.js';
import type { CrmEndpoints } from '../crm/endpoints.js';
import type { AppEvents } from '../events/pubsub.js';
import type { Logger } from '../logger.js';
import type { ReadCache } from './read-cache.js';
import type { SharedSearchLimiters } from '../crm/hubspot/rate-limiter.js';

export interface ServiceDeps {
  prisma: PrismaClient;
  config: Config;
  logger: Logger;
  /** Injectable clock. */
  now: () => Date;
  /** Subscription events (in-process or Redis). */
  events: AppEvents;
  /** Where the CRM (HubSpot or the embedded sandbox) is reached. */
  crm: CrmEndpoints;
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
