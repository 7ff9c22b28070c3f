/** Zoho's official Node SDK ships JavaScript without type declarations (used by sdk.test.ts only). */
declare module '@zohocrm/nodejs-sdk-7.0';
