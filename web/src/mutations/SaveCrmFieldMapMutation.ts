import { graphql, useMutation } from 'react-relay';
import type { SaveCrmFieldMapMutation as T } from '../__generated__/SaveCrmFieldMapMutation.graphql';

export const useSaveCrmFieldMapMutation = () =>
  useMutation<T>(graphql`
    mutation SaveCrmFieldMapMutation($input: SaveCrmFieldMapInput!) {
      saveCrmFieldMap(input: $input) {
        crmConnection {
          id
          ...CrmIntegrationDialog_connection
        }
      }
    }
  `);
