// The new tier comes back whole and joins the tier list in the store (no re-read of the list).
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { CreatePricingTierMutation as T } from '../__generated__/CreatePricingTierMutation.graphql';
import { addToRootList } from '../lib/root-lists';

export const useCreatePricingTierMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation CreatePricingTierMutation($input: CreatePricingTierInput!) {
      createPricingTier(input: $input) {
        pricingTier {
          ...PricingTab_tier @relay(mask: false)
        }
      }
    }
  `);
  const create = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({ ...config, updater: (store) => addToRootList(store, 'pricingTiers', store.getRootField('createPricingTier')?.getLinkedRecord('pricingTier')) }),
    [commit],
  );
  return [create, inFlight] as const;
};
