// The usage meters' rules (spec §4), shared by the web app's usage panel and `crm usage`: per meter,
// normal below 80 %, warning above 80 %, at the limit at 100 % or more; the upgrade action reads
// "Upgrade Plan", or "Upgrade Required" at the limit, and free and trial tiers always see it.
export type MeterLevel = 'normal' | 'warning' | 'limit';

export function meterLevel(used: number, limit: number): MeterLevel {
  if (limit <= 0 || used >= limit) return 'limit';
  return used / limit > 0.8 ? 'warning' : 'normal';
}

export const worstLevel = (a: MeterLevel, b: MeterLevel): MeterLevel =>
  a === 'limit' || b === 'limit' ? 'limit' : a === 'warning' || b === 'warning' ? 'warning' : 'normal';

export const isFreeOrTrial = (tierName: string) => /free|trial/i.test(tierName);

/** The upgrade action's label, or null when it is not shown. */
export function upgradeLabel(tierName: string, level: MeterLevel): string | null {
  if (!isFreeOrTrial(tierName) && level === 'normal') return null;
  return level === 'limit' ? 'Upgrade Required' : 'Upgrade Plan';
}

/** "midnight UTC", or "midnight (Europe/Berlin)" for another usage time zone. */
export const midnightIn = (timeZone: string) => (timeZone === 'UTC' || timeZone === 'Etc/UTC' ? 'midnight UTC' : `midnight (${timeZone})`);

/**
 * What the question box says about today's questions before anything is typed: at the limit, that
 * it is reached and when it resets ("10 of 10 used today, resets at midnight UTC"); above 80 %, how
 * many are used; otherwise nothing.
 */
export function questionLimitNote(used: number, limit: number, timeZone: string): { level: MeterLevel; text: string } | null {
  const level = meterLevel(used, limit);
  if (level === 'limit') return { level, text: `${used} of ${limit} used today, resets at ${midnightIn(timeZone)}` };
  if (level === 'warning') return { level, text: `${used} of ${limit} used today` };
  return null;
}
