import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../prisma/seed/content.js';
import { AppError } from '../../errors.js';
import {
  computeImpactVariables,
  evaluateImpactScore,
  FORMULA_VARIABLE_NAMES,
  MARKETING_COST_PER_CONTACT,
  validateFormula,
  type ImpactCustomer,
} from './impact-score.js';

function rejection(formula: string): AppError {
  try {
    validateFormula(formula);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BAD_USER_INPUT');
    return err as AppError;
  }
  throw new Error(`formula was accepted: ${formula}`);
}

const NOW = new Date('2026-06-30T12:00:00Z');

// Ages at NOW: 29.5 d, 90.5 d, none, 211.5 d, 1.5 d, 180.5 d.
const CUSTOMERS: ImpactCustomer[] = [
  { lifecycleStage: 'customer', lastPurchaseDate: '2026-06-01', lifetimeValue: 1000 },
  { lifecycleStage: 'customer', lastPurchaseDate: '2026-04-01', lifetimeValue: 2000 },
  { lifecycleStage: 'lead', lastPurchaseDate: null, lifetimeValue: null },
  { lifecycleStage: 'customer', lastPurchaseDate: '2025-12-01', lifetimeValue: 5000 },
  { lifecycleStage: 'opportunity', lastPurchaseDate: '2026-06-29T00:00:00Z', lifetimeValue: 500 },
  { lifecycleStage: 'Customer', lastPurchaseDate: '2026-01-01', lifetimeValue: 1500 },
];

describe('formula sandbox', () => {
  it.each([
    ['import({}, {override: true})', 'Function "import" is not allowed'],
    ['evaluate("1")', 'Function "evaluate" is not allowed'],
    ['parse("1")', 'Function "parse" is not allowed'],
    ['simplify("x")', 'Function "simplify" is not allowed'],
    ['derivative("x^2", "x")', 'Function "derivative" is not allowed'],
    ['createUnit("foo")', 'Function "createUnit" is not allowed'],
    ['x = 1', '"x = 1": assignments are not allowed'],
    ['customerCount = 1', '"customerCount = 1": assignments are not allowed'],
    ['f(x) = x', '"f(x) = x": function definitions are not allowed'],
    ['a.b', '"a.b": property and index access are not allowed'],
    ['customerCount["x"]', 'property and index access are not allowed'],
    ['customerCount.constructor', 'property and index access are not allowed'],
    ['[1,2]', '"[1, 2]": matrices are not allowed'],
    ['{a: 1}', 'objects are not allowed'],
    ['1:3', 'ranges are not allowed'],
    ['"abc"', '"abc": strings are not allowed'],
    ['customerCount + "1"', 'strings are not allowed'],
    ['true', 'only numbers are allowed as constants'],
    ['Infinity', 'only finite numbers are allowed'],
    ['foo * 2', 'Unknown variable "foo". Available variables: customerCount, revenuePerCustomer, engagementRate, conversionRate, churnRisk, marketingCost'],
    ['5 cm', 'Unknown variable "cm"'],
    ['pi * customerCount', 'Unknown variable "pi"'],
    ['sin(customerCount)', 'Function "sin" is not allowed'],
    ['bar(1)', 'Function "bar" is not allowed. Allowed functions: min, max, log, log10, sqrt, abs, round, floor, ceil, exp'],
    ['customerCount.toString()', 'only the allowed functions can be called'],
    ['log + 1', '"log" is a function; call it like log(x)'],
    ['customerCount!', 'Operator "!" is not allowed'],
    ['customerCount and 1', 'Operator "and" is not allowed'],
    ['customerCount & 1', 'Operator "&" is not allowed'],
    ['customerCount .* 2', 'Operator ".*" is not allowed'],
    ["customerCount'", `Operator "'" is not allowed`],
    ['1; 2', 'single expression'],
    ['customerCount *', 'Syntax error in formula: '],
    ['(customerCount', 'Syntax error in formula: '],
    ['customerCount > 5', 'Formula must produce a number'],
    ['min()', 'Formula could not be evaluated: '],
    ['', 'Formula is required'],
  ])('rejects %s', (formula, message) => {
    expect(rejection(formula).message).toContain(message);
  });

  it('rejects over-long formulas', () => {
    expect(rejection('1 + '.repeat(300) + '1').message).toBe('Formula must be at most 1000 characters');
  });

  it('accepts the seed formulas and the spec example, reporting the variables they use', () => {
    const seeded = CATEGORIES.map((c) => validateFormula(c.formula.formula).variables);
    expect(seeded).toEqual([
      ['customerCount', 'revenuePerCustomer'],
      ['customerCount', 'revenuePerCustomer', 'engagementRate', 'marketingCost'],
      ['customerCount'],
      ['customerCount', 'revenuePerCustomer', 'churnRisk'],
    ]);
    expect(validateFormula('customerCount * 0.3 + revenuePerCustomer * 0.7')).toEqual({
      variables: ['customerCount', 'revenuePerCustomer'],
    });
  });

  it.each([
    // never a score, whatever the segment
    ['customerCount ^ 1e308', 'gives Infinity'],
    ['9^9^9', 'gives Infinity'],
    ['0/0', 'gives NaN'],
    ['10 ^ 9', 'beyond the largest storable impact score'],
    // no score for some segments: an empty one, a very large one, a rate at 0 or 1
    ['revenuePerCustomer / customerCount', 'with an empty segment (every variable 0): it gives NaN'],
    ['log(customerCount)', 'with an empty segment (every variable 0): it gives -Infinity'],
    ['customerCount > 0 ? engagementRate / conversionRate : 0', 'conversionRate = 0'],
    ['churnRisk / (1 - engagementRate)', 'engagementRate = 1'],
    ['exp(customerCount / 100)', 'customerCount = 10000000'],
    ['customerCount > 0 ? 1 : (customerCount < 1)', 'with an empty segment (every variable 0): it gives true'],
  ])('rejects %s, which would fail at generation', (formula, message) => {
    const err = rejection(formula);
    expect(err.message).toContain(message);
    expect(err.options.field).toBe('formula');
  });

  it('rejects exactly what evaluation would refuse: what it accepts scores every boundary segment', () => {
    const segments = [
      computeImpactVariables([], { now: NOW }),
      computeImpactVariables(CUSTOMERS.slice(0, 1), { now: NOW }),
      computeImpactVariables(CUSTOMERS, { now: NOW }),
    ];
    for (const { formula } of CATEGORIES.map((c) => c.formula)) {
      validateFormula(formula);
      for (const v of segments) expect(Number.isFinite(evaluateImpactScore(formula, v))).toBe(true);
    }
  });

  it('accepts every allowed operator and function', () => {
    const f =
      'min(customerCount, 3) + max(1, 2) - abs(-churnRisk) * sqrt(4) / log(exp(1)) + log10(100) ^ 2 % 7 ' +
      '+ round(conversionRate, 1) + floor(engagementRate) + ceil(marketingCost) + (customerCount >= 1 ? 1 : 0) ' +
      '+ (customerCount < 1) + (customerCount <= 1) + (customerCount > 1) + (customerCount == 1) + (customerCount != 1) + log(8, 2)';
    expect(validateFormula(f).variables).toEqual([...FORMULA_VARIABLE_NAMES].filter((v) => v !== 'revenuePerCustomer'));
  });
});

