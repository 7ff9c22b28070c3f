// The new preset comes back with what the presets table shows and joins the lists it belongs to (all, its category).
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { CreateSmartSegmentPresetMutation as T } from '../__generated__/CreateSmartSegmentPresetMutation.graphql';
import { addToRootList, categoryOf } from '../lib/root-lists';

export const useCreateSmartSegmentPresetMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation CreateSmartSegmentPresetMutation($input: CreateSmartSegmentPresetInput!) {
      createSmartSegmentPreset(input: $input) {
        preset {
          id
          name
          description
          isActive
          sortOrder
          category {
            id
            displayName
          }
        }
      }
    }
  `);
  const create = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({
        ...config,
        updater: (store) => {
          const record = store.getRootField('createSmartSegmentPreset')?.getLinkedRecord('preset');
          const category = record && categoryOf(record);
          addToRootList(store, 'adminSmartSegmentPresets', record, category ? [{}, { categoryId: category }] : [{}]);
        },
      }),
    [commit],
  );
  return [create, inFlight] as const;
};
