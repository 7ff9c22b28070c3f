// Seed content: pricing tiers, smart-segment categories with presets (natural-language criteria that
// the segmentation engine understands) and one active impact formula per category.
export const TIERS = [
  { name: 'free', displayName: 'Free Plan', chatQueryLimit: 10, smartSegmentLimit: 3, priceMonthly: '0.00', priceYearly: '0.00' },
  {
    name: 'pro',
    displayName: 'Pro Plan',
    chatQueryLimit: 100,
    smartSegmentLimit: 25,
    priceMonthly: '49.00',
    priceYearly: '490.00',
    paddlePriceIdMonthly: 'pri_sandbox_pro_monthly',
    paddlePriceIdYearly: 'pri_sandbox_pro_yearly',
  },
  {
    name: 'enterprise',
    displayName: 'Enterprise Plan',
    chatQueryLimit: 1000,
    smartSegmentLimit: 200,
    priceMonthly: '199.00',
    priceYearly: '1990.00',
    paddlePriceIdMonthly: 'pri_sandbox_enterprise_monthly',
    paddlePriceIdYearly: 'pri_sandbox_enterprise_yearly',
  },
] as const;

export interface SeedCategory {
  name: string;
  displayName: string;
  description: string;
  isLocked: boolean;
  sortOrder: number;
  presets: { name: string; description: string }[];
  formula: { name: string; description: string; formula: string };
}

export const CATEGORIES: SeedCategory[] = [
  {
    name: 'free',
    displayName: 'Free',
    description: 'Everyday segments, free to open.',
    isLocked: false,
    sortOrder: 0,
    presets: [
      { name: 'Recent buyers', description: 'customers who bought in the last 30 days' },
      { name: 'High-value customers', description: 'customers with lifetime value over $5,000' },
      { name: 'New leads', description: 'leads created in the last 14 days' },
    ],
    formula: {
      name: 'Reach and value',
      description: 'Balances segment size with revenue per customer.',
      formula: 'log(customerCount + 1) * 10 + revenuePerCustomer / 1000',
    },
  },
  {
    name: 'added-revenue',
    displayName: 'Added Revenue',
    description: 'Customers most likely to buy more.',
    isLocked: true,
    sortOrder: 1,
    presets: [
      { name: 'Upsell candidates', description: 'customers with lifetime value over $10k who bought in the last 90 days' },
      { name: 'Big last orders', description: 'customers whose last purchase was over $2,000' },
      { name: 'Open opportunities in North America', description: 'opportunities in North America' },
    ],
    formula: {
      name: 'Revenue potential',
      description: 'Revenue per customer weighted by engagement, minus marketing cost.',
      formula: 'customerCount * revenuePerCustomer * (0.5 + engagementRate) / 1000 - marketingCost / 100',
    },
  },
  {
    name: 'operational-hygiene',
    displayName: 'Operational Hygiene',
    description: 'Records that need attention in the CRM.',
    isLocked: true,
    sortOrder: 2,
    presets: [
      { name: 'Contacts without email', description: 'contacts with no email' },
      { name: 'Unknown lifecycle stage', description: 'contacts with an unknown lifecycle stage' },
      { name: 'Missing country', description: 'contacts with no country' },
    ],
    formula: {
      name: 'Cleanup effort',
      description: 'More affected records means more value in fixing them.',
      formula: 'sqrt(customerCount) * 5',
    },
  },
  {
    name: 'reactivation',
    displayName: 'Reactivation',
    description: 'Past buyers worth winning back.',
    isLocked: true,
    sortOrder: 3,
    presets: [
      { name: 'Lapsed customers', description: "customers who haven't bought in 6 months" },
      { name: 'Dormant high spenders', description: 'customers with lifetime value over $5k inactive for 180+ days' },
      { name: 'Leads who never purchased', description: 'leads who never purchased' },
    ],
    formula: {
      name: 'Win-back value',
      description: 'Revenue at risk among customers who stopped buying.',
      formula: 'customerCount * revenuePerCustomer * churnRisk / 1000',
    },
  },
];
