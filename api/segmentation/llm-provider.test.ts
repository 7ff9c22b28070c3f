import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLM_FALLBACK_NOTE, createLlmParser, createParser } from './llm-provider.js';

type Handler = (body: any, req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let baseUrl: string;
let handler: Handler = () => {};
const requests: any[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      requests.push({ url: req.url, auth: req.headers.authorization, body });
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const opts = { now: '2026-06-15T12:00:00Z', timeZone: 'UTC' };
const reply = (content: string) => (_b: unknown, _q: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
};

describe('language-model parser against a fake OpenAI-compatible endpoint', () => {
  it('uses a valid JSON answer', async () => {
    const segment = { version: 1, where: { field: 'country', op: 'eq', value: 'Japan' } };
    handler = reply(JSON.stringify({ segment, unrecognized: ['vibes'] }));
    const parser = createLlmParser({ baseUrl, apiKey: 'sk-test', model: 'test-model' });
    const r = await parser.parse('customers in Japan with good vibes', opts);
    expect(r.segment).toEqual(segment);
    expect(r.unrecognized).toEqual(['vibes']);
    expect(r.notes).toEqual([]);
    const last = requests[requests.length - 1];
    expect(last.url).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer sk-test');
    expect(last.body.model).toBe('test-model');
    expect(last.body.messages[0].content).toContain('Today is 2026-06-15');
    expect(last.body.messages[1]).toEqual({ role: 'user', content: 'customers in Japan with good vibes' });
  });

  it('accepts a bare segment wrapped in a code fence', async () => {
    handler = reply('```json\n{"version":1,"where":{"field":"lifecycleStage","op":"eq","value":"lead"}}\n```');
    const r = await createLlmParser({ baseUrl, model: 'm' }).parse('leads', opts);
    expect(r.segment.where).toEqual({ field: 'lifecycleStage', op: 'eq', value: 'lead' });
  });

  it('falls back to the built-in parser on invalid JSON', async () => {
    handler = reply('Sure! Here are your customers in Germany.');
    const r = await createLlmParser({ baseUrl, model: 'm' }).parse('customers in Germany', opts);
    expect(r.segment.where).toEqual({ field: 'country', op: 'eq', value: 'Germany' });
    expect(r.notes[0]).toBe(LLM_FALLBACK_NOTE);
  });

  it('falls back when the JSON is not a valid segment', async () => {
    handler = reply(JSON.stringify({ segment: { version: 1, where: { field: 'shoeSize', op: 'gt', value: 42 } } }));
    const r = await createLlmParser({ baseUrl, model: 'm' }).parse('leads in France', opts);
    expect(r.notes).toContain(LLM_FALLBACK_NOTE);
    expect(r.segment.where).toEqual({ and: [{ field: 'lifecycleStage', op: 'eq', value: 'lead' }, { field: 'country', op: 'eq', value: 'France' }] });
  });

  it('falls back on HTTP 500', async () => {
    handler = (_b, _q, res) => {
      res.writeHead(500);
      res.end('boom');
    };
    const r = await createLlmParser({ baseUrl, model: 'm' }).parse('subscribers', opts);
    expect(r.notes[0]).toBe(LLM_FALLBACK_NOTE);
    expect(r.segment.where).toEqual({ field: 'lifecycleStage', op: 'eq', value: 'subscriber' });
  });

  it('falls back on timeout', async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const r = await createLlmParser({ baseUrl, model: 'm', timeoutMs: 150 }).parse('prospects', opts);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.notes[0]).toBe(LLM_FALLBACK_NOTE);
    expect(r.segment.where).toEqual({ field: 'lifecycleStage', op: 'eq', value: 'opportunity' });
  });

  it('falls back when the endpoint is unreachable', async () => {
    const r = await createLlmParser({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }).parse('leads', opts);
    expect(r.notes[0]).toBe(LLM_FALLBACK_NOTE);
  });

  it('defaults to the deterministic parser', async () => {
    const p = createParser();
    expect(p.kind).toBe('deterministic');
    expect((await p.parse('leads', opts)).segment.where).toEqual({ field: 'lifecycleStage', op: 'eq', value: 'lead' });
    expect(createParser({ kind: 'llm', baseUrl, model: 'm' }).kind).toBe('llm');
  });
});
