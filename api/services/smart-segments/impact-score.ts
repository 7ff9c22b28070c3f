// Impact scores of smart segments: administrator-written formulas evaluated safely (pure, no DB).
//
// Sandbox (following mathjs's "Expression parser security" page): a private mathjs instance whose
// `import`, `createUnit`, `evaluate`, `parse`, `simplify`, `derivative`, `compile` and `resolve` are
// replaced by throwing functions, and — the real guard — every parsed formula is walked node by
// node and only whitelisted nodes pass: number constants, the six variables below, the operators
// + - * / ^ % (and `mod`), unary minus/plus, comparisons < <= > >= == !=, the conditional `? :`,
// parentheses and calls of min, max, log, log10, sqrt, abs, round, floor, ceil, exp. Everything
// else (assignments, function definitions, property/index access, matrices, objects, ranges,
// strings, booleans, units, several statements, other functions and operators) is refused with a
// clear message. `predictable: true` makes sqrt/log of negatives NaN instead of complex numbers.
//
// Variables, computed from the customers of a segment (product Customer shape) at an instant `now`:
// - customerCount: number of customers in the segment.
// - revenuePerCustomer: mean lifetimeValue over all customers of the segment (a missing
//   lifetimeValue counts as 0), i.e. total lifetime value / customerCount; 0 without customers.
// - engagementRate: share (0..1) of customers whose lastPurchaseDate is at most 90 days before
//   `now` (a date in the future counts as recent); customers without a (parseable) purchase date
//   are not engaged.
// - conversionRate: share of customers whose lifecycleStage is "customer" (case-insensitive).
// - churnRisk: share of customers whose lastPurchaseDate is more than 180 days before `now`
//   (customers who never purchased cannot churn and count as not at risk).
// - marketingCost: customerCount × the cost of marketing to one contact
//   (MARKETING_COST_PER_CONTACT = 0.5 USD unless overridden).
// Rates are 0 when there are no customers. Dates are ISO strings; a bare date (YYYY-MM-DD) is
// midnight UTC of that day; ages are measured in exact milliseconds (90 days = 90 × 24 h).
import { all, create, type MathNode } from 'mathjs';
import { AppError } from '../../errors.js';

export const FORMULA_VARIABLE_NAMES = [
  'customerCount',
  'revenuePerCustomer',
  'engagementRate',
  'conversionRate',
  'churnRisk',
  'marketingCost',
] as const;
export type FormulaVariable = (typeof FORMULA_VARIABLE_NAMES)[number];
export type ImpactVariables = Record<FormulaVariable, number>;

export const FORMULA_FUNCTIONS = ['min', 'max', 'log', 'log10', 'sqrt', 'abs', 'round', 'floor', 'ceil', 'exp'] as const;

/** USD spent to market to one contact; `marketingCost = customerCount × this`. */
export const MARKETING_COST_PER_CONTACT = 0.5;
export const ENGAGEMENT_WINDOW_DAYS = 90;
export const CHURN_AFTER_DAYS = 180;
export const MAX_FORMULA_LENGTH = 1000;

/** mathjs function names behind the allowed operators (`op` → `fn` in an OperatorNode). */
const ALLOWED_OPERATOR_FNS = new Set([
  'add',
  'subtract',
  'multiply',
  'divide',
  'pow',
  'mod',
  'unaryMinus',
  'unaryPlus',
  'smaller',
  'smallerEq',
  'larger',
  'largerEq',
  'equal',
  'unequal',
]);
const VARIABLES = new Set<string>(FORMULA_VARIABLE_NAMES);
const FUNCTIONS = new Set<string>(FORMULA_FUNCTIONS);

const math = create(all, { predictable: true, number: 'number' });
// Keep the functions we need before disabling their public names.
const parseExpression = math.parse;
const roundTo = math.round as (x: number, n: number) => number;
const disabled = (name: string) => () => {
  throw new Error(`Function ${name} is disabled`);
};
math.import(
  Object.fromEntries(
    ['import', 'createUnit', 'evaluate', 'parse', 'simplify', 'derivative', 'compile', 'resolve'].map((n) => [n, disabled(n)]),
  ),
  { override: true },
);

const bad = (message: string) => new AppError('BAD_USER_INPUT', message, { field: 'formula' });
const variableList = FORMULA_VARIABLE_NAMES.join(', ');

