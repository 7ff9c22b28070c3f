import { graphql, useMutation } from 'react-relay';
import type { RunCleanupMutation as T } from '../__generated__/RunCleanupMutation.graphql';

export const useRunCleanupMutation = () =>
  useMutation<T>(graphql`
    mutation RunCleanupMutation($input: RunCleanupInput!) {
      runCleanup(input: $input) {
        deletedCount
        message
        retentionDays
      }
    }
  `);
