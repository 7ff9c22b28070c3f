// Short-lived caches of what every signed-in request reads: the session behind a cookie (with its
// user) and the user's usage snapshot of the day. Without them a cheap signed-in request costs three
// database round trips (measured: 0.05 of a bare GraphQL server's rate; see tests/bench).
//
// Correctness rules:
// - Only reads are cached. Quota consumption stays one atomic statement in the database, so a stale
//   snapshot can never let a user spend more than the limit.
// - Every write that changes what is cached calls `invalidate()`, which forgets locally at once (the
//   next request of this process sees it) and publishes `cacheInvalidated` so the other API processes
//   forget too (through Redis when configured). Ended credentials (`credentialEnded`: logout, ban,
//   password change) are forgotten the same way.
// - Entries live at most READ_CACHE_TTL_MS (default 10 s), which bounds any missed invalidation.
import type { Session, User } from '@prisma/client';
import { LRUCache } from 'lru-cache';
import { CREDENTIAL_TOPIC, type CacheScope, type UsageSnapshot } from '../events/pubsub.js';
import type { ServiceDeps } from './deps.js';

export interface CachedSession {
  session: Session;
  user: User;
}

export interface ReadCache {
  /** keyed by the session token's keyed hash */
  sessions: LRUCache<string, CachedSession>;
  /** a session token's keyed hash by the token (an HMAC per request costs more than the rest of the session lookup) */
  tokenHashes: LRUCache<string, string>;
  /** keyed by `${userId}:${usage day}:${tier id}` */
  usage: LRUCache<string, UsageSnapshot>;
  forget(scope: CacheScope): void;
}

export const CACHE_TOPIC = 'cache' as const;

export function createReadCache(ttlMs: number, max = 10_000): ReadCache {
  const sessions = new LRUCache<string, CachedSession>({ max, ttl: ttlMs });
  const usage = new LRUCache<string, UsageSnapshot>({ max, ttl: ttlMs });
  return {
    sessions,
    usage,
    tokenHashes: new LRUCache<string, string>({ max }),
    forget(scope) {
      if ('allUsage' in scope) {
        usage.clear();
        return;
      }
      if (scope.only !== 'usage') for (const [key, value] of sessions.entries()) if (value.user.id === scope.userId) sessions.delete(key);
      for (const key of usage.keys()) if (key.startsWith(`${scope.userId}:`)) usage.delete(key);
    },
  };
}

/** Forgets cached reads here and on every other API process. A no-op when the deps have no cache. */
export function invalidate(deps: ServiceDeps, scope: CacheScope): void {
  if (!deps.cache) return;
  deps.cache.forget(scope);
  deps.events.pubsub.publish('cacheInvalidated', CACHE_TOPIC, scope);
}

/**
 * Applies other processes' invalidations and ended credentials to this process's cache, for the life
 * of the event bus (like the websocket closer in graphql.ts, it ends with the bus's connections).
 */
export async function followInvalidations(deps: ServiceDeps): Promise<void> {
  const cache = deps.cache;
  if (!cache) return;
  const follow = async <T>(source: AsyncIterable<T>, apply: (event: T) => void) => {
    for await (const event of source) apply(event);
  };
  await Promise.all([
    follow(deps.events.pubsub.subscribe('cacheInvalidated', CACHE_TOPIC), (scope) => cache.forget(scope)),
    follow(deps.events.pubsub.subscribe('credentialEnded', CREDENTIAL_TOPIC), (ended) => cache.forget({ userId: ended.userId })),
  ]);
}
