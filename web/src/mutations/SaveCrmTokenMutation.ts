import { graphql, useMutation } from 'react-relay';
import type { SaveCrmTokenMutation as T } from '../__generated__/SaveCrmTokenMutation.graphql';

export const useSaveCrmTokenMutation = () =>
  useMutation<T>(graphql`
    mutation SaveCrmTokenMutation($input: SaveCrmTokenInput!) {
      saveCrmToken(input: $input) {
        crmConnection {
          id
          ...CrmIntegrationDialog_connection
          ...UserMenu_connection
        }
      }
    }
  `);
