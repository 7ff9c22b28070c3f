// LLM_BASE_URL switches the product to an OpenAI-compatible model for parsing; a bad answer falls
// back to the built-in parser and the assistant says so.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedUser, expectedIds } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let fake: http.Server;
let answer: string;
const requests: any[] = [];

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer } }] }));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  const port = (fake.address() as AddressInfo).port;
  t = await startTestApp({ SANDBOX_CONTACTS: '300', LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_API_KEY: 'sk-test', LLM_MODEL: 'test-model' });
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => fake.close(r));
});

describe('language-model parser', () => {
  it("uses the model's segment", async () => {
    answer = JSON.stringify({ version: 1, where: { field: 'lifecycleStage', op: 'eq', value: 'subscriber' } });
    const { c } = await connectedUser(t.app, t.url);
    const r = await c.post('/api/queries', { naturalLanguage: 'people who signed up for the newsletter' });
    expect(r.status).toBe(200);
    expect(r.json.query.segment).toEqual({ version: 1, where: { field: 'lifecycleStage', op: 'eq', value: 'subscriber' } });
    expect(r.json.resultCount).toBe((await expectedIds(t.app, 'subscribers')).length);
    const last = requests.at(-1);
    expect(last.url).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer sk-test');
    expect(last.body.model).toBe('test-model');
  });

  it('falls back to the built-in parser on an unusable answer and says so', async () => {
    answer = 'I think you mean leads?';
    const { c } = await connectedUser(t.app, t.url);
    const r = await c.post('/api/queries', { naturalLanguage: 'leads in Canada' });
    expect(r.status).toBe(200);
    expect(r.json.resultCount).toBe((await expectedIds(t.app, 'leads in Canada')).length);
    expect(r.json.message).toMatch(/language model's answer could not be used/);
  });
});
