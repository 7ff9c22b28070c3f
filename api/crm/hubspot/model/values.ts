/** Reading stored HubSpot property values: what counts as missing, and datetimes. */

/** A property whose value is `null`, `undefined` or the empty string has no value. */
export function isMissingValue(value: string | null | undefined): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

/**
 * A HubSpot datetime as epoch milliseconds: HubSpot takes epoch milliseconds (number or digit string)
 * and returns ISO-8601; both are read. Anything else is `null`.
 */
export function parseInstant(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (/^-?\d+$/.test(s)) return Number(s);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}
