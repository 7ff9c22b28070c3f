// A deleted formula leaves every formula list in the store (all, each category).
import { useCallback } from 'react';
import { graphql, useMutation, type UseMutationConfig } from 'react-relay';
import type { DeleteImpactScoreFormulaMutation as T } from '../__generated__/DeleteImpactScoreFormulaMutation.graphql';
import { categoryVariants, removeFromRootList } from '../lib/root-lists';

export const useDeleteImpactScoreFormulaMutation = () => {
  const [commit, inFlight] = useMutation<T>(graphql`
    mutation DeleteImpactScoreFormulaMutation($input: DeleteImpactScoreFormulaInput!) {
      deleteImpactScoreFormula(input: $input) {
        deletedId
      }
    }
  `);
  const remove = useCallback(
    (config: UseMutationConfig<T>) =>
      commit({
        ...config,
        updater: (store) => {
          const id = store.getRootField('deleteImpactScoreFormula')?.getValue('deletedId');
          if (typeof id === 'string') removeFromRootList(store, 'adminImpactScoreFormulas', (r) => r.getDataID() === id, categoryVariants(store));
        },
      }),
    [commit],
  );
  return [remove, inFlight] as const;
};
