import { graphql, useMutation } from 'react-relay';
import type { CreatePricingTierMutation as T } from '../__generated__/CreatePricingTierMutation.graphql';

export const useCreatePricingTierMutation = () =>
  useMutation<T>(graphql`
    mutation CreatePricingTierMutation($input: CreatePricingTierInput!) {
      createPricingTier(input: $input) {
        pricingTier {
          ...PricingTab_tier @relay(mask: false)
        }
      }
    }
  `);
