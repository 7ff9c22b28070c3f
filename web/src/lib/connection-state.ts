// Whether the live-update websocket is up; polling fallbacks switch on while it is not.
import { useSyncExternalStore } from 'react';

type State = 'connected' | 'disconnected';
let state: State = 'disconnected';
const listeners = new Set<() => void>();

export const connectionState = {
  get: () => state,
  set(next: State) {
    if (next === state) return;
    state = next;
    for (const l of listeners) l();
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

export function useLiveConnection(): boolean {
  return useSyncExternalStore(connectionState.subscribe, connectionState.get) === 'connected';
}
