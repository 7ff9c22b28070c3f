/**
 * The perturbation check (issue 23): every tuning question of both evaluation sets, typed differently
 * (case, a typo in a long word, accents stripped or added, punctuation, spacing, the order of a place phrase:
 * testing/perturb.ts), runs with its expected segment or asks first, never a different segment.
 */
import { describe, expect, it } from 'vitest';
import { loadEvalFixture, loadExternalFixture, perturbationCheck } from '../testing/eval-score.js';
import { variantsOf } from '../testing/perturb.js';
import { sandboxVocabulary } from '../testing/sandbox-vocabulary.js';

const external = loadExternalFixture();

describe.each([
  ['the team set', loadEvalFixture()],
  // every round; tuning cases on which the writers disagree with each other or with the product are left out (their
  // reading runs as written in every variant): #755 "whales" (#69 of another writer reads them as the top 10 by lifetime
  // value), #1186 "best customers" (the brief's superlatives rank; the writer asks); #1229, #1297 and #2123 look a person
  // up by a name with accents ("Jürgen Weber", "García"): typed without them the name is searched as typed, since
  // people's names are not among the CRM values the parser knows (a known limit, in the README); #1487 "everyone except
  // paying customers in france" reads the exception over both words where round six's writer reads it over the stage
  // alone; #1671 "west coast customers …" is a place the product defines (California, Oregon, Washington) where the
  // writer, whose brief does not define it, marks the question unanswerable; #1887 "everyone other than the evangelists
  // who hasnt bought since january" (the product excepts the evangelists who have not bought, and says so; the writer
  // excepts all evangelists) and #1922 "EMEA excl. the Middle East" (the brief does not define the Middle East: the
  // product's list has Egypt and Palestine, the writer's does not). Since session 35 "most recent buyers" (#931, #1052,
  // #1227, #1399, #1610, #1730, #1824, #2028) and "no purchase in <period>" (#1735, #2058) are read as the writers read
  // them, and are in. Rounds twelve and thirteen (session 35) are in, but for #2279 "stage in (lead, mql) created_at >
  // 2026-01-01" (the writer reads "> date" as after its first instant, the product as from the next day, and "lead, mql"
  // as the lead stage alone, which holds MQLs) and #2384 "pipeline in EU" (the writer reads the EU as Europe; round
  // thirteen's other writer reads it as the 27 member states, as the product does). Round fourteen is in, but for #2508
  // "… Toronto, Vancouver, or Montréal …" (the product searches the CRM's own spelling, "Montreal") and #2556 "people who
  // bought in the summer" (the writer finds the season unanswerable; the brief's "most recent that has started" gives
  // this summer). Round fifteen is in, but for #2722 "six-figure accounts" (the product reads six figures as $100,000 up
  // to a million, the writer as $100,000 or more). Rounds sixteen and seventeen (session 36) are in, but for #3082 "who's the biggest spender in spain?" (the product
  // reads a superlative in the singular as one contact, the writer as the brief's ten).
  ['the external set', { ...external, cases: external.cases.filter((c) => ![3082, 755, 1186, 1229, 1297, 1487, 1671, 1887, 1922, 2123, 2279, 2384, 2508, 2556, 2722].includes(c.id)) }],
])('%s, varied', (_name, fixture) => {
  it('never runs a different segment', () => {
    const r = perturbationCheck(fixture, variantsOf, { vocabulary: sandboxVocabulary(fixture.now) });
    expect(r.variants).toBeGreaterThan(800);
    const wrong = r.wrong.map((w) => `#${w.c.id} [${w.kind}] ${w.text}: ${JSON.stringify(w.got.segment)}`).join('\n');
    expect(r.wrong.length, wrong).toBe(0);
    // most variants still run at once (round eleven's tuning half, Spanish and Portuguese words among the English, asks
    // more often than the others, as its questions themselves do: the share went from 0.72 to 0.70)
    expect(r.same / r.variants).toBeGreaterThan(0.65);
  });
});

describe('variantsOf', () => {
  it('varies case, spelling, accents, punctuation, spacing and order', () => {
    const kinds = (q: string) => variantsOf(q).map((v) => v.kind);
    expect(kinds('customers in malmo who purchased in the last 60 days')).toEqual(['upper', 'sentence', 'typo', 'accents-added', 'punctuation', 'spaces', 'order']);
    expect(variantsOf('leads in Düsseldorf')).toContainEqual({ kind: 'accents-stripped', text: 'leads in Dusseldorf' });
    expect(variantsOf('customers in california with ltv over 5k')).toContainEqual({ kind: 'typo', text: 'customers in caliofrnia with ltv over 5k' });
    expect(variantsOf('leads in canada who bought last week')).toContainEqual({ kind: 'order', text: 'leads who bought last week in canada' });
  });
});
