import { graphql, useMutation } from 'react-relay';
import type { CreateSmartSegmentCategoryMutation as T } from '../__generated__/CreateSmartSegmentCategoryMutation.graphql';

export const useCreateSmartSegmentCategoryMutation = () =>
  useMutation<T>(graphql`
    mutation CreateSmartSegmentCategoryMutation($input: CreateSmartSegmentCategoryInput!) {
      createSmartSegmentCategory(input: $input) {
        category {
          id
          name
          displayName
        }
      }
    }
  `);
