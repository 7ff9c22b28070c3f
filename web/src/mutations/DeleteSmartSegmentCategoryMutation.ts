// A deleted category leaves the categories list; its formulas went with it (the database cascades), so
// they leave the formula lists too. (A category with presets is refused by the server.)
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { DeleteSmartSegmentCategoryMutation as T } from '../__generated__/DeleteSmartSegmentCategoryMutation.graphql';
import { categoryOf, categoryVariants, removeFromRootList } from '../lib/root-lists';

export const useDeleteSmartSegmentCategoryMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation DeleteSmartSegmentCategoryMutation($input: DeleteSmartSegmentCategoryInput!) {
      deleteSmartSegmentCategory(input: $input) {
        deletedId
      }
    }
  `);
  const remove = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({
        ...config,
        updater: (store) => {
          const id = store.getRootField('deleteSmartSegmentCategory')?.getValue('deletedId');
          if (typeof id !== 'string') return;
          const variants = categoryVariants(store);
          removeFromRootList(store, 'adminImpactScoreFormulas', (f) => categoryOf(f) === id, variants);
          removeFromRootList(store, 'adminSmartSegmentCategories', (c) => c.getDataID() === id);
        },
      }),
    [commit],
  );
  return [remove, inFlight] as const;
};
