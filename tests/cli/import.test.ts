// crm import <file> as a subprocess, on the embedded default (PGlite): a user who registered with
// "Other" imports a CRM export without a terminal (--yes, else exit 1 saying so), sees the guessed
// mapping and the problems, changes the mapping with --map / --stage, asks a question, and undoes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contactsExportCsv } from '../../api/crm/synthetic-people/export.js';
import { generatePeople } from '../../api/crm/synthetic-people/index.js';
import { registerUser } from '../helpers/crm.js';
import { cliHarness } from './harness.js';

const h = cliHarness({ contacts: 50 });
const people = generatePeople({ count: 300, seed: 11 });

async function otherUser() {
  const { email } = await registerUser(h.url, { crmType: 'other' });
  const p = await h.signedIn(email);
  const file = (name: string, content: string | Buffer) => {
    const f = path.join(p.home, name);
    writeFileSync(f, content);
    return f;
  };
  return { ...p, email, file };
}

describe('crm import', () => {
  it('shows the guessed mapping, and without a terminal imports nothing unless --yes', async () => {
    const p = await otherUser();
    const csv = p.file('contacts.csv', contactsExportCsv(people));
    const r = await p.run(['import', csv]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/contacts\.csv · CSV, UTF-8, comma-separated, dates month first · 300 rows checked/);
    expect(r.stderr).toMatch(/Lifecycle Stage\s+Lifecycle stage/);
    expect(r.stderr).toMatch(/Country\/Region\s+Country/);
    expect(r.stderr).toMatch(/No problems found in the rows checked\./);
    expect(r.stderr).toMatch(/error: Import contacts\.csv with this mapping\? It replaces your current contacts\. Nothing was done\. Run it again with --yes to confirm without a prompt/);
    const status = await p.run(['crm']);
    expect(status.stdout).toMatch(/not connected/);
    // the upload was not left waiting on the server
    expect(await h.app.deps.prisma.contactImport.count({ where: { user: { email: p.email } } })).toBe(0);
  });

  it('imports with --yes, with progress on stderr, and the contacts answer questions', async () => {
    const p = await otherUser();
    const csv = p.file('contacts.csv', contactsExportCsv(people));
    const r = await p.run(['import', csv, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('✔ Imported 300 contacts from contacts.csv\n');
    expect(r.stderr).toMatch(/Sent 0\.\d MB of 0\.\d MB \(100%\)/);
    expect(r.stderr).toMatch(/Importing contacts\.csv: \d+% · \d+ rows read/);
    expect(r.stderr).toMatch(/undo with crm import --undo/);
    const status = await p.run(['crm']);
    expect(status.stdout).toMatch(/Connected via an imported contacts file\n\s+300 contacts from contacts\.csv, imported \d{4}-\d{2}-\d{2}/);
    const q = await p.run(['query', 'people in Germany', '--json']);
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout).resultCount).toBe(people.filter((x) => x.country === 'Germany').length);
    const leads = await p.run(['query', 'leads', '--json']);
    expect(JSON.parse(leads.stdout).resultCount).toBe(people.filter((x) => ['lead', 'marketingqualifiedlead', 'salesqualifiedlead'].includes(x.stage ?? '')).length);
  });

  it('changes the mapping with --map and --stage, reports problems, answers --json, and undoes', async () => {
    const p = await otherUser();
    const csv = p.file(
      'leads.csv',
      ['Contact,Mail,Status,Spent,Notes', 'Ann Lee,ann@acme.com,VIP,"1,200.50",x', 'Bob Stone,bob@acme.com,Lead,lots,y', 'Cy Doe,cy@acme.com,Lead,10,z'].join('\n'),
    );
    const r = await p.run(['import', csv, '--map', 'Contact=fullName', '--map', 'Mail=email', '--map', 'Spent=lifetimeValue', '--map', 'Notes=', '--stage', 'VIP=customer', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Contact\s+Full name/);
    expect(r.stderr).toMatch(/Notes\s+\(not imported\)/);
    expect(r.stderr).toMatch(/1 × Amounts that are not numbers \(imported empty\)/);
    expect(r.stderr).toMatch(/row 3: Spent: "lots" is not a number/);
    const state = JSON.parse(r.stdout);
    expect(state).toMatchObject({ fileName: 'leads.csv', status: 'active', rowCount: 3, importedCount: 3, skippedCount: 0, problemCount: 1 });
    const q = await p.run(['query', 'paying customers', '--json']);
    expect(JSON.parse(q.stdout).resultCount).toBe(1); // VIP means customer
    // remembered: the next file with the same headers needs no --map
    const again = p.file('more.csv', 'Contact,Mail,Status,Spent,Notes\nDee Fox,dee@acme.com,VIP,5,w\n');
    const second = await p.run(['import', again, '--yes']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('✔ Imported 1 contacts from more.csv\n');
    const undo = await p.run(['import', '--undo', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toBe('✔ Import undone — your contacts are those of leads.csv again (3)\n');
    const noTerminal = await p.run(['import', '--undo']);
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toMatch(/Run it again with --yes/);
  });

  it('says what is wrong with a file, with exit 1', async () => {
    const p = await otherUser();
    const missing = await p.run(['import', path.join(p.home, 'nope.csv'), '--yes']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: Cannot read .*nope\.csv: no such file\n$/) });
    const pdf = await p.run(['import', p.file('contacts.pdf', '%PDF-1.7 not contacts'), '--yes']);
    expect(pdf.code).toBe(1);
    expect(pdf.stderr).toMatch(/error: Upload failed: Not a spreadsheet: This file is a PDF document, not a spreadsheet/);
    const noName = await p.run(['import', p.file('companies.csv', 'Company,City\nAcme,Paris\n'), '--yes']);
    expect(noName.code).toBe(1);
    expect(noName.stderr).toMatch(/error: The file needs a column with the contacts' e-mail addresses or names/);
    expect(noName.stderr).toMatch(/--map "<column>=email"/);
    const badMap = await p.run(['import', p.file('x.csv', 'Email\na@b.c\n'), '--map', 'Nope=email', '--yes']);
    expect(badMap.code).toBe(1);
    expect(badMap.stderr).toMatch(/--map Nope=email: the file has no column "Nope"/);
    expect(await h.app.deps.prisma.contactImport.count({ where: { user: { email: p.email } } })).toBe(0);
    const usage = await p.run(['import']);
    expect(usage).toMatchObject({ code: 1, stderr: expect.stringMatching(/Which file\?/) });
  });
});
