/**
 * Zoho's data centres: an account lives in one, and its accounts server (OAuth) and API domain are that
 * data centre's. The OAuth callback names it (`location`, `accounts-server`) and the token answer gives
 * the API domain (`api_domain`); a self client's grant code must be exchanged at its own accounts server.
 */
export const ZOHO_DATA_CENTRES = {
  us: { label: 'United States (zoho.com)', accountsUrl: 'https://accounts.zoho.com', apiDomain: 'https://www.zohoapis.com' },
  eu: { label: 'Europe (zoho.eu)', accountsUrl: 'https://accounts.zoho.eu', apiDomain: 'https://www.zohoapis.eu' },
  in: { label: 'India (zoho.in)', accountsUrl: 'https://accounts.zoho.in', apiDomain: 'https://www.zohoapis.in' },
  au: { label: 'Australia (zoho.com.au)', accountsUrl: 'https://accounts.zoho.com.au', apiDomain: 'https://www.zohoapis.com.au' },
  jp: { label: 'Japan (zoho.jp)', accountsUrl: 'https://accounts.zoho.jp', apiDomain: 'https://www.zohoapis.jp' },
  ca: { label: 'Canada (zohocloud.ca)', accountsUrl: 'https://accounts.zohocloud.ca', apiDomain: 'https://www.zohoapis.ca' },
  cn: { label: 'China (zoho.com.cn)', accountsUrl: 'https://accounts.zoho.com.cn', apiDomain: 'https://www.zohoapis.com.cn' },
  sa: { label: 'Saudi Arabia (zoho.sa)', accountsUrl: 'https://accounts.zoho.sa', apiDomain: 'https://www.zohoapis.sa' },
} as const;

export type ZohoDataCentre = keyof typeof ZOHO_DATA_CENTRES;
export const ZOHO_DATA_CENTRE_CODES = Object.keys(ZOHO_DATA_CENTRES) as ZohoDataCentre[];

export function isZohoDataCentre(s: string): s is ZohoDataCentre {
  return Object.prototype.hasOwnProperty.call(ZOHO_DATA_CENTRES, s);
}
