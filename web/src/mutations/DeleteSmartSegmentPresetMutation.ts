// A deleted preset leaves every preset list in the store (all, each category).
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { DeleteSmartSegmentPresetMutation as T } from '../__generated__/DeleteSmartSegmentPresetMutation.graphql';
import { categoryVariants, removeFromRootList } from '../lib/root-lists';

export const useDeleteSmartSegmentPresetMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation DeleteSmartSegmentPresetMutation($input: DeleteSmartSegmentPresetInput!) {
      deleteSmartSegmentPreset(input: $input) {
        deletedId
      }
    }
  `);
  const remove = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({
        ...config,
        updater: (store) => {
          const id = store.getRootField('deleteSmartSegmentPreset')?.getValue('deletedId');
          if (typeof id === 'string') removeFromRootList(store, 'adminSmartSegmentPresets', (r) => r.getDataID() === id, categoryVariants(store));
        },
      }),
    [commit],
  );
  return [remove, inFlight] as const;
};
