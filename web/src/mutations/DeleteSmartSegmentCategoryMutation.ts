import { graphql, useMutation } from 'react-relay';
import type { DeleteSmartSegmentCategoryMutation as T } from '../__generated__/DeleteSmartSegmentCategoryMutation.graphql';

export const useDeleteSmartSegmentCategoryMutation = () =>
  useMutation<T>(graphql`
    mutation DeleteSmartSegmentCategoryMutation($input: DeleteSmartSegmentCategoryInput!) {
      deleteSmartSegmentCategory(input: $input) {
        deletedId
      }
    }
  `);
