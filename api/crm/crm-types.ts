/** The CRMs a user can pick at registration (spec §9 "CRM options"), and how the product names them. */
export const CRM_TYPES = ['hubspot', 'pipedrive', 'salesforce', 'zoho', 'other'] as const;
export type CrmType = (typeof CRM_TYPES)[number];

/** Labels as shown in the product (spec §9 "CRM options"). */
export const CRM_LABELS: Record<CrmType, string> = {
  hubspot: 'HubSpot',
  pipedrive: 'PipeDrive',
  salesforce: 'Salesforce',
  zoho: 'Zoho',
  other: 'Other',
};
