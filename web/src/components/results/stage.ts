// Lifecycle stages as people read them (the stored values are the product's lower-case names).
const LABELS: Record<string, string> = {
  lead: 'Lead',
  customer: 'Customer',
  opportunity: 'Opportunity',
  subscriber: 'Subscriber',
  unknown: 'Unknown',
};

export const stageLabel = (stage: string) => LABELS[stage] ?? stage.charAt(0).toUpperCase() + stage.slice(1);