describe('impact variables', () => {
  it('computes each variable for a fixed data set', () => {
    const v = computeImpactVariables(CUSTOMERS, { now: NOW });
    expect(v.customerCount).toBe(6);
    expect(v.revenuePerCustomer).toBeCloseTo(10000 / 6, 10); // null lifetime value counts as 0
    expect(v.engagementRate).toBeCloseTo(2 / 6, 10); // #1 and #5; #2 is 90.5 days old
    expect(v.conversionRate).toBeCloseTo(4 / 6, 10); // "Customer" counts
    expect(v.churnRisk).toBeCloseTo(2 / 6, 10); // #4 and #6 (180.5 days)
    expect(v.marketingCost).toBe(3);
    expect(MARKETING_COST_PER_CONTACT).toBe(0.5);
    expect(computeImpactVariables(CUSTOMERS, { now: NOW, marketingCostPerContact: 2 }).marketingCost).toBe(12);
  });

  it('puts the window boundaries at exactly 90 and 180 days', () => {
    const at = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
    const v = computeImpactVariables(
      [
        { lifecycleStage: 'customer', lastPurchaseDate: at(90), lifetimeValue: 0 },
        { lifecycleStage: 'customer', lastPurchaseDate: at(180), lifetimeValue: 0 },
        { lifecycleStage: 'customer', lastPurchaseDate: 'not a date', lifetimeValue: 0 },
        { lifecycleStage: 'customer', lastPurchaseDate: '2026-08-01', lifetimeValue: 0 },
      ],
      { now: NOW },
    );
    expect(v.engagementRate).toBe(0.5); // exactly 90 days and the future date
    expect(v.churnRisk).toBe(0); // exactly 180 days is not "over"
  });

  it('returns zeros without customers', () => {
    expect(computeImpactVariables([], { now: NOW })).toEqual({
      customerCount: 0,
      revenuePerCustomer: 0,
      engagementRate: 0,
      conversionRate: 0,
      churnRisk: 0,
      marketingCost: 0,
    });
  });
});

describe('impact score', () => {
  const v = computeImpactVariables(CUSTOMERS, { now: NOW });

  it('evaluates the seed formulas to exact two-decimal values', () => {
    const scores = CATEGORIES.map((c) => evaluateImpactScore(c.formula.formula, v));
    // ln(7)*10 + 1.6667 = 21.1258; 10000*(0.5+1/3)/1000 - 3/100 = 8.3033; sqrt(6)*5 = 12.2474; 10000*(1/3)/1000 = 3.3333
    expect(scores).toEqual([21.13, 8.3, 12.25, 3.33]);
    // 6*0.3 + 1666.667*0.7 = 1168.4667
    expect(evaluateImpactScore('customerCount * 0.3 + revenuePerCustomer * 0.7', v)).toBe(1168.47);
    expect(evaluateImpactScore('conversionRate > 0.5 ? 100 : -100', v)).toBe(100);
    expect(evaluateImpactScore('-marketingCost * 0', v)).toBe(0);
  });

  it('refuses non-finite and unstorable results and unsafe formulas at evaluation time too', () => {
    const empty = computeImpactVariables([], { now: NOW });
    expect(() => evaluateImpactScore('revenuePerCustomer / customerCount', empty)).toThrow('Formula produced a non-finite value');
    expect(() => evaluateImpactScore('log(churnRisk - 1)', v)).toThrow('Formula produced a non-finite value');
    expect(() => evaluateImpactScore('10 ^ 400', v)).toThrow('Formula produced a non-finite value');
    expect(() => evaluateImpactScore('10 ^ 9', v)).toThrow('beyond the largest storable impact score');
    expect(() => evaluateImpactScore('evaluate("1")', v)).toThrow('Function "evaluate" is not allowed');
  });
});
