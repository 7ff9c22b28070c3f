/** `GET /crm/v3/properties/contacts[/{name}]`: the contact property definitions. */
import type { Hono } from 'hono';
import { notFoundError } from '../errors.js';
import { CONTACTS_READ, hubSpotRouter, requireAuth, SCHEMAS_READ } from '../http.js';
import { CONTACT_PROPERTY_DEFS, renderPropertyDefinition } from '../properties.js';
import type { SandboxState } from '../state.js';

export function propertyRoutes(state: SandboxState): Hono {
  const app = hubSpotRouter();

  app.get('/crm/v3/properties/contacts', (c) => {
    requireAuth(state, c, [SCHEMAS_READ, CONTACTS_READ]);
    return c.json({ results: CONTACT_PROPERTY_DEFS.map((d, i) => renderPropertyDefinition(d, i)) });
  });

  app.get('/crm/v3/properties/contacts/:name', (c) => {
    requireAuth(state, c, [SCHEMAS_READ, CONTACTS_READ]);
    const name = c.req.param('name');
    const i = CONTACT_PROPERTY_DEFS.findIndex((d) => d.name === name);
    if (i < 0) throw notFoundError(`Unable to find property ${name} for object type contacts`);
    return c.json(renderPropertyDefinition(CONTACT_PROPERTY_DEFS[i], i));
  });

  return app;
}
