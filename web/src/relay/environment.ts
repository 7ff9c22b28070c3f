// The Relay environment: queries and mutations over HTTP, subscriptions over graphql-ws, both through
// the shared client transport (same origin, the session cookie authenticates). Sign-out replaces the
// environment, which drops every cached record (spec: "Logout clears cached data").
import { Environment, Network, Observable, RecordSource, ROOT_ID, Store, type FetchFunction, type MissingFieldHandler, type SubscribeFunction } from 'relay-runtime';
import { fromGraphQLErrors } from '../../../client/errors.js';
import { createTransport, type Transport } from '../../../client/transport.js';
import { connectionState } from '../lib/connection-state';

function createNetwork(transport: Transport) {
  const fetchFn: FetchFunction = async (params, variables) => {
    const response = await transport.execute(params.text ?? '', variables);
    // A response without data is a failure (the first error becomes a GraphQLClientError with its code).
    if (response.errors?.length && (!response.data || Object.values(response.data).every((v) => v === null))) {
      throw fromGraphQLErrors(response.errors);
    }
    return response as never;
  };
  const subscribe: SubscribeFunction = (params, variables) =>
    Observable.create((sink) =>
      transport.subscribe(params.text ?? '', variables, {
        next: (value) => (value.errors?.length ? sink.error(fromGraphQLErrors(value.errors)) : sink.next(value as never)),
        error: (err) => sink.error(err instanceof Error ? err : new Error('Subscription failed')),
        complete: () => sink.complete(),
      }),
    );
  return Network.create(fetchFn, subscribe);
}

/**
 * A record the store holds is found by its id, also through a root field that asks for it by id
 * (`node(id)`, `customerQuery(id)`): the query a run's payload carried is shown without a request.
 */
const missingFieldHandlers: MissingFieldHandler[] = [
  {
    kind: 'linked',
    handle: (field, record, args) => (record?.getDataID() === ROOT_ID && ['node', 'customerQuery'].includes(field.name) && typeof args.id === 'string' ? args.id : undefined),
  },
];

function createEnvironment(): { environment: Environment; transport: Transport } {
  const transport = createTransport({
    url: '/graphql',
    ws: {
      on: {
        connected: () => connectionState.set('connected'),
        closed: (event) => {
          connectionState.set('disconnected');
          // 4401/4403: the server ended this session (sign-out elsewhere, ban).
          const code = (event as { code?: number } | undefined)?.code;
          if ((code === 4401 || code === 4403) && !signingOut) for (const l of sessionListeners) l();
        },
        error: () => connectionState.set('disconnected'),
      },
    },
  });
  const environment = new Environment({ network: createNetwork(transport), store: new Store(new RecordSource()), missingFieldHandlers });
  return { environment, transport };
}

const sessionListeners = new Set<() => void>();
/** A sign-out this tab started: the 4401 that follows it is expected, not "your session has ended". */
let signingOut = false;
export function expectSignOut(value: boolean) {
  signingOut = value;
}

/** Called when the server closes the live connection because the session ended. */
export function onSessionEnded(listener: () => void) {
  sessionListeners.add(listener);
  return () => {
    sessionListeners.delete(listener);
  };
}

let current = createEnvironment();
const listeners = new Set<() => void>();

export const getEnvironment = () => current.environment;

/**
 * After a sign-out the cache is dropped only once the signed-in screens are gone: replacing the
 * environment under them would make them fetch again, signed out. SignedInLayout calls
 * `resetIfSignedOut` when it unmounts.
 */
let resetPending = false;
export function resetAfterSignedInScreens() {
  resetPending = true;
}
export function resetIfSignedOut() {
  if (!resetPending) return;
  resetPending = false;
  resetEnvironment();
}

/** Drops every cached record and the websocket (after sign-in or sign-out). */
export function resetEnvironment() {
  void current.transport.dispose();
  connectionState.set('disconnected');
  current = createEnvironment();
  signingOut = false;
  for (const l of listeners) l();
}

export function onEnvironmentReset(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A GraphQL request outside the Relay store, for bulk reads that need no caching (a segment's
 * thousands of customers for a CSV): the data, or a GraphQLClientError.
 */
export const requestUncached = <T>(query: string, variables?: Record<string, unknown>) => current.transport.request<T>(query, variables);
