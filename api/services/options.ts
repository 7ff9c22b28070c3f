// Option lists of the registration form (spec section 9). Values are stored; labels are shown.
export const CRM_OPTIONS = [
  { value: 'hubspot', label: 'HubSpot' },
  { value: 'pipedrive', label: 'PipeDrive' },
  { value: 'salesforce', label: 'Salesforce' },
  { value: 'zoho', label: 'Zoho' },
  { value: 'other', label: 'Other' },
] as const;

export const INDUSTRY_OPTIONS = [
  { value: 'retail_ecommerce', label: 'Retail & Ecommerce' },
  { value: 'hotels_restaurants', label: 'Hotels & Restaurants' },
  { value: 'it_software', label: 'IT & Software' },
  { value: 'logistics_delivery', label: 'Logistics & Delivery' },
  { value: 'finance_insurance', label: 'Finance & Insurance' },
  { value: 'telecom', label: 'Telecom' },
  { value: 'healthcare', label: 'Healthcare' },
  { value: 'professional_services', label: 'Professional Services' },
] as const;

export type CrmType = (typeof CRM_OPTIONS)[number]['value'];
export type Industry = (typeof INDUSTRY_OPTIONS)[number]['value'];
export const CRM_TYPES = CRM_OPTIONS.map((o) => o.value) as [CrmType, ...CrmType[]];
export const INDUSTRIES = INDUSTRY_OPTIONS.map((o) => o.value) as [Industry, ...Industry[]];
