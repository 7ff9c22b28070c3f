import { graphql, useMutation } from 'react-relay';
import type { CreateImpactScoreFormulaMutation as T } from '../__generated__/CreateImpactScoreFormulaMutation.graphql';

export const useCreateImpactScoreFormulaMutation = () =>
  useMutation<T>(graphql`
    mutation CreateImpactScoreFormulaMutation($input: CreateImpactScoreFormulaInput!) {
      createImpactScoreFormula(input: $input) {
        formula {
          id
          name
          isActive
        }
      }
    }
  `);
