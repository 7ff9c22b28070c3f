import { graphql, useMutation } from 'react-relay';
import type { RevokePersonalAccessTokenMutation as T } from '../__generated__/RevokePersonalAccessTokenMutation.graphql';

export const useRevokePersonalAccessTokenMutation = () =>
  useMutation<T>(graphql`
    mutation RevokePersonalAccessTokenMutation($id: ID!, $connections: [ID!]!) {
      revokePersonalAccessToken(input: { id: $id }) {
        revokedId @deleteEdge(connections: $connections) @deleteRecord
      }
    }
  `);
