import { graphql, useMutation } from 'react-relay';
import type { DisconnectCrmMutation as T } from '../__generated__/DisconnectCrmMutation.graphql';

export const useDisconnectCrmMutation = () =>
  useMutation<T>(graphql`
    mutation DisconnectCrmMutation {
      disconnectCrm {
        crmConnection {
          id
          ...CrmIntegrationDialog_connection
          ...UserMenu_connection
        }
      }
    }
  `);
