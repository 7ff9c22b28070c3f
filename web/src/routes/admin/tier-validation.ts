// The checks of a pricing tier form (spec §5), kept pure so they can be unit-tested.
// Tier edit: the first problem is shown in an "Invalid Input" toast and nothing is sent.
// Tier create: every field is required (messages shown on the fields).

export const MAX_LIMIT = 2_147_483_647; // GraphQL Int

/** The editable fields of a tier, as typed in the form. */
export interface TierEditDraft {
  displayName: string;
  chatQueryLimit: string;
  smartSegmentLimit: string;
  priceMonthly: string;
  priceYearly: string;
}

export interface TierCreateDraft extends TierEditDraft {
  name: string;
}

export type TierField = keyof TierCreateDraft;

/** A daily limit: a whole number ≥ 0 (at most the largest GraphQL Int), else null. */
export function parseLimit(text: string): number | null {
  const t = text.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 0 && n <= MAX_LIMIT ? n : null;
}

/** A price ≥ 0 as the two-decimal string the server takes ("49" → "49.00"), else null. */
export function parsePrice(text: string): string | null {
  const t = text.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? (Object.is(n, -0) ? 0 : n).toFixed(2) : null;
}

/** The first problem of an edited tier, in the spec's order and words, or null when it can be sent. */
export function tierEditError(d: TierEditDraft): string | null {
  if (parseLimit(d.chatQueryLimit) === null) return 'Chat query limit must be a valid positive number';
  if (parseLimit(d.smartSegmentLimit) === null) return 'Smart segment limit must be a valid positive number';
  if (parsePrice(d.priceMonthly) === null) return 'Monthly price must be a valid positive number';
  if (parsePrice(d.priceYearly) === null) return 'Yearly price must be a valid positive number';
  if (!d.displayName.trim()) return 'Display name cannot be empty';
  return null;
}

/** The values of an edit that passed tierEditError (display name trimmed, prices with two decimals). */
export function tierEditValues(d: TierEditDraft) {
  return {
    displayName: d.displayName.trim(),
    chatQueryLimit: parseLimit(d.chatQueryLimit)!,
    smartSegmentLimit: parseLimit(d.smartSegmentLimit)!,
    priceMonthly: parsePrice(d.priceMonthly)!,
    priceYearly: parsePrice(d.priceYearly)!,
  };
}

const REQUIRED: Record<TierField, string> = {
  name: 'Name is required',
  displayName: 'Display name is required',
  chatQueryLimit: 'Chat query limit is required',
  smartSegmentLimit: 'Smart segment limit is required',
  priceMonthly: 'Monthly price is required',
  priceYearly: 'Yearly price is required',
};

/**
 * Problems of the create form by field (empty when it can be sent). Every field is required; a number
 * the API could not take at all (negative, not whole for a limit) gets the server's own message.
 */
export function tierCreateErrors(d: TierCreateDraft): Partial<Record<TierField, string>> {
  const errors: Partial<Record<TierField, string>> = {};
  for (const field of Object.keys(REQUIRED) as TierField[]) {
    if (!d[field].trim()) errors[field] = REQUIRED[field];
  }
  if (!errors.chatQueryLimit && parseLimit(d.chatQueryLimit) === null) errors.chatQueryLimit = 'Chat query limit must be a valid positive number';
  if (!errors.smartSegmentLimit && parseLimit(d.smartSegmentLimit) === null) errors.smartSegmentLimit = 'Smart segment limit must be a valid positive number';
  if (!errors.priceMonthly && parsePrice(d.priceMonthly) === null) errors.priceMonthly = 'Monthly price must be a valid positive number';
  if (!errors.priceYearly && parsePrice(d.priceYearly) === null) errors.priceYearly = 'Yearly price must be a valid positive number';
  return errors;
}

/** The createPricingTier input of a draft that passed tierCreateErrors (new tiers are active). */
export function tierCreateInput(d: TierCreateDraft) {
  return { name: d.name.trim(), ...tierEditValues(d), isActive: true };
}
