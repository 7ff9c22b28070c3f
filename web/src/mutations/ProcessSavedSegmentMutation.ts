import { graphql, useMutation } from 'react-relay';
import type { ProcessSavedSegmentMutation as T } from '../__generated__/ProcessSavedSegmentMutation.graphql';

/** Count a saved segment now: the payload's segment carries its new latest count. */
export const useProcessSavedSegmentMutation = () =>
  useMutation<T>(graphql`
    mutation ProcessSavedSegmentMutation($input: SavedSegmentIdInput!) {
      processSavedSegment(input: $input) {
        savedSegment {
          id
          ...SavedSegmentItem_segment
        }
      }
    }
  `);
