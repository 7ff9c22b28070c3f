import { describe, expect, it } from 'vitest';
import { connectionState } from './connection-state';

describe('connectionState.onReconnect', () => {
  it('fires when the websocket is up again after it was lost, never on the first connection', () => {
    const seen: string[] = [];
    const stop = connectionState.onReconnect(() => seen.push('reconnected'));
    connectionState.set('connected'); // the first connection: the screens' queries were just read
    expect(seen).toEqual([]);
    connectionState.set('connected'); // no change, no call
    connectionState.set('disconnected');
    expect(seen).toEqual([]);
    connectionState.set('connected'); // events sent while it was down are gone: read once
    expect(seen).toEqual(['reconnected']);
    connectionState.set('disconnected');
    connectionState.set('connected');
    expect(seen).toEqual(['reconnected', 'reconnected']);
    stop();
    connectionState.set('disconnected');
    connectionState.set('connected');
    expect(seen).toHaveLength(2);
  });
});
