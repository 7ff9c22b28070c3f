/**
 * One lifecycle reading everywhere: for odd stored values, the Customer mapping (what the product makes
 * of what the connector returns), the sandbox's rendering, the in-memory evaluator and the compiled
 * HubSpot searches (run by the sandbox's engine) all put a contact in the same stage.
 */
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STAGES, type LifecycleStage } from '../crm/hubspot/model/index.js';
import type { SandboxContact } from '../crm/hubspot-sandbox/data.js';
import { createContactStore, executeSearch } from '../crm/hubspot-sandbox/search.js';
import { renderContact } from '../crm/hubspot-sandbox/store.js';
import { mapContactToCustomer } from '../crm/mapping.js';
import type { Segment } from './ast.js';
import { compileToHubSpot } from './compile-hubspot.js';
import { evaluateSegment } from './evaluate.js';

const NOW = Date.parse('2026-06-15T00:00:00Z');

const CASES: Array<[input: string | null, stage: LifecycleStage]> = [
  [' Customer ', 'customer'],
  ['MARKETINGQUALIFIEDLEAD', 'lead'],
  ['Evangelist', 'customer'],
  ['subscriber', 'subscriber'],
  ['other', 'unknown'],
  ['1234567', 'unknown'], // a custom stage id
  ['prospect', 'unknown'],
  ['', 'unknown'],
  [null, 'unknown'],
];

const contacts: SandboxContact[] = CASES.map(([input], i) => ({
  id: 1001 + i,
  firstname: null, lastname: null, email: null, company: null,
  lifecyclestage: input,
  recent_deal_close_date: null, recent_deal_amount: null, total_revenue: null,
  city: null, state: null, country: null,
  createdate: NOW, lastmodifieddate: NOW,
}));
const store = createContactStore(contacts);
const stageSegment = (stage: LifecycleStage): Segment => ({ version: 1, where: { field: 'lifecycleStage', op: 'eq', value: stage } });

/** Ids the compiled searches for "stage is `stage`" return from the sandbox. */
function searchedIds(stage: LifecycleStage): Set<string> {
  const ids = new Set<string>();
  for (const search of compileToHubSpot(stageSegment(stage), { now: NOW }).searches) {
    for (const r of executeSearch(store, search).results) ids.add(r.id);
  }
  return ids;
}
const searched = new Map(LIFECYCLE_STAGES.map((s) => [s, searchedIds(s)] as const));

describe.each(CASES.map(([input, stage], i) => [JSON.stringify(input), stage, i] as const))('lifecyclestage %s', (_, stage, i) => {
  const id = String(contacts[i].id);
  const raw = { id, properties: { hs_object_id: id, lifecyclestage: contacts[i].lifecyclestage } };

  it(`maps to ${stage} (Customer mapping of the raw value)`, () => {
    expect(mapContactToCustomer(raw).lifecycleStage).toBe(stage);
  });

  it(`maps to ${stage} as the sandbox renders it`, () => {
    const rendered = renderContact(store, store.rowOfId(Number(id)), ['lifecyclestage']);
    expect(mapContactToCustomer(rendered).lifecycleStage).toBe(stage);
  });

  it(`is in ${stage} and no other stage for the evaluator and the compiled searches`, () => {
    for (const s of LIFECYCLE_STAGES) {
      expect(evaluateSegment(stageSegment(s), raw, { now: NOW }), `evaluator, stage ${s}`).toBe(s === stage);
      expect(searched.get(s)!.has(id), `compiled search, stage ${s}`).toBe(s === stage);
    }
  });
});
