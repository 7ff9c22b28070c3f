// The JSON shape of each entity in the REST compatibility routes (spec sections 3 and 7), one
// presenter per entity. GraphQL describes the same entities in api/schema/; both read the same rows.
import type {
  ChatMessage,
  Customer,
  DailyGeneratedSegment,
  ImpactScoreFormula,
  PricingTier,
  ProcessedSegment,
  Query,
  SmartSegmentCategory,
  SmartSegmentPreset,
  UserSegmentFavorite,
} from '@prisma/client';
import { decimalString, isoDay } from '../format.js';
import type { ConnectionStatus } from '../services/crm.js';
import type { ClarificationOutcome, QueryOutcome } from '../services/queries.js';
import type { SavedSegmentWithLatest } from '../services/segments.js';
import type { UsageSnapshot } from '../events/pubsub.js';

export const queryJson = (q: Query) => ({
  id: q.id,
  naturalLanguage: q.naturalLanguage,
  createdAt: q.createdAt,
  resultCount: q.resultCount,
  hasError: q.hasError,
  segment: q.segment,
});

export const queryOutcomeJson = (o: QueryOutcome) => ({
  query: queryJson(o.query),
  resultCount: o.resultCount,
  hasError: o.hasError,
  message: o.message,
});

/** The 422 body of a question that needs a clarification (README "Questions the assistant asks about"). */
export const clarificationJson = (o: ClarificationOutcome) => ({
  error: 'Clarification needed',
  code: 'CLARIFICATION',
  message: o.message,
  understood: { segment: o.clarification.understood, explanation: o.clarification.explanation },
  notUnderstood: o.clarification.notUnderstood,
  issues: o.clarification.issues.map((i) => ({ kind: i.kind, phrase: i.phrase ?? null, message: i.message })),
  choices: o.clarification.choices.map((ch, index) => ({
    index,
    id: ch.id,
    label: ch.label,
    explanation: ch.explanation,
    asUnderstood: ch.asUnderstood,
    segment: ch.segment,
  })),
  query: null,
  resultCount: 0,
  hasError: false,
});

export const messageJson = (m: ChatMessage) => ({ id: m.id, queryId: m.queryId, role: m.role, content: m.content, createdAt: m.createdAt });

export const customerJson = (c: Pick<Customer, 'id' | 'firstName' | 'lastName' | 'email' | 'company' | 'lifecycleStage' | 'lastPurchaseDate' | 'lastPurchaseAmount' | 'lifetimeValue' | 'city' | 'state' | 'country'>) => ({
  id: c.id,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  company: c.company,
  lifecycleStage: c.lifecycleStage,
  lastPurchaseDate: c.lastPurchaseDate,
  lastPurchaseAmount: c.lastPurchaseAmount,
  lifetimeValue: c.lifetimeValue,
  city: c.city,
  state: c.state,
  country: c.country,
});

export const savedSegmentJson = (s: SavedSegmentWithLatest) => ({
  id: s.id,
  description: s.description,
  createdAt: s.createdAt,
  customerCount: s.latest && !s.latest.hasError ? s.latest.customerCount : null,
  processedAt: s.latest?.processedAt ?? null,
  hasError: Boolean(s.latest?.hasError),
  errorMessage: s.latest?.errorMessage ?? null,
});

export const processedSegmentJson = (p: ProcessedSegment) => ({
  segmentId: p.segmentId,
  customerCount: p.customerCount,
  hasError: Boolean(p.hasError),
  errorMessage: p.errorMessage,
  processedAt: p.processedAt,
});

export const usageJson = (u: UsageSnapshot) => ({
  chatQueriesUsed: u.chatQueriesUsed,
  chatQueryLimit: u.chatQueryLimit,
  smartSegmentsUsed: u.smartSegmentsUsed,
  smartSegmentLimit: u.smartSegmentLimit,
  tierName: u.tierName,
});

export const crmConnectionJson = (s: ConnectionStatus) => ({
  connected: s.connected,
  tokenType: s.tokenType,
  scopes: s.scopes,
  crmType: s.crmType,
  crmLabel: s.crmLabel,
  supported: s.supported,
  ...(s.message ? { message: s.message } : {}),
  accountId: s.accountId ?? null,
  instanceUrl: s.instanceUrl ?? null,
  revoked: Boolean(s.revoked),
});

/** Spec section 3 "Pricing tier": prices as two-decimal strings, plus the payment price ids. */
export const pricingTierJson = (t: PricingTier) => ({
  id: t.id,
  name: t.name,
  displayName: t.displayName,
  chatQueryLimit: t.chatQueryLimit,
  smartSegmentLimit: t.smartSegmentLimit,
  priceMonthly: decimalString(t.priceMonthly),
  priceYearly: decimalString(t.priceYearly),
  isActive: t.isActive,
  paddlePriceIdMonthly: t.paddlePriceIdMonthly,
  paddlePriceIdYearly: t.paddlePriceIdYearly,
  createdAt: t.createdAt,
});

export const dailySegmentJson = (s: DailyGeneratedSegment) => ({
  id: s.id,
  presetId: s.presetId,
  date: isoDay(s.date),
  customerCount: s.customerCount,
  impactScore: decimalString(s.impactScore)!,
  hasError: s.hasError,
  errorMessage: s.errorMessage,
  isUnlocked: s.isUnlocked,
  unlockedAt: s.unlockedAt,
  generatedAt: s.generatedAt,
});

export const categoryJson = (c: SmartSegmentCategory) => ({
  id: c.id,
  name: c.name,
  displayName: c.displayName,
  description: c.description,
  isLocked: c.isLocked,
  isActive: c.isActive,
  sortOrder: c.sortOrder,
  createdAt: c.createdAt,
});

export const presetJson = (p: SmartSegmentPreset) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  categoryId: p.categoryId,
  sortOrder: p.sortOrder,
  isActive: p.isActive,
  defaultQuery: p.defaultQuery,
  createdAt: p.createdAt,
});

export const favoriteJson = (f: UserSegmentFavorite) => ({ presetId: f.presetId, addedAt: f.addedAt });

export const formulaJson = (f: ImpactScoreFormula) => ({
  id: f.id,
  categoryId: f.categoryId,
  name: f.name,
  description: f.description,
  formula: f.formula,
  variables: f.variables,
  isActive: f.isActive,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});
