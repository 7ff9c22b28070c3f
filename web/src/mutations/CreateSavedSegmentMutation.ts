import { graphql, useMutation } from 'react-relay';
import type { CreateSavedSegmentMutation as T } from '../__generated__/CreateSavedSegmentMutation.graphql';

export const useCreateSavedSegmentMutation = () =>
  useMutation<T>(graphql`
    mutation CreateSavedSegmentMutation($input: CreateSavedSegmentInput!, $connections: [ID!]!) {
      createSavedSegment(input: $input) {
        savedSegment @prependNode(connections: $connections, edgeTypeName: "QuerySavedSegmentsConnectionEdge") {
          id
          ...SavedSegmentItem_segment
        }
      }
    }
  `);