function checkNode(node: MathNode, path: string | null, parent: MathNode | null, used: Set<string>): void {
  const src = () => node.toString();
  switch (node.type) {
    case 'ConstantNode': {
      const value = (node as MathNode & { value: unknown }).value;
      if (typeof value === 'string') throw bad(`${src()}: strings are not allowed`);
      if (typeof value !== 'number') throw bad(`"${src()}": only numbers are allowed as constants`);
      if (!Number.isFinite(value)) throw bad(`"${src()}": only finite numbers are allowed`);
      return;
    }
    case 'SymbolNode': {
      const name = (node as MathNode & { name: string }).name;
      if (parent?.type === 'FunctionNode' && path === 'fn') return; // checked with the FunctionNode
      if (VARIABLES.has(name)) {
        used.add(name);
        return;
      }
      if (FUNCTIONS.has(name)) throw bad(`"${name}" is a function; call it like ${name}(x)`);
      throw bad(`Unknown variable "${name}". Available variables: ${variableList}`);
    }
    case 'FunctionNode': {
      const fn = (node as MathNode & { fn: MathNode }).fn;
      if (fn.type !== 'SymbolNode') throw bad(`"${src()}": only the allowed functions can be called`);
      const name = (fn as MathNode & { name: string }).name;
      if (!FUNCTIONS.has(name)) throw bad(`Function "${name}" is not allowed. Allowed functions: ${FORMULA_FUNCTIONS.join(', ')}`);
      return;
    }
    case 'OperatorNode': {
      const { op, fn } = node as MathNode & { op: string; fn: string };
      if (!ALLOWED_OPERATOR_FNS.has(fn)) {
        throw bad(`Operator "${op}" is not allowed. Use + - * / ^ %, comparisons (< <= > >= == !=) and "? :"`);
      }
      return;
    }
    case 'ParenthesisNode':
    case 'ConditionalNode':
      return;
    case 'AssignmentNode':
      throw bad(`"${src()}": assignments are not allowed`);
    case 'FunctionAssignmentNode':
      throw bad(`"${src()}": function definitions are not allowed`);
    case 'AccessorNode':
    case 'IndexNode':
      throw bad(`"${src()}": property and index access are not allowed`);
    case 'ArrayNode':
      throw bad(`"${src()}": matrices are not allowed`);
    case 'ObjectNode':
      throw bad(`"${src()}": objects are not allowed`);
    case 'RangeNode':
      throw bad(`"${src()}": ranges are not allowed`);
    case 'BlockNode':
      throw bad('A formula is a single expression (no ";" or line breaks between expressions)');
    default:
      throw bad(`"${src()}": this construct is not allowed`);
  }
}

interface Checked {
  node: MathNode;
  variables: string[];
}

function parseChecked(formula: string): Checked {
  if (typeof formula !== 'string' || !formula.trim()) throw bad('Formula is required');
  if (formula.length > MAX_FORMULA_LENGTH) throw bad(`Formula must be at most ${MAX_FORMULA_LENGTH} characters`);
  let node: MathNode;
  try {
    node = parseExpression(formula);
  } catch (err) {
    throw bad(`Syntax error in formula: ${err instanceof Error ? err.message : String(err)}`);
  }
  const used = new Set<string>();
  node.traverse((n, path, parent) => checkNode(n, path, parent, used));
  return { node, variables: FORMULA_VARIABLE_NAMES.filter((v) => used.has(v)) };
}

