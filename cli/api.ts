// The CLI's connection to the server: GraphQL over HTTP and graphql-ws through the shared client
// transport, authenticated with the personal access token (`Authorization: Bearer`). Never the database.
import type { OperationType } from 'relay-runtime';
import WebSocket from 'ws';
import { createTransport, fromGraphQLErrors, type GraphQLErrorShape } from '../client/index.js';
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

export interface Api {
  readonly server: string;
  request<T extends OperationType>(op: Operation<T>, variables: T['variables']): Promise<T['response']>;
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
}

export function createApi(server: string, token?: string, opts: ApiOptions = {}): Api {
  const retrying = readRetrier({ onRetry: opts.onRetry ?? (() => {}), deadlineMs: opts.retryDeadlineMs });
  let onConnected = () => {};
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const transport = createTransport({
    url: graphqlUrl(server),
    token,
    clientName: 'crm-cli',
    // Node 20 has no global WebSocket.
    webSocketImpl: WebSocket,
    ws: { retryAttempts: 0, on: { connected: () => onConnected() } },
  });

  return {
    server,
    request: (op, variables) => retrying(op.kind === 'query', () => transport.request(op.text, variables as Record<string, unknown>)),
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
