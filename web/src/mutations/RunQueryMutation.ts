import { graphql, useMutation } from 'react-relay';
import type { RunQueryMutation as T } from '../__generated__/RunQueryMutation.graphql';

export const useRunQueryMutation = () =>
  useMutation<T>(graphql`
    mutation RunQueryMutation($input: RunQueryInput!) {
      runQuery(input: $input) {
        outcome
        resultCount
        hasError
        message
        query {
          id
        }
        usage {
          id
          ...UsagePanel_usage
        }
      }
    }
  `);
