// Subscription events. One interface, two transports: in-process (default) and Redis (REDIS_URL),
// so several API processes fan events out to whichever process holds a subscriber's websocket.
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';

export interface UsageSnapshot {
  userId: string;
  chatQueriesUsed: number;
  chatQueryLimit: number;
  smartSegmentsUsed: number;
  smartSegmentLimit: number;
  tierName: string;
}

export interface DailySegmentsProgress {
  date: string;
  total: number;
  completed: number;
  failed: number;
  done: boolean;
}

/** Counts of one generation run over every user. */
export interface GenerationStats {
  /** A run queued on the job workers (generation-runs.ts); null for a run done in one request. */
  runId: string | null;
  /** The run was handed to the job workers: the counts grow as they finish users. */
  queued: boolean;
  date: string;
  users: number;
  completedUsers: number;
  totalSegments: number;
  successCount: number;
  failedCount: number;
}

/** Progress of a generation run as administrators watch it. */
export type GenerationProgress = GenerationStats & { done: boolean };

/**
 * A credential ended: one session or access token (logout, revoke), the user's other sessions
 * (password change, `exceptSessionId`), or everything of the user (ban, `all`). Open websockets of
 * that credential are closed on every API process.
 */
export interface CredentialEnded {
  userId: string;
  sessionId?: string;
  accessTokenId?: string;
  exceptSessionId?: string;
  all?: boolean;
}

export const CREDENTIAL_TOPIC = 'credentials';

/** The routing key of administrator-wide events. */
export const ADMIN_TOPIC = 'admin';

/** Topic → [routing key, payload]: subscribers listen per user (or on ADMIN_TOPIC). */
export type EventChannels = {
  usageUpdated: [userId: string, payload: UsageSnapshot];
  dailySegmentsUpdated: [userId: string, payload: DailySegmentsProgress];
  generationProgress: [topic: typeof ADMIN_TOPIC, payload: GenerationProgress];
  credentialEnded: [topic: typeof CREDENTIAL_TOPIC, payload: CredentialEnded];
  cacheInvalidated: [topic: 'cache', payload: CacheScope];
};

/** What a write made stale in the read caches (api/services/read-cache.ts): one user's, or every usage snapshot. */
export type CacheScope = { userId: string; only?: 'usage' } | { allUsage: true };

export interface AppEvents {
  pubsub: PubSub<EventChannels>;
  close(): Promise<void>;
}

export function createEvents(redisUrl?: string): AppEvents {
  if (!redisUrl) {
    return { pubsub: createPubSub<EventChannels>(), close: async () => {} };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget<any>({ publishClient, subscribeClient });
  return {
    pubsub: createPubSub<EventChannels>({ eventTarget }),
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
