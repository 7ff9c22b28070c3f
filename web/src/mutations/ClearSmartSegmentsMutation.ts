import { graphql, useMutation } from 'react-relay';
import type { ClearSmartSegmentsMutation as T } from '../__generated__/ClearSmartSegmentsMutation.graphql';

export const useClearSmartSegmentsMutation = () =>
  useMutation<T>(graphql`
    mutation ClearSmartSegmentsMutation($input: ClearSmartSegmentsInput!) {
      clearSmartSegments(input: $input) {
        deletedCount
      }
    }
  `);
