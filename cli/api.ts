// The CLI's connection to the server: GraphQL over HTTP and graphql-ws through the shared client
// transport, authenticated with the personal access token (`Authorization: Bearer`). Never the database.
import type { OperationType } from 'relay-runtime';
import WebSocket from 'ws';
import { createTransport, fromGraphQLErrors, GraphQLClientError, type GraphQLErrorShape } from '../client/index.js';
import { graphql, operation, type Operation } from './graphql.js';
import { readRetrier } from './read-retry.js';
import apiPingNode, { type apiPingQuery } from './__generated__/apiPingQuery.graphql.js';

/** A round trip on the websocket: the server has taken the messages sent before it. */
const Ping = operation<apiPingQuery>(
  apiPingNode,
  graphql`
    query apiPingQuery {
      authStatus {
        authenticated
      }
    }
  `,
);

export interface RequestOptions {
  /**
   * Ends the request instead of the timeout (a caller that knows the server is alive, e.g. from
   * progress events, gives up when they stop); abort it with timedOut() to report a timeout.
   */
  signal?: AbortSignal;
}

export interface Api {
  readonly server: string;
  request<T extends OperationType>(op: Operation<T>, variables: T['variables'], opts?: RequestOptions): Promise<T['response']>;
  /** Delivers a subscription's events to `onNext` as they come. */
  subscribe<T extends OperationType>(op: Operation<T>, variables: T['variables'], onNext: (data: T['response']) => void): Subscription;
  dispose(): Promise<void>;
}

export interface Subscription {
  /**
   * Resolves once the server has the subscription (or it has ended): after the socket is connected, a
   * query sent behind the subscription on the same socket has come back. graphql-ws does not
   * acknowledge a subscription; without this, events of work started at once could be missed.
   */
  ready: Promise<void>;
  /** Resolves when the server completes the subscription; rejects with its error. */
  ended: Promise<void>;
  stop(): void;
}

export const graphqlUrl = (server: string) => new URL('/graphql', server).toString();

export interface ApiOptions {
  /** Told when a read is tried again because the server went away mid-command. */
  onRetry?: (error: Error, attempt: number) => void;
  /** How long a read keeps trying (default: CRM_RETRY_SECONDS or 60 s). */
  retryDeadlineMs?: number;
  /** How long one request may take (HTTP, and the websocket's handshake and acknowledgement). */
  timeoutMs: number;
}

/** The reason to abort a request with when the server took too long. */
export const TIMED_OUT = 'timed out';

/** A request (or the websocket) the server did not answer in time: exit 2; a read may be tried again. */
export function timeoutError(server: string, ms: number, kind: Operation<OperationType>['kind']): GraphQLClientError {
  const maybeDone = kind === 'mutation' ? ' (what was asked may still be done there)' : '';
  return new GraphQLClientError(
    `The server at ${server} did not answer within ${ms / 1000} s${maybeDone}. Try again, or give it longer with --timeout <seconds> or CRM_TIMEOUT`,
    'TIMEOUT',
  );
}

export function createApi(server: string, token: string | undefined, opts: ApiOptions): Api {
  const retrying = readRetrier({ onRetry: opts.onRetry ?? (() => {}), deadlineMs: opts.retryDeadlineMs });
  let onConnected = () => {};
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const transport = createTransport({
    url: graphqlUrl(server),
    token,
    clientName: 'crm-cli',
    // Node 20 has no global WebSocket; ws's own option bounds the handshake.
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { handshakeTimeout: opts.timeoutMs });
      }
    },
    ws: { retryAttempts: 0, connectionAckWaitTimeout: opts.timeoutMs, on: { connected: () => onConnected() } },
  });

  async function once<T extends OperationType>(op: Operation<T>, variables: T['variables'], given?: AbortSignal): Promise<T['response']> {
    const signal = given ?? AbortSignal.timeout(opts.timeoutMs);
    try {
      return await transport.request(op.text, variables as Record<string, unknown>, { signal });
    } catch (err) {
      // Aborted while waiting for the answer or while reading it.
      if (signal.aborted && (!given || signal.reason === TIMED_OUT)) throw timeoutError(server, opts.timeoutMs, op.kind);
      throw err;
    }
  }

  return {
    server,
    request: (op, variables, requestOpts) => retrying(op.kind === 'query', () => once(op, variables, requestOpts?.signal)),
    subscribe(op, variables, onNext) {
      let stop = () => {};
      const ended = new Promise<void>((resolve, reject) => {
        stop = transport.subscribe(op.text, variables as Record<string, unknown>, {
          next: (value) => (value.errors?.length ? reject(fromGraphQLErrors(value.errors)) : onNext(value.data as never)),
          error: (err) => reject(Array.isArray(err) ? fromGraphQLErrors(err as GraphQLErrorShape[]) : err),
          complete: resolve,
        });
      });
      const registered = connected.then(
        () => new Promise<void>((resolve) => transport.subscribe(Ping.text, {}, { next: () => {}, error: () => resolve(), complete: resolve })),
      );
      return { ready: Promise.race([registered, ended.catch(() => {})]), ended, stop: () => stop() };
    },
    dispose: () => transport.dispose(),
  };
}
