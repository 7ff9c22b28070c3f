// The new category comes back with what the categories table shows and joins the list in the store.
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { CreateSmartSegmentCategoryMutation as T } from '../__generated__/CreateSmartSegmentCategoryMutation.graphql';
import { addToRootList } from '../lib/root-lists';

export const useCreateSmartSegmentCategoryMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation CreateSmartSegmentCategoryMutation($input: CreateSmartSegmentCategoryInput!) {
      createSmartSegmentCategory(input: $input) {
        category {
          id
          name
          displayName
          ...CategoriesPanel_categories
        }
      }
    }
  `);
  const create = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({
        ...config,
        updater: (store) => addToRootList(store, 'adminSmartSegmentCategories', store.getRootField('createSmartSegmentCategory')?.getLinkedRecord('category')),
      }),
    [commit],
  );
  return [create, inFlight] as const;
};
