import { graphql, useMutation } from 'react-relay';
import type { ChangePasswordMutation as T } from '../__generated__/ChangePasswordMutation.graphql';

export const useChangePasswordMutation = () =>
  useMutation<T>(graphql`
    mutation ChangePasswordMutation($input: ChangePasswordInput!) {
      changePassword(input: $input) {
        viewer {
          id
        }
      }
    }
  `);