function run(node: MathNode, variables: ImpactVariables): unknown {
  const scope = new Map<string, number>(FORMULA_VARIABLE_NAMES.map((v) => [v, Number(variables[v])]));
  try {
    return node.compile().evaluate(scope);
  } catch (err) {
    throw bad(`Formula could not be evaluated: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Values of a typical segment: a formula must give a storable score here (the evaluation's full rule). */
const SAMPLE: ImpactVariables = {
  customerCount: 120,
  revenuePerCustomer: 2500,
  engagementRate: 0.4,
  conversionRate: 0.25,
  churnRisk: 0.1,
  marketingCost: 60,
};

/** The largest segment and mean lifetime value a formula is checked at (a large CRM, a big-ticket business). */
const LARGE_COUNT = 10_000_000;
const LARGE_REVENUE = 10_000_000;

/**
 * Boundary segments a formula must give a finite number for: an empty segment (every variable 0,
 * what computeImpactVariables gives without customers), and segments of one and of LARGE_COUNT
 * customers with a mean lifetime value of 0 or LARGE_REVENUE and each rate at 0 or 1 (engaged and
 * churned customers are disjoint, so those two never add up to more than 1).
 */
function boundarySegments(): ImpactVariables[] {
  const out: ImpactVariables[] = [computeImpactVariables([], { now: new Date(0) })];
  for (const customerCount of [1, LARGE_COUNT])
    for (const revenuePerCustomer of [0, LARGE_REVENUE])
      for (const engagementRate of [0, 1])
        for (const conversionRate of [0, 1])
          for (const churnRisk of [0, 1]) {
            if (engagementRate + churnRisk > 1) continue;
            out.push({ customerCount, revenuePerCustomer, engagementRate, conversionRate, churnRisk, marketingCost: customerCount * MARKETING_COST_PER_CONTACT });
          }
  return out;
}
const BOUNDARY_SEGMENTS = boundarySegments();

const NOT_A_NUMBER = 'Formula must produce a number (a comparison alone gives true/false; use "? :")';

/** The evaluation's rule: a finite number, rounded to 2 decimals, that an impact score can store. */
function scoreOf(node: MathNode, variables: ImpactVariables): number {
  const result = run(node, variables);
  if (typeof result !== 'number') throw bad(NOT_A_NUMBER);
  if (!Number.isFinite(result)) throw bad(`Formula produced a non-finite value (${result}), e.g. a division by zero or the log of a negative number`);
  const rounded = roundTo(result, 2);
  if (Math.abs(rounded) > MAX_IMPACT_SCORE) throw bad(`Formula produced ${rounded}, beyond the largest storable impact score (${MAX_IMPACT_SCORE})`);
  return rounded === 0 ? 0 : rounded; // no -0
}

const describeSegment = (v: ImpactVariables, used: string[]) =>
  Object.values(v).every((x) => x === 0)
    ? 'with an empty segment (every variable 0)'
    : `with ${used.map((name) => `${name} = ${v[name as FormulaVariable]}`).join(', ')}`;

/**
 * Checks a formula (syntax, whitelist) and that it gives a score wherever generation would evaluate
 * it: a storable score for a typical segment, and a finite number for the boundary segments (so a
 * formula that can never score, such as `0/0` or `9^9^9`, or that fails for an empty segment, such as
 * `log(customerCount)`, is refused when saved rather than failing every segment of its category).
 * Returns the variables it uses, in the order of FORMULA_VARIABLE_NAMES. Throws AppError BAD_USER_INPUT.
 */
export function validateFormula(formula: string): { variables: string[] } {
  const { node, variables } = parseChecked(formula);
  const typical = run(node, SAMPLE);
  if (typeof typical !== 'number') throw bad(NOT_A_NUMBER);
  if (!Number.isFinite(typical)) throw bad(`Formula gives no score for a typical segment: it gives ${typical}. It must give a finite number for every segment.`);
  scoreOf(node, SAMPLE);
  const compiled = node.compile();
  for (const v of BOUNDARY_SEGMENTS) {
    let result: unknown;
    try {
      result = compiled.evaluate(new Map(Object.entries(v)));
    } catch (err) {
      throw bad(`Formula could not be evaluated ${describeSegment(v, variables)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (typeof result !== 'number' || !Number.isFinite(result)) {
      throw bad(`Formula gives no score ${describeSegment(v, variables)}: it gives ${String(result)}. It must give a finite number for every segment.`);
    }
  }
  return { variables };
}

export interface ImpactCustomer {
  lifecycleStage: string | null;
  lastPurchaseDate: string | null;
  lifetimeValue: number | null;
}

const DAY_MS = 86_400_000;

/** The formula variables of a segment's customers at `now` (definitions in the header comment). */
export function computeImpactVariables(
  customers: readonly ImpactCustomer[],
  opts: { now: Date; marketingCostPerContact?: number },
): ImpactVariables {
  const now = opts.now.getTime();
  const perContact = opts.marketingCostPerContact ?? MARKETING_COST_PER_CONTACT;
  const customerCount = customers.length;
  let revenue = 0;
  let engaged = 0;
  let converted = 0;
  let churned = 0;
  for (const c of customers) {
    revenue += c.lifetimeValue ?? 0;
    if ((c.lifecycleStage ?? '').trim().toLowerCase() === 'customer') converted += 1;
    const purchased = c.lastPurchaseDate ? Date.parse(c.lastPurchaseDate) : Number.NaN;
    if (Number.isNaN(purchased)) continue;
    const ageMs = now - purchased;
    if (ageMs <= ENGAGEMENT_WINDOW_DAYS * DAY_MS) engaged += 1;
    if (ageMs > CHURN_AFTER_DAYS * DAY_MS) churned += 1;
  }
  const share = (n: number) => (customerCount ? n / customerCount : 0);
  return {
    customerCount,
    revenuePerCustomer: share(revenue),
    engagementRate: share(engaged),
    conversionRate: share(converted),
    churnRisk: share(churned),
    marketingCost: customerCount * perContact,
  };
}

/** Largest magnitude a Decimal(10,2) impact score can hold. */
export const MAX_IMPACT_SCORE = 99_999_999.99;

/** Evaluates a formula (validated again here) with the variables; the result rounded to 2 decimals. */
export function evaluateImpactScore(formula: string, variables: ImpactVariables): number {
  return scoreOf(parseChecked(formula).node, variables);
}
