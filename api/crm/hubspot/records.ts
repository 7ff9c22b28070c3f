/** A HubSpot contact as the CRM-neutral record, read through the connection's field map. */
import { detailedStage, productStage, type FieldMap } from '../field-map.js';
import type { CrmContact } from '../connector.js';
import type { CrmRecord } from '../record.js';
import { ID_PROPERTY, isMissingValue, parseInstant } from './model/index.js';

function text(v: string | null | undefined): string | null {
  if (isMissingValue(v)) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

function number(v: string | null | undefined): number | null {
  const t = text(v);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export function hubspotRecord(contact: Pick<CrmContact, 'id'> & { properties: Record<string, string | null | undefined> }, map: FieldMap): CrmRecord {
  const p = contact.properties ?? {};
  const f = map.fields;
  const stage = detailedStage(map, p[f.lifecycleStage]);
  return {
    id: text(p[ID_PROPERTY]) ?? contact.id,
    firstName: text(p[f.firstName]),
    lastName: text(p[f.lastName]),
    email: text(p[f.email]),
    company: text(p[f.company]),
    stage,
    lifecycleStage: productStage(stage),
    lastPurchaseAt: parseInstant(text(p[f.lastPurchaseDate])),
    lastPurchaseAmount: number(p[f.lastPurchaseAmount]),
    lifetimeValue: number(p[f.lifetimeValue]),
    city: text(p[f.city]),
    state: text(p[f.state]),
    country: text(p[f.country]),
    createdAt: parseInstant(text(p[f.createdAt])),
  };
}

/** The properties a read asks HubSpot for: every mapped property and the id. */
export function mappedProperties(map: FieldMap): string[] {
  return [...new Set([ID_PROPERTY, ...Object.values(map.fields)])];
}
