// The audit log in words: "pricingTier.update" reads "Pricing tier updated", a detail
// { chatQueryLimit: 20 } reads "Chat query limit: 20", nested values read as lists, not JSON.

const VERBS: Record<string, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  ban: 'banned',
  unban: 'unbanned',
  clear: 'cleared',
  generate: 'generated',
  cleanup: 'cleanup run',
  daily: 'daily run',
};

/** "smartSegmentPreset" / "smart-segments" → "Smart segment preset" / "Smart segments". */
export function words(name: string): string {
  const spaced = name
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** "pricingTier.update" → "Pricing tier updated". */
export function actionText(action: string): string {
  const dot = action.lastIndexOf('.');
  if (dot < 0) return words(action);
  const verb = action.slice(dot + 1);
  return `${words(action.slice(0, dot))} ${VERBS[verb] ?? words(verb).toLowerCase()}`;
}

function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return v.toLocaleString('en-US');
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(', ') : 'none';
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${words(k).toLowerCase()} ${valueText(x)}`)
    .join(', ');
}

/** The details of an action as labelled values ("Chat query limit", "20"). */
export function detailEntries(details: unknown): [string, string][] {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return [];
  return Object.entries(details as Record<string, unknown>).map(([k, v]) => [words(k), valueText(v)]);
}
