// Test helpers for contacts files: upload one (raw body), preview it, import it with the guessed mapping.
import { expect } from 'vitest';
import type { Client } from './test-app.js';
import { until } from './wait.js';

export const PREVIEW = `query($id: ID!, $mapping: ContactImportMappingInput) {
  contactImportPreview(id: $id, mapping: $mapping) {
    encoding delimiter blocker scannedRows complete dateOrderDetected
    columns { index header field samples }
    mapping { columns { index field } stages { value stage } dateOrder encoding }
    rows { row customer { id firstName lastName email company lifecycleStage lastPurchaseDate lastPurchaseAmount lifetimeValue city state country } problems { kind row column value message } }
    problems { total counts { kind count label } examples { kind row column value message } }
    stageValues { value count stage known }
    contactImport { id status fileName format byteSize }
  }
}`;

export const START = `mutation($input: StartContactImportInput!) { startContactImport(input: $input) { contactImport { id status } } }`;

export const IMPORT_STATE = `query($id: ID!) { node(id: $id) { ... on ContactImport {
  id status error rowCount importedCount skippedCount problemCount progress bytesRead byteSize
  problems { total counts { kind count } examples { kind row column value message } }
} } }`;

/** Sends a file as the raw body of POST /api/crm/imports with the client's cookies (or a Bearer token). */
export async function upload(c: Client, body: BodyInit, name = 'contacts.csv', headers: Record<string, string> = {}) {
  const h: Record<string, string> = { origin: c.baseUrl, ...headers };
  if (c.cookies.size) h.cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${c.baseUrl}/api/crm/imports?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: h,
    body,
    ...(typeof body === 'object' && body !== null && 'getReader' in body ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** The preview's mapping as the mutation's input. */
export function mappingInput(preview: any, change: (m: any) => void = () => {}) {
  const m = {
    columns: preview.mapping.columns.map((c: any) => ({ index: c.index, field: c.field })),
    stages: preview.mapping.stages.map((s: any) => ({ value: s.value, stage: s.stage })),
    dateOrder: preview.mapping.dateOrder,
    ...(preview.mapping.encoding ? { encoding: preview.mapping.encoding } : {}),
  };
  change(m);
  return m;
}

export async function preview(c: Client, id: string, mapping?: unknown) {
  const r = await c.gql(PREVIEW, { id, mapping });
  expect(r.errors).toBeUndefined();
  return r.data.contactImportPreview;
}

/** Waits until the import is done (active or failed) and returns its state. */
export async function waitForImport(c: Client, id: string, timeoutMs = 60_000) {
  let state: any;
  await until(
    async () => {
      const r = await c.gql(IMPORT_STATE, { id });
      state = r.data?.node;
      return state && state.status !== 'importing';
    },
    { timeoutMs, intervalMs: 100, what: 'the import to finish' },
  );
  return state;
}

/** Upload, preview (guessed mapping, optionally changed), import, wait: the import's final state. */
export async function importFile(c: Client, body: BodyInit, name = 'contacts.csv', change?: (m: any) => void) {
  const up = await upload(c, body, name);
  expect(up.status, up.text).toBe(201);
  const p = await preview(c, up.json.importId);
  const started = await c.gql(START, { input: { importId: up.json.importId, mapping: mappingInput(p, change) } });
  expect(started.errors).toBeUndefined();
  return { upload: up.json, preview: p, state: await waitForImport(c, up.json.importId) };
}
