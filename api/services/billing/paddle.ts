// Plans and billing with Paddle (sandbox by default). The browser opens Paddle checkout with the
// client token and the price id of the next tier up (paddleConfig); Paddle then reports what
// happened through signed webhooks (handlePaddleWebhook), which move the user between tiers and
// keep user_subscriptions in step. Every accepted event is stored once in paddle_transactions
// (idempotent on Paddle's event_id). expireEndedSubscriptions is the daily safety net for
// subscriptions cancelled at period end.
import { Prisma, type PricingTier, type User, type UserSubscription } from '@prisma/client';
import { EventName } from '@paddle/paddle-node-sdk';
import type { ServiceDeps } from '../deps.js';
import { effectiveTier, publishUsage } from '../usage.js';
import { eventFacts, SUBSCRIPTION_EVENTS, type PaddleEventFacts, type PaddleItemFacts } from './paddle-event.js';
import { isUuid } from '../../errors.js';
import { parsePaddleEvent, verifyPaddleSignature, type ParsedPaddleEvent } from './paddle-signature.js';

type Tx = Prisma.TransactionClient;

// ---------------------------------------------------------------------------------------------
// Checkout configuration

export interface PaddleConfig {
  environment: 'sandbox' | 'production';
  clientToken: string;
  /** Monthly Paddle price of the tier the user would upgrade to; null when there is none. */
  priceId: string | null;
}

/**
 * The tier a user upgrades to: the cheapest active tier whose monthly price is above that of the
 * user's current tier (free when they have none) and that can be bought through Paddle.
 */
export async function upgradeTier(deps: ServiceDeps, user: Pick<User, 'currentTierId'>): Promise<PricingTier | null> {
  const current = await effectiveTier(deps, user);
  return deps.prisma.pricingTier.findFirst({
    where: {
      isActive: true,
      priceMonthly: { gt: current.priceMonthly ?? 0 },
      paddlePriceIdMonthly: { not: null },
    },
    orderBy: [{ priceMonthly: 'asc' }, { name: 'asc' }],
  });
}

