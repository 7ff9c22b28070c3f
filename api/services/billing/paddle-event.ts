// What the billing service needs from a Paddle event, read from the SDK's typed entities.
import { Prisma } from '@prisma/client';
import { EventName, type EventEntity, type SubscriptionNotification, type TransactionNotification } from '@paddle/paddle-node-sdk';

export interface PaddleItemFacts {
  priceId: string;
  productName: string | null;
  /** The price's billing_cycle.interval ("month", "year", ...); null for one-time prices. */
  billingPeriod: string | null;
}

export interface PaddleSubscriptionFacts {
  status: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface PaddleEventFacts {
  kind: 'transaction' | 'subscription' | 'other';
  transactionId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  status: string | null;
  /** Major units as a two-decimal string ("49.00"), or null. */
  amount: string | null;
  currency: string | null;
  items: PaddleItemFacts[];
  /** custom_data passed at checkout: who is paying. */
  customEmail: string | null;
  customUserId: string | null;
  /** Subscription events: the subscription's state. */
  subscription: PaddleSubscriptionFacts | null;
  /** Transaction events: the billing period the transaction pays for. */
  billingPeriod: { start: Date; end: Date } | null;
}

/** Subscription events that change a subscription's state (and so the user's tier). */
export const SUBSCRIPTION_EVENTS: ReadonlySet<string> = new Set<string>([
  EventName.SubscriptionCreated,
  EventName.SubscriptionActivated,
  EventName.SubscriptionUpdated,
  EventName.SubscriptionCanceled,
  EventName.SubscriptionPastDue,
  EventName.SubscriptionPaused,
  EventName.SubscriptionResumed,
  EventName.SubscriptionTrialing,
]);

const TRANSACTION_EVENTS = new Set<string>([
  EventName.TransactionCompleted,
  EventName.TransactionPaid,
  EventName.TransactionBilled,
  EventName.TransactionCanceled,
  EventName.TransactionCreated,
  EventName.TransactionPastDue,
  EventName.TransactionPaymentFailed,
  EventName.TransactionReady,
  EventName.TransactionUpdated,
  EventName.TransactionRevised,
]);

/**
 * Paddle sends money as strings in the currency's lowest denomination ("4900" = 49.00 USD; JPY and
 * KRW have no minor unit, "4900" = 4900 JPY). Returns major units with two decimals, or null if the
 * value is not an integer string or does not fit decimal(10,2).
 */
export function minorToMajor(minor: string | null | undefined, currency: string | null | undefined): string | null {
  if (!minor || !/^-?\d+$/.test(minor)) return null;
  const value = new Prisma.Decimal(minor).div(new Prisma.Decimal(10).pow(currencyDecimals(currency)));
  return value.abs().lt('100000000') ? value.toFixed(2) : null;
}

/** Decimal places of an ISO 4217 currency (CLDR data via Intl); 2 when unknown. */
export function currencyDecimals(currency: string | null | undefined): number {
  if (!currency) return 2;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

const date = (iso: string | null | undefined) => (iso ? new Date(iso) : null);
const str = (v: unknown, max = 320) => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : null);

function customFields(customData: Record<string, unknown> | null) {
  return {
    customEmail: str(customData?.email)?.toLowerCase() ?? null,
    customUserId: str(customData?.userId ?? customData?.user_id, 100),
  };
}

function transactionFacts(t: TransactionNotification): PaddleEventFacts {
  const totals = t.details?.totals ?? null;
  const currency = totals?.currencyCode ?? t.currencyCode ?? null;
  const lineItems = t.details?.lineItems ?? [];
  return {
    kind: 'transaction',
    transactionId: t.id,
    subscriptionId: t.subscriptionId,
    customerId: t.customerId,
    status: t.status ?? null,
    amount: minorToMajor(totals?.grandTotal ?? totals?.total, currency),
    currency,
    items: t.items.flatMap((item) =>
      item.price
        ? [{
            priceId: item.price.id,
            productName: lineItems.find((l) => l.priceId === item.price!.id)?.product?.name ?? item.price.name ?? item.price.description ?? null,
            billingPeriod: item.price.billingCycle?.interval ?? null,
          }]
        : [],
    ),
    ...customFields(t.customData),
    subscription: null,
    billingPeriod: t.billingPeriod ? { start: new Date(t.billingPeriod.startsAt), end: new Date(t.billingPeriod.endsAt) } : null,
  };
}

function subscriptionFacts(s: SubscriptionNotification): PaddleEventFacts {
  return {
    kind: 'subscription',
    transactionId: 'transactionId' in s && typeof s.transactionId === 'string' ? s.transactionId : null,
    subscriptionId: s.id,
    customerId: s.customerId ?? null,
    status: s.status ?? null,
    amount: null, // subscription events carry prices, not payments
    currency: s.currencyCode ?? null,
    items: s.items.flatMap((item) =>
      item.price
        ? [{
            priceId: item.price.id,
            productName: item.product?.name ?? item.price.name ?? item.price.description ?? null,
            billingPeriod: item.price.billingCycle?.interval ?? s.billingCycle?.interval ?? null,
          }]
        : [],
    ),
    ...customFields(s.customData),
    subscription: {
      status: s.status,
      currentPeriodStart: date(s.currentBillingPeriod?.startsAt),
      currentPeriodEnd: date(s.currentBillingPeriod?.endsAt),
      cancelAtPeriodEnd: s.scheduledChange?.action === 'cancel',
    },
    billingPeriod: null,
  };
}

/** Reads the facts of any Paddle event; events that are neither transactions nor subscriptions give kind "other". */
export function eventFacts(event: EventEntity): PaddleEventFacts {
  if (TRANSACTION_EVENTS.has(event.eventType)) return transactionFacts(event.data as TransactionNotification);
  if (SUBSCRIPTION_EVENTS.has(event.eventType)) return subscriptionFacts(event.data as SubscriptionNotification);
  const data = (event.data ?? {}) as unknown as Record<string, unknown>;
  return {
    kind: 'other',
    transactionId: null,
    subscriptionId: null,
    customerId: str(data.customerId, 100),
    status: str(data.status, 100),
    amount: null,
    currency: null,
    items: [],
    customEmail: null,
    customUserId: null,
    subscription: null,
    billingPeriod: null,
  };
}
