import { graphql, useMutation } from 'react-relay';
import type { UpdateSavedSegmentMutation as T } from '../__generated__/UpdateSavedSegmentMutation.graphql';

/** Rename / edit a saved segment: the payload's segment (name, description, new count) updates the store by id. */
export const useUpdateSavedSegmentMutation = () =>
  useMutation<T>(graphql`
    mutation UpdateSavedSegmentMutation($input: UpdateSavedSegmentInput!) {
      updateSavedSegment(input: $input) {
        savedSegment {
          id
          ...SavedSegmentItem_segment
        }
      }
    }
  `);
