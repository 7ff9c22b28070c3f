// The new formula comes back with what the formulas table shows and joins the lists it belongs to (all, its category).
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { CreateImpactScoreFormulaMutation as T } from '../__generated__/CreateImpactScoreFormulaMutation.graphql';
import { addToRootList, categoryOf } from '../lib/root-lists';

export const useCreateImpactScoreFormulaMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation CreateImpactScoreFormulaMutation($input: CreateImpactScoreFormulaInput!) {
      createImpactScoreFormula(input: $input) {
        formula {
          id
          name
          formula
          isActive
          category {
            id
            displayName
          }
        }
      }
    }
  `);
  const create = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({
        ...config,
        updater: (store) => {
          const record = store.getRootField('createImpactScoreFormula')?.getLinkedRecord('formula');
          const category = record && categoryOf(record);
          addToRootList(store, 'adminImpactScoreFormulas', record, category ? [{}, { categoryId: category }] : [{}]);
        },
      }),
    [commit],
  );
  return [create, inFlight] as const;
};
