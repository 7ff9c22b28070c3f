/**
 * Zoho's official Node SDK (@zohocrm/nodejs-sdk-7.0), unmodified, against the sandbox over a real
 * loopback socket: the SDK exchanges a self client's grant code at the org's accounts server (the EU data
 * centre here), then pages a COQL query and reads field metadata.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Zoho from '@zohocrm/nodejs-sdk-7.0';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isContactPerson, personIdOfRecord } from './data.js';
import { startZohoSandboxServer, type RunningZohoSandbox } from './server.js';

// The SDK ships JavaScript without type declarations (zoho-sdk.d.ts declares it as `any`).
const Z = Zoho;

let running: RunningZohoSandbox;
let dir: string;

beforeAll(async () => {
  running = await startZohoSandboxServer({ contactCount: 2500, seed: 9, now: '2026-06-01T00:00:00Z', dataCentre: 'eu' });
  dir = mkdtempSync(join(tmpdir(), 'zoho-sdk-'));
  const grant = running.sandbox.issueSelfClientGrant();
  const { url, sandbox } = running;
  const environment = Z.DataCenter.setEnvironment(`${url}/api/eu`, `${url}/accounts/eu/oauth/v2/token`, `${url}/api/eu`);
  const token = new Z.OAuthBuilder().clientId(sandbox.config.selfClientId).clientSecret(sandbox.config.selfClientSecret).grantToken(grant.code).build();
  await (await new Z.InitializeBuilder())
    .environment(environment)
    .token(token)
    .store(new Z.FileStore(join(dir, 'tokens.txt')))
    .resourcePath(dir)
    .logger(new Z.LogBuilder().level(Z.Levels.OFF).filePath(null).build())
    .initialize();
});

afterAll(async () => {
  await running?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('@zohocrm/nodejs-sdk-7.0 against the sandbox', () => {
  it('pages a COQL query to the end through info.more_records', async () => {
    const { people } = running.sandbox.state.dataset;
    const expected = people.filter((p) => isContactPerson(p) && p.stage !== null && (p.country === 'Germany' || p.country === 'France')).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(25);
    const ops = new Z.Coql.CoqlOperations();
    const got: number[] = [];
    for (let offset = 0, more = true; more; offset += 25) {
      const body = new Z.Coql.BodyWrapper();
      body.setSelectQuery(`select Email, Mailing_Country, Account_Name.Account_Name from Contacts where (Mailing_Country in ('germany', 'France') and Lifecycle_Stage is not null) limit ${offset}, 25`);
      const res = await ops.getRecords(body);
      expect(res.getStatusCode()).toBe(200);
      const wrapper = res.getObject();
      expect(wrapper).toBeInstanceOf(Z.Coql.ResponseWrapper);
      for (const r of wrapper.getData()) {
        got.push(personIdOfRecord(String(r.getId()))!);
        expect(['Germany', 'France']).toContain(r.getKeyValue('Mailing_Country'));
      }
      more = wrapper.getInfo().getMoreRecords();
    }
    expect(got).toEqual(expected);
  });

  it("reads COQL errors into the SDK's exception type", async () => {
    const body = new Z.Coql.BodyWrapper();
    body.setSelectQuery("select Email from Contacts where Email = 'a' and Last_Name = 'b' and First_Name = 'c'");
    const res = await new Z.Coql.CoqlOperations().getRecords(body);
    expect(res.getStatusCode()).toBe(400);
    const err = res.getObject();
    expect(err).toBeInstanceOf(Z.Coql.APIException);
    expect(err.getCode().getValue()).toBe('SYNTAX_ERROR');
  });

  it('reads field metadata', async () => {
    const params = new Z.ParameterMap();
    await params.add(Z.Fields.GetFieldsParam.MODULE, 'Deals');
    const res = await new Z.Fields.FieldsOperations().getFields(params);
    const names = res.getObject().getFields().map((f: { getAPIName(): string }) => f.getAPIName());
    expect(names).toEqual(expect.arrayContaining(['Stage', 'Amount', 'Closing_Date', 'Contact_Name']));
  });
});
