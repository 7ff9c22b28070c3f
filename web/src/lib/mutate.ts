// Promise wrapper around a Relay mutation commit, so forms can await and catch in one place.
import type { MutationParameters } from 'relay-runtime';
import type { UseMutationConfig } from 'react-relay';

export function mutate<T extends MutationParameters>(
  commit: (config: UseMutationConfig<T>) => unknown,
  config: Omit<UseMutationConfig<T>, 'onCompleted' | 'onError'>,
): Promise<T['response']> {
  return new Promise((resolve, reject) => {
    commit({
      ...config,
      onCompleted: (response, errors) => (errors?.length && !response ? reject(errors[0]) : resolve(response)),
      onError: reject,
    });
  });
}
