import { graphql, useMutation } from 'react-relay';
import type { RunDailyMaintenanceMutation as T } from '../__generated__/RunDailyMaintenanceMutation.graphql';

export const useRunDailyMaintenanceMutation = () =>
  useMutation<T>(graphql`
    mutation RunDailyMaintenanceMutation {
      runDailyMaintenance {
        message
        retentionDays
        tasks {
          name
          count
        }
      }
    }
  `);