export async function paddleConfig(deps: ServiceDeps, user: Pick<User, 'currentTierId'>): Promise<PaddleConfig> {
  const next = await upgradeTier(deps, user);
  return {
    environment: deps.config.paddle.environment,
    clientToken: deps.config.paddle.clientToken,
    priceId: next?.paddlePriceIdMonthly ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export type PaddleWebhookResult =
  | { received: true; duplicate: true }
  | { received: true; applied: true }
  | { received: true; applied: false; reason: string };

/** Subscription statuses that grant the subscription's tier (past_due: Paddle is still retrying). */
const LIVE_STATUSES = ['active', 'trialing', 'past_due'];



interface Outcome {
  applied: boolean;
  reason?: string;
  level?: 'info' | 'warn';
  user: User | null;
  item: PaddleItemFacts | null;
  /** The user after a tier change (to publish their usage), else null. */
  tierChanged: User | null;
}

/**
 * Verifies, records and applies one Paddle webhook delivery. `rawBody` is the request body exactly
 * as received; `signature` the Paddle-Signature header. Throws UNAUTHENTICATED (401) for a
 * missing, wrong or stale signature (nothing is stored) and BAD_USER_INPUT (400) for a signed body
 * that is not a Paddle event.
 */
export async function handlePaddleWebhook(deps: ServiceDeps, rawBody: string, signature: string | undefined): Promise<PaddleWebhookResult> {
  await verifyPaddleSignature(rawBody, signature, deps.config.paddle.webhookSecret);
  const parsed = parsePaddleEvent(rawBody);
  const eventId = parsed.event.eventId;
  const log = { eventId, eventType: parsed.event.eventType };

  if (await deps.prisma.paddleTransaction.findUnique({ where: { paddleEventId: eventId }, select: { id: true } })) {
    deps.logger.info(log, 'paddle webhook: duplicate event ignored');
    return { received: true, duplicate: true };
  }

  let outcome: Outcome;
  try {
    outcome = await deps.prisma.$transaction((tx) => recordAndApply(deps, tx, parsed));
  } catch (err) {
    // A concurrent delivery of the same event committed first (unique paddle_event_id).
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      const exists = await deps.prisma.paddleTransaction.findUnique({ where: { paddleEventId: eventId }, select: { id: true } });
      if (exists) return { received: true, duplicate: true };
    }
    throw err;
  }

  if (outcome.tierChanged) await publishUsage(deps, outcome.tierChanged);
  const line = { ...log, userId: outcome.user?.id ?? null, applied: outcome.applied, reason: outcome.reason, priceId: outcome.item?.priceId };
  if (outcome.level === 'warn') deps.logger.warn(line, 'paddle webhook: not applied');
  else deps.logger.info(line, 'paddle webhook processed');
  return outcome.applied ? { received: true, applied: true } : { received: true, applied: false, reason: outcome.reason ?? 'Not applied' };
}

async function recordAndApply(deps: ServiceDeps, tx: Tx, parsed: ParsedPaddleEvent): Promise<Outcome> {
  const { event, payload, occurredAt } = parsed;
  const facts = eventFacts(event);
  // The idempotency point: a second delivery of this event blocks here and then fails (P2002).
  const row = await tx.paddleTransaction.create({
    data: {
      paddleEventId: event.eventId,
      eventType: event.eventType,
      paddleTransactionId: facts.transactionId,
      paddleSubscriptionId: facts.subscriptionId,
      paddleCustomerId: facts.customerId,
      status: facts.status,
      amount: facts.amount,
      currency: facts.currency,
      webhookData: payload as Prisma.InputJsonObject,
      processedAt: deps.now(),
    },
  });

  const tiers = await tx.pricingTier.findMany();
  const match = matchTier(facts, tiers);
  let outcome: Outcome;
  if (event.eventType === EventName.TransactionCompleted) {
    outcome = await applyTransaction(deps, tx, facts, occurredAt, match);
  } else if (SUBSCRIPTION_EVENTS.has(event.eventType)) {
    outcome = await applySubscription(deps, tx, facts, occurredAt, match);
  } else {
    const user = await findUser(tx, facts);
    outcome = { applied: false, reason: `Event type ${event.eventType} is recorded but not acted on`, user, item: null, tierChanged: null };
  }
  const item = outcome.item ?? match?.item ?? facts.items[0] ?? null;
  await tx.paddleTransaction.update({
    where: { id: row.id },
    data: {
      userId: outcome.user?.id ?? null,
      priceId: item?.priceId ?? null,
      productName: item?.productName?.slice(0, 500) ?? null,
      billingPeriod: item?.billingPeriod ?? null,
    },
  });
  return { ...outcome, item };
}

interface TierMatch {
  tier: PricingTier;
  item: PaddleItemFacts;
}

/** The tier of the first item whose price is a tier's Paddle monthly or yearly price. */
function matchTier(facts: PaddleEventFacts, tiers: PricingTier[]): TierMatch | null {
  for (const item of facts.items) {
    const tier = tiers.find((t) => t.paddlePriceIdMonthly === item.priceId || t.paddlePriceIdYearly === item.priceId);
    if (tier) return { tier, item };
  }
  return null;
}

/**
 * Who the event is about: the owner of a known subscription, else the user holding the Paddle
 * customer id, else custom_data.userId, else custom_data.email (both set at checkout).
 */
async function findUser(tx: Tx, facts: PaddleEventFacts): Promise<User | null> {
  if (facts.subscriptionId) {
    const sub = await tx.userSubscription.findUnique({ where: { paddleSubscriptionId: facts.subscriptionId }, include: { user: true } });
    if (sub) return sub.user;
  }
  if (facts.customerId) {
    const user = await tx.user.findUnique({ where: { paddleCustomerId: facts.customerId } });
    if (user) return user;
  }
  if (facts.customUserId && isUuid(facts.customUserId)) {
    const user = await tx.user.findUnique({ where: { id: facts.customUserId } });
    if (user) return user;
  }
  if (facts.customEmail) {
    const user = await tx.user.findUnique({ where: { email: facts.customEmail } });
    if (user) return user;
  }
  return null;
}

/** Finds the user, locks their row for the rest of the transaction and remembers the customer id. */
async function lockUser(tx: Tx, facts: PaddleEventFacts): Promise<User | null> {
  const found = await findUser(tx, facts);
  if (!found) return null;
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${found.id}::uuid FOR UPDATE`;
  let user = await tx.user.findUniqueOrThrow({ where: { id: found.id } });
  if (facts.customerId && !user.paddleCustomerId) {
    const holder = await tx.user.findUnique({ where: { paddleCustomerId: facts.customerId }, select: { id: true } });
    if (!holder) user = await tx.user.update({ where: { id: user.id }, data: { paddleCustomerId: facts.customerId } });
  }
  return user;
}

const noUser = (facts: PaddleEventFacts): Outcome => ({
  applied: false,
  reason: 'No user matches this Paddle customer (customer id, custom_data.userId or custom_data.email)',
  level: 'warn',
  user: null,
  item: facts.items[0] ?? null,
  tierChanged: null,
});

const unknownPrice = (facts: PaddleEventFacts, user: User): Outcome => ({
  applied: false,
  reason: `Unknown price id ${facts.items.map((i) => i.priceId).join(', ') || '(none)'}: no pricing tier uses it`,
  level: 'warn',
  user,
  item: facts.items[0] ?? null,
  tierChanged: null,
});

const outOfOrder = (facts: PaddleEventFacts, user: User, sub: UserSubscription): Outcome => ({
  applied: false,
  reason: `Out-of-order event: a newer event for subscription ${facts.subscriptionId} was applied at ${sub.lastEventAt!.toISOString()}`,
  user,
  item: null,
  tierChanged: null,
});

const isStale = (sub: UserSubscription | null, occurredAt: Date) => Boolean(sub?.lastEventAt && occurredAt < sub.lastEventAt);

/** transaction.completed: the payment went through; grant the tier of the paid price. */
async function applyTransaction(deps: ServiceDeps, tx: Tx, facts: PaddleEventFacts, occurredAt: Date, match: TierMatch | null): Promise<Outcome> {
  const user = await lockUser(tx, facts);
  if (!user) return noUser(facts);
  if (!match) return unknownPrice(facts, user);
  let tierId: string | null = match.tier.id;
  if (facts.subscriptionId) {
    const sub = await tx.userSubscription.findUnique({ where: { paddleSubscriptionId: facts.subscriptionId } });
    if (sub && isStale(sub, occurredAt)) return outOfOrder(facts, user, sub);
    const period = facts.billingPeriod ? { currentPeriodStart: facts.billingPeriod.start, currentPeriodEnd: facts.billingPeriod.end } : {};
    if (sub) {
      await tx.userSubscription.update({ where: { id: sub.id }, data: { pricingTierId: match.tier.id, ...period, lastEventAt: occurredAt } });
    } else {
      await tx.userSubscription.create({
        data: { userId: user.id, paddleSubscriptionId: facts.subscriptionId, status: 'active', pricingTierId: match.tier.id, ...period, lastEventAt: occurredAt },
      });
    }
    tierId = await entitledTierId(tx, user.id, deps.now());
  }
  return { applied: true, user, item: match.item, tierChanged: await setTier(tx, user, tierId) };
}

/** subscription.*: mirror the subscription, then give the user the tier their live subscriptions entitle them to. */
async function applySubscription(deps: ServiceDeps, tx: Tx, facts: PaddleEventFacts, occurredAt: Date, match: TierMatch | null): Promise<Outcome> {
  const s = facts.subscription!;
  const user = await lockUser(tx, facts);
  if (!user) return noUser(facts);
  const sub = await tx.userSubscription.findUnique({ where: { paddleSubscriptionId: facts.subscriptionId! } });
  if (sub && isStale(sub, occurredAt)) return outOfOrder(facts, user, sub);
  const live = LIVE_STATUSES.includes(s.status);
  // An unknown price changes nothing, except that a known subscription may still end.
  if (!match && (live || !sub)) return unknownPrice(facts, user);
  const data = {
    status: s.status,
    pricingTierId: match?.tier.id ?? sub?.pricingTierId ?? null,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    lastEventAt: occurredAt,
    ...(s.currentPeriodStart ? { currentPeriodStart: s.currentPeriodStart } : {}),
    ...(s.currentPeriodEnd ? { currentPeriodEnd: s.currentPeriodEnd } : {}),
  };
  if (sub) await tx.userSubscription.update({ where: { id: sub.id }, data });
  else await tx.userSubscription.create({ data: { ...data, userId: user.id, paddleSubscriptionId: facts.subscriptionId! } });
  const tierId = await entitledTierId(tx, user.id, deps.now());
  return { applied: true, user, item: match?.item ?? null, tierChanged: await setTier(tx, user, tierId) };
}

/**
 * The tier a user's subscriptions entitle them to: the highest-priced tier among their live
 * subscriptions (a subscription cancelled at period end counts until currentPeriodEnd), else free.
 */
async function entitledTierId(tx: Tx, userId: string, now: Date): Promise<string | null> {
  const subs = await tx.userSubscription.findMany({
    where: {
      userId,
      status: { in: LIVE_STATUSES },
      pricingTierId: { not: null },
      NOT: { cancelAtPeriodEnd: true, currentPeriodEnd: { lte: now } },
    },
    include: { pricingTier: true },
  });
  const best = subs
    .map((s) => s.pricingTier!)
    .sort((a, b) => b.priceMonthly.comparedTo(a.priceMonthly))[0];
  if (best) return best.id;
  return (await tx.pricingTier.findUnique({ where: { name: 'free' }, select: { id: true } }))?.id ?? null;
}

/** Moves the user to `tierId`; returns the updated user when the tier changed, else null. */
async function setTier(tx: Tx, user: User, tierId: string | null): Promise<User | null> {
  if (user.currentTierId === tierId) return null;
  return tx.user.update({ where: { id: user.id }, data: { currentTierId: tierId } });
}

// ---------------------------------------------------------------------------------------------
// Daily maintenance

export interface ExpireResult {
  /** Subscriptions marked canceled. */
  expired: number;
  /** Users whose tier changed as a result. */
  downgradedUserIds: string[];
}

/**
 * Ends subscriptions that were cancelled at period end and whose currentPeriodEnd is before
 * deps.now(): status becomes "canceled" and each owner drops to the tier their remaining live
 * subscriptions give (free when none). Called by the daily maintenance job; safe to run repeatedly.
 */
export async function expireEndedSubscriptions(deps: ServiceDeps): Promise<ExpireResult> {
  const now = deps.now();
  const ended = { cancelAtPeriodEnd: true, currentPeriodEnd: { lt: now }, status: { not: 'canceled' } };
  const due = await deps.prisma.userSubscription.findMany({ where: ended, select: { userId: true } });
  const result: ExpireResult = { expired: 0, downgradedUserIds: [] };
  for (const userId of new Set(due.map((d) => d.userId))) {
    const { count, changed } = await deps.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user) return { count: 0, changed: null };
      const { count } = await tx.userSubscription.updateMany({ where: { ...ended, userId }, data: { status: 'canceled' } });
      return { count, changed: count ? await setTier(tx, user, await entitledTierId(tx, userId, now)) : null };
    });
    result.expired += count;
    if (changed) {
      result.downgradedUserIds.push(changed.id);
      await publishUsage(deps, changed);
    }
  }
  if (result.expired) deps.logger.info(result, 'paddle subscriptions expired at period end');
  return result;
}
