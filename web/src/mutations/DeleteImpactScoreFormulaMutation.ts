import { graphql, useMutation } from 'react-relay';
import type { DeleteImpactScoreFormulaMutation as T } from '../__generated__/DeleteImpactScoreFormulaMutation.graphql';

export const useDeleteImpactScoreFormulaMutation = () =>
  useMutation<T>(graphql`
    mutation DeleteImpactScoreFormulaMutation($input: DeleteImpactScoreFormulaInput!) {
      deleteImpactScoreFormula(input: $input) {
        deletedId
      }
    }
  `);
