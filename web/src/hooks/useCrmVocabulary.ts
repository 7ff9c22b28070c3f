// The user's CRM values for suggestions while typing a question (issue 25): read once per session and CRM
// connection — one request, shared by every question box, never one per keystroke. The cache lives with the
// Relay environment, which sign-out replaces, so another user never sees these values.
import { useEffect, useState } from 'react';
import { useRelayEnvironment } from 'react-relay';
import { fetchQuery, graphql, type IEnvironment } from 'relay-runtime';
import type { VocabularyLists } from '../../../client/completion.js';
import type { useCrmVocabularyQuery } from '../__generated__/useCrmVocabularyQuery.graphql';

const query = graphql`
  query useCrmVocabularyQuery {
    crmVocabulary {
      companies
      cities
      states
      countries
    }
  }
`;

const loads = new WeakMap<IEnvironment, Map<string, Promise<VocabularyLists | null>>>();

function load(environment: IEnvironment, key: string): Promise<VocabularyLists | null> {
  let perKey = loads.get(environment);
  if (!perKey) loads.set(environment, (perKey = new Map()));
  let pending = perKey.get(key);
  if (!pending) {
    pending = fetchQuery<useCrmVocabularyQuery>(environment, query, {}, { fetchPolicy: 'network-only' })
      .toPromise()
      .then((d) => d?.crmVocabulary ?? null)
      // suggestions are a help: without them the box still takes questions, and the next screen tries again
      .catch(() => {
        perKey.delete(key);
        return null;
      });
    perKey.set(key, pending);
  }
  return pending;
}

/** The CRM's values, or null while they load, when no CRM is connected (`connectionKey` null) or they failed. */
export function useCrmVocabulary(connectionKey: string | null): VocabularyLists | null {
  const environment = useRelayEnvironment();
  const [loaded, setLoaded] = useState<{ key: string; lists: VocabularyLists | null } | null>(null);
  useEffect(() => {
    if (!connectionKey) return;
    let live = true;
    void load(environment, connectionKey).then((lists) => live && setLoaded({ key: connectionKey, lists }));
    return () => {
      live = false;
    };
  }, [environment, connectionKey]);
  return connectionKey && loaded?.key === connectionKey ? loaded.lists : null;
}
