import { graphql, useMutation } from 'react-relay';
import type { AddFavoritePresetMutation } from '../__generated__/AddFavoritePresetMutation.graphql';
import type { RemoveFavoritePresetMutation } from '../__generated__/RemoveFavoritePresetMutation.graphql';

export const useAddFavoritePresetMutation = () =>
  useMutation<AddFavoritePresetMutation>(graphql`
    mutation AddFavoritePresetMutation($input: FavoritePresetInput!) {
      addFavoritePreset(input: $input) {
        preset {
          id
          isFavorite
        }
      }
    }
  `);

export const useRemoveFavoritePresetMutation = () =>
  useMutation<RemoveFavoritePresetMutation>(graphql`
    mutation RemoveFavoritePresetMutation($input: FavoritePresetInput!) {
      removeFavoritePreset(input: $input) {
        preset {
          id
          isFavorite
        }
      }
    }
  `);
