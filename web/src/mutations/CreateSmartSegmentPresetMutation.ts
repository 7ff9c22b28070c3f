import { graphql, useMutation } from 'react-relay';
import type { CreateSmartSegmentPresetMutation as T } from '../__generated__/CreateSmartSegmentPresetMutation.graphql';

export const useCreateSmartSegmentPresetMutation = () =>
  useMutation<T>(graphql`
    mutation CreateSmartSegmentPresetMutation($input: CreateSmartSegmentPresetInput!) {
      createSmartSegmentPreset(input: $input) {
        preset {
          id
          name
        }
      }
    }
  `);
