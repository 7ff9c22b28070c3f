/** HubSpot's default field map: its own contact properties and lifecycle stages (the HubSpot model). */
import type { FieldMap } from '../field-map.js';
import { FIELD_PROPERTIES, LIFECYCLE_VALUES } from './model/index.js';

export const HUBSPOT_FIELD_MAP: FieldMap = {
  fields: {
    firstName: FIELD_PROPERTIES.firstName,
    lastName: FIELD_PROPERTIES.lastName,
    email: FIELD_PROPERTIES.email,
    company: FIELD_PROPERTIES.company,
    lifecycleStage: FIELD_PROPERTIES.lifecycleStage,
    lastPurchaseDate: FIELD_PROPERTIES.lastPurchaseDate,
    lastPurchaseAmount: FIELD_PROPERTIES.lastPurchaseAmount,
    lifetimeValue: FIELD_PROPERTIES.lifetimeValue,
    city: FIELD_PROPERTIES.city,
    state: FIELD_PROPERTIES.state,
    country: FIELD_PROPERTIES.country,
    createdAt: FIELD_PROPERTIES.createdAt,
  },
  // Every HubSpot lifecycle option means itself; "other" is a stage the product shows as unknown.
  stages: Object.fromEntries(LIFECYCLE_VALUES.map((v) => [v, v])),
};
