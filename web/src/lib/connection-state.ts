// Whether the live-update websocket is up; polling fallbacks switch on while it is not.
import { useSyncExternalStore } from 'react';

type State = 'connected' | 'disconnected';
let state: State = 'disconnected';
/** How many times the websocket has connected in this page's life. */
let connections = 0;
const listeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();

export const connectionState = {
  get: () => state,
  set(next: State) {
    if (next === state) return;
    state = next;
    if (next === 'connected') connections++;
    for (const l of listeners) l();
    if (next === 'connected' && connections > 1) for (const l of reconnectListeners) l();
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  /** Called when the websocket is up again after it was lost (events sent meanwhile are gone); not on the first connection. */
  onReconnect(l: () => void) {
    reconnectListeners.add(l);
    return () => void reconnectListeners.delete(l);
  },
};

export function useLiveConnection(): boolean {
  return useSyncExternalStore(connectionState.subscribe, connectionState.get) === 'connected';
}
