import { graphql, useMutation } from 'react-relay';
import type { UpdatePricingTierMutation as T } from '../__generated__/UpdatePricingTierMutation.graphql';

export const useUpdatePricingTierMutation = () =>
  useMutation<T>(graphql`
    mutation UpdatePricingTierMutation($input: UpdatePricingTierInput!) {
      updatePricingTier(input: $input) {
        pricingTier {
          ...PricingTab_tier @relay(mask: false)
        }
      }
    }
  `);
