/** Records as Pipedrive's v2 API renders them (persons, organizations, deals). */
import type { PdDeal, PdOrganization, PdPerson } from './data.js';
import type { CompanyStore } from './store.js';
import { v2Time } from './store.js';

export interface PersonRenderOptions {
  /** `include_fields`: counters added to the person */
  includeFields: string[];
  /** `custom_fields`: only these custom field keys (all when empty) */
  customFields: string[];
  /** `include_option_labels`: option fields as `{ id, label }` */
  optionLabels: boolean;
  /** `include_labels`: a `labels` array of `{ id, label }` */
  labels: boolean;
}


export function renderPerson(p: PdPerson, store: CompanyStore, opts: PersonRenderOptions): Record<string, unknown> {
  const { keys } = store.fields;
  const stageOption = p.lifecycle_stage === null ? null : store.data.lifecycleOptions.find((o) => o.id === p.lifecycle_stage)!;
  const custom: Record<string, unknown> = {
    [keys.lifetimeValue]: p.lifetime_value === null ? null : { value: p.lifetime_value, currency: 'USD' },
    [keys.lifecycleStage]: stageOption === null ? null : opts.optionLabels ? { id: stageOption.id, label: stageOption.label } : stageOption.id,
  };
  const out: Record<string, unknown> = {
    id: p.id,
    name: p.name,
    first_name: p.first_name,
    last_name: p.last_name,
    owner_id: p.owner_id,
    org_id: p.org_id,
    add_time: v2Time(p.add_time),
    update_time: v2Time(p.update_time),
    emails: p.email ? [{ value: p.email, primary: true, label: 'work' }] : [],
    phones: [],
    is_deleted: false,
    visible_to: 3,
    label_ids: p.label_ids,
    picture_id: null,
    postal_address: p.postal_address
      ? {
          value: p.postal_address.value, country: p.postal_address.country, admin_area_level_1: p.postal_address.admin_area_level_1,
          admin_area_level_2: null, locality: p.postal_address.locality, sublocality: null, route: null, street_number: null, subpremise: null, postal_code: null,
        }
      : null,
    custom_fields: opts.customFields.length ? Object.fromEntries(opts.customFields.map((k) => [k, custom[k] ?? null])) : custom,
  };
  if (opts.labels) out.labels = p.label_ids.map((id) => ({ id, label: store.data.labels.find((l) => l.id === id)!.label }));
  const counts = store.dealCounts(p);
  const counters: Record<string, number> = {
    won_deals_count: counts.won, lost_deals_count: counts.lost, open_deals_count: counts.open, closed_deals_count: counts.won + counts.lost,
  };
  for (const f of opts.includeFields) if (f in counters) out[f] = counters[f];
  return out;
}

export function renderOrganization(o: PdOrganization): Record<string, unknown> {
  return {
    id: o.id,
    name: o.name,
    owner_id: o.owner_id,
    add_time: v2Time(o.add_time),
    update_time: v2Time(o.update_time),
    is_deleted: false,
    visible_to: 3,
    label_ids: [],
    address: null,
    custom_fields: {},
  };
}

export function renderDeal(d: PdDeal): Record<string, unknown> {
  return {
    id: d.id,
    title: d.title,
    owner_id: d.owner_id,
    person_id: d.person_id,
    org_id: d.org_id,
    pipeline_id: d.pipeline_id,
    stage_id: d.stage_id,
    value: d.value,
    currency: d.currency,
    add_time: v2Time(d.add_time),
    update_time: v2Time(d.update_time),
    stage_change_time: v2Time(d.close_time ?? d.add_time),
    is_deleted: false,
    is_archived: false,
    status: d.status,
    probability: null,
    lost_reason: d.lost_reason,
    visible_to: 3,
    close_time: v2Time(d.close_time),
    won_time: v2Time(d.won_time),
    lost_time: v2Time(d.lost_time),
    expected_close_date: d.expected_close_date,
    label_ids: [],
    origin: 'ManuallyCreated',
    origin_id: null,
    channel: null,
    channel_id: null,
    custom_fields: {},
  };
}
