import { graphql, useMutation } from 'react-relay';
import type { DeleteSmartSegmentPresetMutation as T } from '../__generated__/DeleteSmartSegmentPresetMutation.graphql';

export const useDeleteSmartSegmentPresetMutation = () =>
  useMutation<T>(graphql`
    mutation DeleteSmartSegmentPresetMutation($input: DeleteSmartSegmentPresetInput!) {
      deleteSmartSegmentPreset(input: $input) {
        deletedId
      }
    }
  `);
