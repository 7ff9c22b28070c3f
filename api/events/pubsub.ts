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

/** One of a user's daily segments was generated: the record (by id) and the day it belongs to, with the run's counts. */
export interface DailySegmentsProgress {
  date: string;
  total: number;
  completed: number;
  failed: number;
  done: boolean;
  /** the segment (daily_generated_segments.id) just written */
  segmentId: string;
  /** the user's segments of `date` after it, and the latest generatedAt among them (ISO) */
  dayCount: number;
  lastGeneratedAt: string | null;
}

/** Counts of one generation run (one job per user on the job workers, generation-runs.ts). */
export interface GenerationStats {
  runId: string;
  date: string;
  users: number;
  completedUsers: number;
  totalSegments: number;
  successCount: number;
  failedCount: number;
}

/** Progress of a generation run as administrators watch it. */
export type GenerationProgress = GenerationStats & { done: boolean };

/** Where an import of a contacts file stands (services/contact-imports): pushed as it progresses. */
export interface ContactImportProgress {
  /** the import's id (uuid) */
  importId: string;
  status: string;
  rowCount: number;
  importedCount: number;
  skippedCount: number;
  problemCount: number;
  bytesRead: number;
  byteSize: number;
  error: string | null;
  done: boolean;
}

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
  contactImportProgress: [userId: string, payload: ContactImportProgress];
  customerQueryUpdated: [userId: string, payload: { queryId: string }];
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
