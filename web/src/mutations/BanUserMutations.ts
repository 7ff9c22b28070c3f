import { graphql, useMutation } from 'react-relay';
import type { BanUserMutation } from '../__generated__/BanUserMutation.graphql';
import type { UnbanUserMutation } from '../__generated__/UnbanUserMutation.graphql';

/** Bans a user (their sessions and tokens end at once); the row's status updates from the payload. */
export const useBanUserMutation = () =>
  useMutation<BanUserMutation>(graphql`
    mutation BanUserMutation($input: BanUserInput!) {
      banUser(input: $input) {
        user {
          id
          isBanned
          bannedAt
          banReason
        }
      }
    }
  `);

export const useUnbanUserMutation = () =>
  useMutation<UnbanUserMutation>(graphql`
    mutation UnbanUserMutation($input: UnbanUserInput!) {
      unbanUser(input: $input) {
        user {
          id
          isBanned
          bannedAt
          banReason
        }
      }
    }
  `);
