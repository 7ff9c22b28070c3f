import { graphql, useMutation } from 'react-relay';
import type { GenerateSmartSegmentsMutation as T } from '../__generated__/GenerateSmartSegmentsMutation.graphql';

/** Today's segments for every eligible user (no input), queued on the job workers: the answer is the
 * run at its start (runId); progress and the end come from `generationProgress`. */
export const useGenerateSmartSegmentsMutation = () =>
  useMutation<T>(graphql`
    mutation GenerateSmartSegmentsMutation {
      generateSmartSegments {
        stats {
          runId
          users
          completedUsers
          totalSegments
          successCount
          failedCount
        }
      }
    }
  `);
