// Paddle checkout in sandbox mode (spec §7, §9): the script loads from Paddle's CDN, is initialised
// with the server's client token and opens with one item (priceId, quantity 1) and the user's email.
// A CDN that cannot be reached rejects; a stalled one never settles, so loading gives up after the
// spec's wait of about 3 seconds (30 checks at 100 ms).
import type { Environments } from '@paddle/paddle-js';

export const CDN_FAILURE = 'Failed to load the payment script from CDN';
const CHECKS = 30;
const CHECK_MS = 100;

export class CheckoutError extends Error {
  override name = 'CheckoutError';
  constructor(
    message: string,
    readonly kind: 'cdn' | 'checkout',
  ) {
    super(message);
  }
}

export interface CheckoutRequest {
  environment: string;
  clientToken: string;
  priceId: string | null;
  email: string;
}

function waitForScript(loading: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    loading.then(
      (p) => {
        if (!settled && !p) {
          settled = true;
          reject(new CheckoutError(CDN_FAILURE, 'cdn'));
        }
      },
      () => {
        if (!settled) {
          settled = true;
          reject(new CheckoutError(CDN_FAILURE, 'cdn'));
        }
      },
    );
    let checks = 0;
    const timer = setInterval(() => {
      if (settled) return clearInterval(timer);
      if (window.Paddle?.Checkout) {
        settled = true;
        clearInterval(timer);
        resolve();
      } else if (++checks >= CHECKS) {
        settled = true;
        clearInterval(timer);
        reject(new CheckoutError('The payment script did not load from its CDN (cdn.paddle.com). Check your connection or content blocker and try again.', 'cdn'));
      }
    }, CHECK_MS);
  });
}

export async function openCheckout(req: CheckoutRequest): Promise<void> {
  if (!req.priceId) throw new CheckoutError('There is no higher plan to buy right now.', 'checkout');
  const { initializePaddle } = await import('@paddle/paddle-js');
  const environment = (req.environment === 'production' ? 'production' : 'sandbox') as Environments;
  await waitForScript(initializePaddle({ environment, token: req.clientToken }));
  try {
    window.Paddle!.Checkout.open({ items: [{ priceId: req.priceId, quantity: 1 }], customer: { email: req.email } });
  } catch (err) {
    throw new CheckoutError(err instanceof Error ? err.message : 'Checkout could not open', 'checkout');
  }
}
