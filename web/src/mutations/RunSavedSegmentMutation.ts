import { graphql, useMutation } from 'react-relay';
import type { RunSavedSegmentMutation as T } from '../__generated__/RunSavedSegmentMutation.graphql';

export const useRunSavedSegmentMutation = () =>
  useMutation<T>(graphql`
    mutation RunSavedSegmentMutation($input: SavedSegmentIdInput!) {
      runSavedSegment(input: $input) {
        resultCount
        hasError
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
