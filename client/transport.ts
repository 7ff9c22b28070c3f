// GraphQL transport shared by the web app and the CLI: queries and mutations over HTTP (fetch),
// subscriptions over graphql-ws. Browsers authenticate with the session cookie (same origin); the
// CLI sends a personal access token as `Authorization: Bearer` on HTTP and in the websocket's
// connection params. On Node 20, pass `webSocketImpl` (the `ws` package).
import type { Client as WsClient, ClientOptions } from 'graphql-ws';
import { fromGraphQLErrors, networkError, type GraphQLErrorShape } from './errors.js';

export interface GraphQLResponse<T = unknown> {
  data?: T | null;
  errors?: GraphQLErrorShape[];
  extensions?: Record<string, unknown>;
}

export interface TransportOptions {
  /** The server's GraphQL endpoint, e.g. http://127.0.0.1:3000/graphql (relative in a browser: /graphql). */
  url: string;
  /** A personal access token (CLI). Browsers leave it out and use their cookie. */
  token?: string;
  fetch?: typeof fetch;
  webSocketImpl?: unknown;
  /** graphql-ws options (retries, lazy, event listeners such as connected/closed). */
  ws?: Partial<ClientOptions>;
  /** Client name sent as a header, for the server's logs. */
  clientName?: string;
}

export interface Transport {
  /** The raw response (for Relay's network layer, which handles errors itself). */
  execute<T = unknown>(query: string, variables?: Record<string, unknown>, init?: { signal?: AbortSignal }): Promise<GraphQLResponse<T>>;
  /** The data, or a GraphQLClientError built from the first error. */
  request<T = unknown>(query: string, variables?: Record<string, unknown>, init?: { signal?: AbortSignal }): Promise<T>;
  /** Subscribes; returns a function that ends the subscription. */
  subscribe<T = unknown>(
    query: string,
    variables: Record<string, unknown> | undefined,
    sink: { next: (value: GraphQLResponse<T>) => void; error: (error: unknown) => void; complete: () => void },
  ): () => void;
  /** The websocket client (graphql-ws is loaded on first use, so pages without live data never load it). */
  websocket(): Promise<WsClient>;
  dispose(): Promise<void>;
}

const wsUrl = (httpUrl: string) => {
  const base = typeof location !== 'undefined' ? location.href : undefined;
  const u = new URL(httpUrl, base);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
};

export function createTransport(opts: TransportOptions): Transport {
  const doFetch = opts.fetch ?? fetch;
  const authorization = opts.token ? `Bearer ${opts.token}` : undefined;
  let ws: Promise<WsClient> | undefined;

  const execute = async <T>(query: string, variables?: Record<string, unknown>, init?: { signal?: AbortSignal }): Promise<GraphQLResponse<T>> => {
    let res: Response;
    try {
      res = await doFetch(opts.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...(authorization ? { authorization } : {}),
          ...(opts.clientName ? { 'x-client-name': opts.clientName } : {}),
        },
        body: JSON.stringify({ query, variables }),
        credentials: 'same-origin',
        signal: init?.signal,
      });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      throw networkError(`Could not reach the server at ${opts.url}: ${(err as Error)?.message ?? err}`);
    }
    const text = await res.text();
    let body: GraphQLResponse<T>;
    try {
      body = JSON.parse(text) as GraphQLResponse<T>;
    } catch {
      throw networkError(`The server answered ${res.status} ${res.statusText || ''} without a GraphQL response`.trim(), res.status);
    }
    if (!body || (body.data === undefined && !body.errors)) throw networkError(`The server answered ${res.status} without data`, res.status);
    return body;
  };

  return {
    execute,
    async request<T>(query: string, variables?: Record<string, unknown>, init?: { signal?: AbortSignal }) {
      const body = await execute<T>(query, variables, init);
      if (body.errors?.length) throw fromGraphQLErrors(body.errors);
      return body.data as T;
    },
    websocket() {
      ws ??= import('graphql-ws').then(({ createClient }) =>
        createClient({
          url: wsUrl(opts.url),
          ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
          connectionParams: authorization ? { authorization } : undefined,
          lazy: true,
          retryAttempts: Infinity,
          // graphql-ws retries with backoff; 4401/4403 (signed out, banned) are final: do not retry.
          shouldRetry: (e) => !(e && typeof e === 'object' && 'code' in e && [4401, 4403].includes((e as { code: number }).code)),
          ...opts.ws,
        }),
      );
      return ws;
    },
    subscribe(query, variables, sink) {
      let dispose: (() => void) | undefined;
      let cancelled = false;
      this.websocket().then(
        (client) => {
          if (!cancelled) dispose = client.subscribe({ query, variables }, sink as never);
        },
        (err) => sink.error(err),
      );
      return () => {
        cancelled = true;
        dispose?.();
      };
    },
    async dispose() {
      await (await ws)?.dispose();
    },
  };
}
