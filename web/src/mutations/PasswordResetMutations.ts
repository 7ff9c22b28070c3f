import { graphql, useMutation } from 'react-relay';
import type { RequestPasswordResetMutation } from '../__generated__/RequestPasswordResetMutation.graphql';
import type { ResetPasswordMutation } from '../__generated__/ResetPasswordMutation.graphql';
import type { SendPasswordResetMutation } from '../__generated__/SendPasswordResetMutation.graphql';

/** "Forgot password?": the answer is the same for every address. */
export const useRequestPasswordResetMutation = () =>
  useMutation<RequestPasswordResetMutation>(graphql`
    mutation RequestPasswordResetMutation($input: RequestPasswordResetInput!) {
      requestPasswordReset(input: $input) {
        message
      }
    }
  `);

/** Sets the new password with the link's token. */
export const useResetPasswordMutation = () =>
  useMutation<ResetPasswordMutation>(graphql`
    mutation ResetPasswordMutation($input: ResetPasswordInput!) {
      resetPassword(input: $input) {
        email
      }
    }
  `);

/** An administrator e-mails a user a reset link. */
export const useSendPasswordResetMutation = () =>
  useMutation<SendPasswordResetMutation>(graphql`
    mutation SendPasswordResetMutation($input: SendPasswordResetInput!) {
      sendPasswordReset(input: $input) {
        user {
          id
        }
      }
    }
  `);
