import { graphql, useMutation } from 'react-relay';
import type { GenerateSmartSegmentsMutation as T } from '../__generated__/GenerateSmartSegmentsMutation.graphql';

/** Today's segments for every eligible user (no input); progress comes from `generationProgress`. */
export const useGenerateSmartSegmentsMutation = () =>
  useMutation<T>(graphql`
    mutation GenerateSmartSegmentsMutation {
      generateSmartSegments {
        stats {
          users
          completedUsers
          totalSegments
          successCount
          failedCount
        }
      }
    }
  `);
