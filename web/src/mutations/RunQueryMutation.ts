// A question is one round trip: the payload carries the answer (outcome, message, a clarification),
// the new history entry (prepended to the history connection; the queries it pushed out of the 50 kept
// are removed), the query's first page of customers and the new usage. Nothing is read again after it.
import { graphql, useMutation } from 'react-relay';
import { ConnectionHandler, ROOT_ID } from 'relay-runtime';
import type { RunQueryMutation as T } from '../__generated__/RunQueryMutation.graphql';

/** The history connection of the assistant screen (MainPage's queryHistory @connection). */
export const historyConnectionId = () => ConnectionHandler.getConnectionID(ROOT_ID, 'MainPage_queryHistory');

export const useRunQueryMutation = () =>
  useMutation<T>(graphql`
    mutation RunQueryMutation($input: RunQueryInput!, $connections: [ID!]!) {
      runQuery(input: $input) {
        outcome
        resultCount
        hasError
        message
        query @prependNode(connections: $connections, edgeTypeName: "QueryQueryHistoryConnectionEdge") {
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
        removedQueryIds @deleteEdge(connections: $connections)
        clarification {
          message
          notUnderstood
          issues {
            kind
            phrase
            message
          }
          understood {
            ...UnderstoodChips_definition @relay(mask: false)
          }
          choices {
            index
            id
            label
            explanation
            asUnderstood
          }
        }
        usage {
          id
          ...UsagePanel_usage
        }
      }
    }
  `);
