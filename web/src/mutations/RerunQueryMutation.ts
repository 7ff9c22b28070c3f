import { graphql, useMutation } from 'react-relay';
import type { RerunQueryMutation as T } from '../__generated__/RerunQueryMutation.graphql';

export const useRerunQueryMutation = () =>
  useMutation<T>(graphql`
    mutation RerunQueryMutation($input: RerunQueryInput!) {
      rerunQuery(input: $input) {
        resultCount
        hasError
        message
        query {
          id
          resultCount
          hasError
          ...HistoryItem_query
          ...ChatPanel_query
          ...UnderstoodPanel_query
        }
        usage {
          id
          ...UsagePanel_usage
        }
      }
    }
  `);
