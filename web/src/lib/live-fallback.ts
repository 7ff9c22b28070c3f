// What a live screen does when the websocket cannot tell it about changes: events carry their records
// while it is up (subscriptions normalise them into the store by id), so a screen reads its query again
// only (a) every `pollMs` while the websocket is down — the spec's polling intervals (§9) — and (b) once
// when the websocket comes back after having been up, since the events sent meanwhile are gone.
import { useEffect, useRef } from 'react';
import { connectionState, useLiveConnection } from './connection-state';

export function useLiveFallback(refresh: () => void, pollMs: number) {
  const live = useLiveConnection();
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => connectionState.onReconnect(() => latest.current()), []);
  useEffect(() => {
    if (live) return;
    const timer = setInterval(() => latest.current(), pollMs);
    return () => clearInterval(timer);
  }, [live, pollMs]);
}
