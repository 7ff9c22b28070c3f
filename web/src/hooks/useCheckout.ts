// Opens the Paddle checkout for the viewer's next plan, with the spec's toasts on failure.
import { useCallback, useState } from 'react';
import { useRelayEnvironment } from 'react-relay';
import { fetchQuery, graphql } from 'relay-runtime';
import type { useCheckoutQuery } from '../__generated__/useCheckoutQuery.graphql';
import { CheckoutError, openCheckout } from '../lib/paddle-checkout';
import { messageOf } from '../lib/errors';
import { useNotify } from '../lib/toasts';

const query = graphql`
  query useCheckoutQuery {
    viewer {
      email
    }
    paddleConfig {
      environment
      clientToken
      priceId
    }
  }
`;

export function useCheckout() {
  const environment = useRelayEnvironment();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const start = useCallback(async () => {
    setBusy(true);
    try {
      const data = await fetchQuery<useCheckoutQuery>(environment, query, {}, { fetchPolicy: 'network-only' }).toPromise();
      if (!data?.viewer) throw new CheckoutError('You must be signed in', 'checkout');
      await openCheckout({ ...data.paddleConfig, priceId: data.paddleConfig.priceId ?? null, email: data.viewer.email });
    } catch (err) {
      if (err instanceof CheckoutError && err.kind === 'cdn') notify({ title: 'Checkout error', body: err.message, intent: 'error' });
      else notify({ title: 'Checkout failed', body: err instanceof CheckoutError ? err.message : messageOf(err, 'Please try again'), intent: 'error' });
    } finally {
      setBusy(false);
    }
  }, [environment, notify]);
  return { start, busy };
}
