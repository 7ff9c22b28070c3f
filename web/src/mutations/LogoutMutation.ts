import { graphql, useMutation } from 'react-relay';
import type { LogoutMutation as T } from '../__generated__/LogoutMutation.graphql';

export const useLogoutMutation = () =>
  useMutation<T>(graphql`
    mutation LogoutMutation {
      logout {
        authStatus {
          authenticated
        }
      }
    }
  `);
