/**
 * Scores the natural-language parser against tests/fixtures/nl-eval.json: exact match on the tuning
 * and held-out sets, honesty on the unanswerable questions (api/segmentation/testing/eval-score.ts).
 *
 *   npm run eval:nl                 # summary + failures
 *   npm run eval:nl -- --verbose    # also prints every parsed segment
 *   npm run eval:nl -- --min 0.97   # exit 1 when held-out exact-match accuracy is below 97%
 *
 * Exact match: the parsed and expected segments are equal after normalizeSegment (dates resolved against
 * the fixture's "now"), and the unrecognised phrases match when the case lists them.
 * Result-set match: on the HubSpot sandbox's synthetic contacts, the parsed segment selects the same
 * contacts as the expected one (filter, sort and limit via evaluate.ts); the parsed segment is also
 * compiled and run through the sandbox's search engine, which must select the same contacts. The three
 * figures are also given with the sandbox's own company names passed to the parser, as the service does.
 */
import type { Segment } from '../api/segmentation/ast.js';
import { compileToHubSpot } from '../api/segmentation/compile-hubspot.js';
import { compileEvaluator, selectContacts } from '../api/segmentation/evaluate.js';
import type { HubSpotContact } from '../api/crm/hubspot/model/index.js';
import { KnownCompanies } from '../api/segmentation/parser/known-companies.js';
import { loadEvalFixture, scoreAll } from '../api/segmentation/testing/eval-score.js';

const fixture = loadEvalFixture();
const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const minIdx = args.indexOf('--min');
const min = minIdx >= 0 ? Number(args[minIdx + 1]) : undefined;
const opts = { now: fixture.now, timeZone: fixture.timeZone };

interface Sandbox {
  contacts: HubSpotContact[];
  companies: string[];
  run(segment: Segment): Set<string>;
}

/** The sandbox's synthetic contacts and search engine, when the sandbox is present. */
async function loadSandbox(): Promise<Sandbox | undefined> {
  try {
    const data = await import('../api/crm/hubspot-sandbox/data.js');
    const search = await import('../api/crm/hubspot-sandbox/search.js');
    const raw = data.generateContacts({ count: 5000, seed: 42, now: fixture.now });
    const store = search.createContactStore(raw);
    const contacts: HubSpotContact[] = raw.map((c) => {
      const properties: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(c)) properties[k] = v === null || v === undefined ? null : String(v);
      properties.hs_object_id = String(c.id);
      return { id: String(c.id), properties };
    });
    const counts = new Map<string, number>();
    for (const c of raw) if (c.company) counts.set(c.company, (counts.get(c.company) ?? 0) + 1);
    return {
      contacts,
      companies: [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name),
      run(segment) {
        const ids = new Set<string>();
        for (const s of compileToHubSpot(segment, opts).searches) {
          let after = '0';
          for (;;) {
            const page = search.executeSearch(store, { ...s, sorts: undefined, after, limit: 200 });
            for (const r of page.results) ids.add(r.id);
            if (!page.paging?.next?.after || Number(page.paging.next.after) >= 9800) break;
            after = page.paging.next.after;
          }
        }
        return ids;
      },
    };
  } catch (e) {
    if (verbose) console.log(`(no sandbox: ${(e as Error).message})`);
    return undefined;
  }
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

async function main() {
  const sandbox = await loadSandbox();
  const summary = scoreAll(fixture);
  let resultSame = 0;
  let engineSame = 0;
  const failures: string[] = [];
  const byFamily = new Map<string, { n: number; ok: number }>();
  for (const { c, got, expected, exact: ok, honest } of summary.scores) {
    const fam = byFamily.get(c.family) ?? { n: 0, ok: 0 };
    fam.n++;
    if (ok) fam.ok++;
    byFamily.set(c.family, fam);
    if (sandbox && expected) {
      const e = new Set(selectContacts(expected, sandbox.contacts, opts).map((x) => x.id));
      const p = new Set(selectContacts(got.segment, sandbox.contacts, opts).map((x) => x.id));
      if (sameSet(e, p)) resultSame++;
    }
    if (sandbox) {
      const filterOnly = { ...got.segment, sort: undefined, limit: undefined };
      const viaEvaluate = new Set(sandbox.contacts.filter(compileEvaluator(filterOnly, opts)).map((x) => x.id));
      if (sameSet(viaEvaluate, sandbox.run(filterOnly))) engineSame++;
    }
    if (!ok) {
      failures.push(
        [
          `#${c.id} [${c.set}/${c.family}] ${c.question}${honest === false ? '  (NOT HONEST)' : ''}`,
          `   expected: ${expected ? JSON.stringify(expected.where ?? null) : `(not a valid segment yet) ${JSON.stringify(c.expected)}`}${expected?.sort ? ` sort=${JSON.stringify(expected.sort)}` : ''}${expected?.limit ? ` limit=${expected.limit}` : ''}${c.unrecognized ? ` unrecognized=${JSON.stringify(c.unrecognized)}` : ''}`,
          `   parsed:   ${JSON.stringify(got.segment.where ?? null)}${got.segment.sort ? ` sort=${JSON.stringify(got.segment.sort)}` : ''}${got.segment.limit ? ` limit=${got.segment.limit}` : ''} unrecognized=${JSON.stringify(got.unrecognized)}`,
        ].join('\n'),
      );
    } else if (verbose) {
      console.log(`ok #${c.id} ${c.question}\n   ${JSON.stringify(got.segment)}`);
    }
  }
  const n = summary.scores.length;
  const pct = (x: number, of = n) => `${((100 * x) / of).toFixed(1)}%`;
  if (failures.length) console.log(`Failures (${failures.length}):\n${failures.join('\n')}\n`);
  console.log('By family:');
  for (const [f, s] of byFamily) console.log(`  ${f.padEnd(20)} ${s.ok}/${s.n}`);
  const { tuning, heldout, unanswerable } = summary;
  console.log(`\nExact match, tuning set:   ${tuning.exact}/${tuning.n} (${pct(tuning.exact, tuning.n)})`);
  console.log(`Exact match, held-out set: ${heldout.exact}/${heldout.n} (${pct(heldout.exact, heldout.n)})`);
  console.log(`Unanswerable, honest:      ${unanswerable.honest}/${unanswerable.n} (${pct(unanswerable.honest, unanswerable.n)})`);
  if (sandbox) {
    // as the service parses: with the CRM's own company names (services/known-companies.ts)
    const withNames = scoreAll(fixture, KnownCompanies.from(sandbox.companies));
    console.log(
      `With the sandbox's ${sandbox.companies.length} company names: tuning ${withNames.tuning.exact}/${withNames.tuning.n}, held-out ${withNames.heldout.exact}/${withNames.heldout.n}, honest ${withNames.unanswerable.honest}/${withNames.unanswerable.n}`,
    );
    console.log(`Result-set match: ${resultSame}/${n} (${pct(resultSame)}) over ${sandbox.contacts.length} sandbox contacts`);
    console.log(`Compiled search = evaluate.ts on the sandbox engine: ${engineSame}/${n}`);
  } else console.log('Result-set match: skipped (api/crm/hubspot-sandbox not available)');
  if (min !== undefined && heldout.exact / heldout.n < min) process.exitCode = 1;
}

await main();
