// The auth check behind the route table (spec §2): signed-out visitors go to /auth, signed-in users
// are sent away from /auth, /login and /register. Read from the Relay store when it is there.
import { commitLocalUpdate, fetchQuery, graphql } from 'relay-runtime';
import { redirect } from 'react-router-dom';
import { getEnvironment } from '../relay/environment';
import type { authCheckQuery } from '../__generated__/authCheckQuery.graphql';

const query = graphql`
  query authCheckQuery {
    authStatus {
      authenticated
      user {
        id
        isAdmin
      }
    }
  }
`;

export async function currentAuth() {
  const data = await fetchQuery<authCheckQuery>(getEnvironment(), query, {}, { fetchPolicy: 'store-or-network' }).toPromise();
  return data?.authStatus ?? { authenticated: false, user: null };
}

export async function requireSignedIn() {
  const auth = await currentAuth();
  if (!auth.authenticated) throw redirect('/auth');
  return auth;
}

export async function requireSignedOut() {
  const auth = await currentAuth();
  if (auth.authenticated) throw redirect('/');
  return null;
}

/**
 * Records a sign-out in the store, so the /auth loader (which reads the store first) lets the user in
 * before the environment is replaced.
 */
export function markSignedOut() {
  commitLocalUpdate(getEnvironment(), (store) => {
    const status = store.getRoot().getLinkedRecord('authStatus');
    status?.setValue(false, 'authenticated');
    status?.setValue(null, 'user');
  });
}
