/**
 * Metadata routes: `GET /api/{dc}/crm/v7/settings/fields?module=…` (field definitions with their help
 * text), `GET /api/{dc}/crm/v7/org` (the org, its edition and licences: what its API credits follow
 * from) and `GET /api/{dc}/crm/v7/users?type=CurrentUser`.
 */
import type { Hono } from 'hono';
import { invalidModule, requiredParamMissing, invalidData } from '../errors.js';
import { FIELDS, isModule, renderField } from '../fields.js';
import { USER_ID } from '../data.js';
import { chargeCredits, requireAuth, zohoRouter } from '../http.js';
import type { SandboxState } from '../state.js';

export const SANDBOX_USER = {
  id: USER_ID,
  full_name: 'Dana Sandbox',
  first_name: 'Dana',
  last_name: 'Sandbox',
  email: 'dana@sandbox-outfitters.zoho.local',
  zuid: '70104588213',
};

export function settingsRoutes(state: SandboxState): Hono {
  const app = zohoRouter();

  app.get('/api/:dc/crm/:version/settings/fields', (c) => {
    requireAuth(state, c, [['ZohoCRM.settings.fields.READ']]);
    const module = c.req.query('module');
    if (!module) throw requiredParamMissing('module');
    if (!isModule(module)) throw invalidModule(module);
    chargeCredits(state, 1);
    return c.json({ fields: FIELDS[module].map((f, i) => renderField(module, f, i)) });
  });

  app.get('/api/:dc/crm/:version/org', (c) => {
    requireAuth(state, c, [['ZohoCRM.org.READ']]);
    chargeCredits(state, 1);
    const { config } = state;
    return c.json({
      org: [
        {
          id: `5725767000000${config.orgId.slice(-6)}`,
          zgid: config.orgId,
          domain_name: `org${config.orgId}`,
          company_name: config.orgName,
          primary_email: SANDBOX_USER.email,
          time_zone: 'Etc/UTC',
          currency: 'US Dollar - USD',
          iso_code: 'USD',
          country: 'United Kingdom',
          country_code: 'GB',
          type: 'production',
          license_details: {
            paid: true,
            paid_type: 'enterprise',
            users_license_purchased: 10,
            paid_expiry: '2030-12-31T00:00:00+00:00',
            trial_type: null,
            trial_expiry: null,
          },
        },
      ],
    });
  });

  app.get('/api/:dc/crm/:version/users', (c) => {
    requireAuth(state, c, [['ZohoCRM.users.READ']]);
    const type = c.req.query('type') ?? 'AllUsers';
    if (!['AllUsers', 'ActiveUsers', 'AdminUsers', 'CurrentUser'].includes(type)) throw invalidData('invalid data', { param_name: 'type' });
    chargeCredits(state, 1);
    return c.json({
      users: [
        {
          ...SANDBOX_USER,
          role: { name: 'CEO', id: '5725767000000026005' },
          profile: { name: 'Administrator', id: '5725767000000026011' },
          status: 'active',
          time_zone: 'Etc/UTC',
          locale: 'en_GB',
          confirm: true,
        },
      ],
      info: { per_page: 200, count: 1, page: 1, more_records: false },
    });
  });

  return app;
}
