import { graphql, useMutation } from 'react-relay';
import type { LoginMutation as T } from '../__generated__/LoginMutation.graphql';

export const useLoginMutation = () =>
  useMutation<T>(graphql`
    mutation LoginMutation($input: LoginInput!) {
      login(input: $input) {
        authStatus {
          authenticated
        }
        viewer {
          id
          firstName
        }
      }
    }
  `);
