import { graphql, useMutation } from 'react-relay';
import type { GenerateSmartSegmentsMutation as T } from '../__generated__/GenerateSmartSegmentsMutation.graphql';

/** Today's segments for every eligible user (no input); progress comes from `generationProgress`; a run
 * queued on the job workers answers at once (queued, runId) and ends with its last progress event. */
export const useGenerateSmartSegmentsMutation = () =>
  useMutation<T>(graphql`
    mutation GenerateSmartSegmentsMutation {
      generateSmartSegments {
        stats {
          runId
          queued
          users
          completedUsers
          totalSegments
          successCount
          failedCount
        }
      }
    }
  `);
