import { graphql, useMutation } from 'react-relay';
import type { RegisterMutation as T } from '../__generated__/RegisterMutation.graphql';

export const useRegisterMutation = () =>
  useMutation<T>(graphql`
    mutation RegisterMutation($input: RegisterInput!) {
      register(input: $input) {
        authStatus {
          authenticated
        }
        viewer {
          id
        }
      }
    }
  `);
