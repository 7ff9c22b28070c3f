/**
 * `npm run sandbox`: every CRM sandbox, standalone, each on its own port (the same apps the product
 * mounts in embedded mode):
 *   HubSpot      SANDBOX_PORT             (default 4010)  api/crm/hubspot-sandbox/main.ts
 *   Salesforce   SALESFORCE_SANDBOX_PORT  (default 4011)  api/crm/salesforce-sandbox/main.ts
 *   (Zoho, SANDBOX_ZOHO_PORT 4013, is started by the HubSpot main.)
 * Each prints its URL and demo credentials. One line per CRM.
 */
import './hubspot-sandbox/main.js';
import './salesforce-sandbox/main.js';
