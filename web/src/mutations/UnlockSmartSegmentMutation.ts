import { graphql, useMutation } from 'react-relay';
import type { UnlockSmartSegmentMutation as T } from '../__generated__/UnlockSmartSegmentMutation.graphql';

/** Unlocks a generated segment; the returned usage updates the sidebar's meters at once. */
export const useUnlockSmartSegmentMutation = () =>
  useMutation<T>(graphql`
    mutation UnlockSmartSegmentMutation($input: SmartSegmentIdInput!) {
      unlockSmartSegment(input: $input) {
        dailySegment {
          id
          isUnlocked
          unlockedAt
        }
        usage {
          id
          smartSegmentsUsed
          smartSegmentLimit
          ...UsagePanel_usage
          ...SmartSegmentsPage_usage
        }
      }
    }
  `);
