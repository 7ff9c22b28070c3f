// A re-run is one round trip too: the payload carries the query as stored again (its history entry,
// conversation, how it was understood and its first page of customers) and the new usage.
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
          updatedAt
          resultsState
          ...HistoryItem_query
          ...ChatPanel_query
          ...UnderstoodPanel_query
          ...ResultsPanel_query
        }
        usage {
          id
          ...UsagePanel_usage
        }
      }
    }
  `);
