// graphql-ws client that authenticates with the session cookie, like a browser on the same origin.
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';

export function wsClient(httpUrl: string, cookie: string): WsClient {
  class CookieWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie } });
    }
  }
  return createClient({ url: httpUrl.replace(/^http/, 'ws') + '/graphql', webSocketImpl: CookieWebSocket, lazy: false, retryAttempts: 0 });
}

/** Subscribes and collects payloads; `next(n)` waits until n results have arrived. */
export function collect<T>(client: WsClient, query: string) {
  const items: T[] = [];
  const errors: unknown[] = [];
  let waiters: (() => void)[] = [];
  const dispose = client.subscribe<T>(
    { query },
    {
      next: (v) => {
        if (v.errors?.length) errors.push(v.errors);
        else items.push(v.data as T);
        waiters.forEach((w) => w());
      },
      error: (e) => {
        errors.push(e);
        waiters.forEach((w) => w());
      },
      complete: () => {},
    },
  );
  return {
    items,
    errors,
    dispose,
    async next(n: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (items.length < n && !errors.length) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} events (got ${items.length})`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
        waiters = [];
      }
      if (errors.length) throw new Error(`subscription error: ${JSON.stringify(errors[0])}`);
      return items;
    },
  };
}
