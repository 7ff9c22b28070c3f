/**
 * Scores the natural-language parser (api/segmentation/testing/eval-score.ts):
 * - the team's set, tests/fixtures/nl-eval.json: exact match on the tuning and held-out sets, honesty on
 *   the unanswerable questions, result-set match on the sandbox's contacts;
 * - the external set, tests/fixtures/nl-eval-external.json (issue 23: questions nobody on the team wrote):
 *   verdicts as the query service answers, parsing with the sandbox's own values as the CRM vocabulary —
 *   exact / clarification (nothing runs; "right choice" = the expected segment is one of the choices) /
 *   flagged / confident-wrong, and honesty on the unanswerable questions.
 *
 *   npm run eval:nl                 # figures
 *   npm run eval:nl -- --show       # also the tuning cases that are not exact (never held-out ones)
 *   npm run eval:nl -- --min 0.97   # exit 1 when the team set's held-out exact match is below 97%
 *
 * Held-out cases are never printed, not even with --show: only their aggregate figures.
 */
import type { Segment } from '../api/segmentation/ast.js';
import { compileToHubSpot } from '../api/segmentation/compile-hubspot.js';
import { compileEvaluator, selectContacts } from '../api/segmentation/evaluate.js';
import type { HubSpotContact } from '../api/crm/hubspot/model/index.js';
import { externalRound, loadEvalFixture, loadExternalFixture, scoreAll, tallyVerdicts, type CaseScore, type EvalSummary } from '../api/segmentation/testing/eval-score.js';
import { sandboxVocabulary } from '../api/segmentation/testing/sandbox-vocabulary.js';

const fixture = loadEvalFixture();
const args = process.argv.slice(2);
const show = args.includes('--show') || args.includes('--verbose');
const minIdx = args.indexOf('--min');
const min = minIdx >= 0 ? Number(args[minIdx + 1]) : undefined;
const opts = { now: fixture.now, timeZone: fixture.timeZone };

interface Sandbox {
  contacts: HubSpotContact[];
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
    return {
      contacts,
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
    if (show) console.log(`(no sandbox: ${(e as Error).message})`);
    return undefined;
  }
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const pct = (x: number, of: number) => `${((100 * x) / Math.max(1, of)).toFixed(1)}%`;

/** A tuning case that is not right, for --show (held-out cases never come here). */
function describe(s: CaseScore, what: string): string {
  const { c, got, expected, clarification } = s;
  if (c.set === 'heldout') throw new Error('held-out cases are not printed');
  const seg = (x: Segment | undefined) => (x ? `${JSON.stringify(x.where ?? null)}${x.sort ? ` sort=${JSON.stringify(x.sort)}` : ''}${x.limit ? ` limit=${x.limit}` : ''}` : '(not a valid segment)');
  const lines = [`#${c.id} [${c.family}] ${what}: ${c.question}`, `   expected: ${seg(expected)}`, `   parsed:   ${seg(got.segment)} unrecognized=${JSON.stringify(got.unrecognized)}`];
  if (clarification) lines.push(`   asks:     ${clarification.issues.map((i) => i.message).join(' ')}${s.rightChoice ? ' (right choice offered)' : ''}`);
  return lines.join('\n');
}

function teamSet(summary: EvalSummary, label: string) {
  const { tuning, heldout, unanswerable } = summary;
  return `${label}: tuning ${tuning.exact}/${tuning.n} (${pct(tuning.exact, tuning.n)}), held-out ${heldout.exact}/${heldout.n} (${pct(heldout.exact, heldout.n)}), unanswerable honest ${unanswerable.honest}/${unanswerable.n}`;
}

async function main() {
  const sandbox = await loadSandbox();
  const vocabulary = sandboxVocabulary(fixture.now);

  // ---- the team's set
  const summary = scoreAll(fixture);
  let resultSame = 0;
  let engineSame = 0;
  for (const { got, expected } of summary.scores) {
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
  }
  const withVocabulary = scoreAll(fixture, { vocabulary });
  if (show) {
    const bad = withVocabulary.scores.filter((s) => s.c.set === 'tuning' && (s.c.unanswerable ? !s.honest : !s.exact));
    if (bad.length) console.log(`Team set, tuning cases not right (${bad.length}):\n${bad.map((s) => describe(s, s.c.unanswerable ? 'not honest' : 'not exact')).join('\n')}\n`);
  }
  const n = summary.scores.length;
  console.log('Team set (tests/fixtures/nl-eval.json)');
  console.log(`  ${teamSet(summary, 'parser alone')}`);
  console.log(`  ${teamSet(withVocabulary, "with the sandbox's values")}`);
  const asked = withVocabulary.scores.filter((s) => !s.c.unanswerable && s.exact && s.clarification).length;
  console.log(`  exact but asked first (answerable): ${asked}`);
  if (sandbox) {
    console.log(`  result-set match: ${resultSame}/${n} (${pct(resultSame, n)}) over ${sandbox.contacts.length} sandbox contacts`);
    console.log(`  compiled search = evaluate.ts on the sandbox engine: ${engineSame}/${n}`);
  }

  // ---- the external set, as the service answers with the sandbox's values
  const external = loadExternalFixture();
  const ext = scoreAll(external, { vocabulary: sandboxVocabulary(external.now) });
  if (show) {
    const bad = ext.scores.filter((s) => s.c.set === 'tuning' && (s.c.unanswerable ? s.honesty !== 'honest' : s.verdict !== 'exact'));
    if (bad.length) console.log(`\nExternal set, tuning cases not right (${bad.length}):\n${bad.map((s) => describe(s, (s.c.unanswerable ? s.honesty : s.verdict) as string)).join('\n')}`);
  }
  console.log(`\nExternal set (tests/fixtures/nl-eval-external.json), as the service answers with the sandbox's values`);
  for (const set of ['tuning', 'heldout'] as const) {
    const t = tallyVerdicts(ext.scores, set);
    const a = t.answerable;
    const u = t.unanswerable;
    console.log(
      `  ${set.padEnd(8)} answerable ${a.n}: exact ${a.exact} (${pct(a.exact, a.n)}), clarification ${a.clarification} (right choice offered ${a.rightChoice}), flagged ${a.flagged}, confident-wrong ${a['confident-wrong']}`,
    );
    console.log(`  ${''.padEnd(8)} unanswerable ${u.n}: honest ${u.honest} (${pct(u.honest, u.n)}), asks but understood otherwise ${u['asks-differs']}, ran ${u.runs}`);
    for (const origin of ['blind', 'real']) {
      const part = tallyVerdicts(ext.scores.filter((s) => s.c.origin?.startsWith(origin)), set);
      console.log(`  ${''.padEnd(8)}   ${origin}: exact ${part.answerable.exact}/${part.answerable.n}, confident-wrong ${part.answerable['confident-wrong']}, honest ${part.unanswerable.honest}/${part.unanswerable.n}`);
    }
    for (const round of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17] as const) {
      const part = tallyVerdicts(ext.scores.filter((s) => externalRound(s.c) === round), set);
      if (part.answerable.n + part.unanswerable.n === 0) continue;
      const a = part.answerable;
      console.log(
        `  ${''.padEnd(8)}   round ${round}: exact ${a.exact}/${a.n}, clarification ${a.clarification} (right choice ${a.rightChoice}), flagged ${a.flagged}, confident-wrong ${a['confident-wrong']}, honest ${part.unanswerable.honest}/${part.unanswerable.n} (ran ${part.unanswerable.runs})`,
      );
    }
  }
  if (min !== undefined && summary.heldout.exact / summary.heldout.n < min) process.exitCode = 1;
}

await main();
