import { graphql, useMutation } from 'react-relay';
import type { DeleteSavedSegmentMutation as T } from '../__generated__/DeleteSavedSegmentMutation.graphql';

export const useDeleteSavedSegmentMutation = () =>
  useMutation<T>(graphql`
    mutation DeleteSavedSegmentMutation($input: SavedSegmentIdInput!, $connections: [ID!]!) {
      deleteSavedSegment(input: $input) {
        deletedId @deleteEdge(connections: $connections) @deleteRecord
      }
    }
  `);
