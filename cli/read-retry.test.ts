import { describe, expect, it } from 'vitest';
import { GraphQLClientError, networkError } from '../client/errors.js';
import { isTransient, readRetrier } from './read-retry.js';

/** A request that answers `ok`, then fails with each error of `failures` in turn, then answers again. */
function flaky(failures: Error[]) {
  let calls = 0;
  const request = async () => {
    calls++;
    if (calls === 1) return 'first';
    const e = failures.shift();
    if (e) throw e;
    return 'back';
  };
  return { request, calls: () => calls };
}

describe('reads after the server went away', () => {
  it('a read is tried again until the server is back, and the user is told once per read', async () => {
    const told: number[] = [];
    const run = readRetrier({ onRetry: (_e, attempt) => told.push(attempt) });
    const server = flaky([networkError('connect ECONNREFUSED'), new GraphQLClientError('Service unavailable', 'SERVICE_UNAVAILABLE', {}, [], 503)]);
    expect(await run(true, server.request)).toBe('first');
    expect(await run(true, server.request)).toBe('back');
    expect(server.calls()).toBe(4);
    expect(told).toEqual([1, 2]);
  });

  it('a read the server did not answer in time is tried again too', () => {
    expect(isTransient(new GraphQLClientError('did not answer within 60 s', 'TIMEOUT'))).toBe(true);
  });

  it('a write is never sent twice', async () => {
    const run = readRetrier({ onRetry: () => {} });
    const server = flaky([networkError('socket hang up')]);
    await run(true, server.request);
    await expect(run(false, server.request)).rejects.toThrow('socket hang up');
    expect(server.calls()).toBe(2);
  });

  it('a server that never answered fails at once (the CLI exits 2 instead of waiting)', async () => {
    const run = readRetrier({ onRetry: () => {} });
    let calls = 0;
    await expect(
      run(true, async () => {
        calls++;
        throw networkError('connect ECONNREFUSED');
      }),
    ).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(1);
  });

  it('an answer the server meant (a refusal, bad input) is not retried', async () => {
    const run = readRetrier({ onRetry: () => {} });
    const server = flaky([new GraphQLClientError('Not found', 'NOT_FOUND')]);
    await run(true, server.request);
    await expect(run(true, server.request)).rejects.toThrow('Not found');
    expect(server.calls()).toBe(2);
  });

  it('gives up at the deadline with the last error', async () => {
    const run = readRetrier({ onRetry: () => {}, deadlineMs: 0 });
    const server = flaky([networkError('down'), networkError('still down')]);
    await run(true, server.request);
    await expect(run(true, server.request)).rejects.toThrow(/down/);
  });

  it('knows what is transient', () => {
    expect(isTransient(networkError('x'))).toBe(true);
    expect(isTransient(new GraphQLClientError('Bad gateway', 'INTERNAL_SERVER_ERROR', {}, [], 502))).toBe(true);
    expect(isTransient(new GraphQLClientError('No', 'FORBIDDEN', {}, [], 200))).toBe(false);
    expect(isTransient(new Error('plain'))).toBe(false);
  });
});
