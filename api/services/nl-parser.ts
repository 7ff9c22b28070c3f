// The question parser in use: the built-in deterministic parser, or (LLM_BASE_URL set) an
// OpenAI-compatible model that falls back to the built-in parser whenever its answer is unusable.
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { createParser, findContradictions, type ParseOptions, type ParseResult, type SegmentParser } from '../segmentation/index.js';
import type { ServiceDeps } from './deps.js';

const parsers = new WeakMap<Config, SegmentParser>();

export function segmentParser(config: Config): SegmentParser {
  let p = parsers.get(config);
  if (!p) {
    p = config.llm ? createParser({ kind: 'llm', baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model }) : createParser();
    parsers.set(config, p);
  }
  return p;
}

/**
 * Parses a question with the configured parser, at the deps' clock and usage time zone; `vocabulary`
 * (the values the user's CRM holds, services/crm-vocabulary.ts) when the caller has them.
 */
export function parseQuestion(deps: ServiceDeps, text: string, extra: Pick<ParseOptions, 'knownCompanies' | 'vocabulary'> = {}): Promise<ParseResult> {
  return segmentParser(deps.config).parse(text, { now: deps.now(), timeZone: deps.config.usageTimeZone, ...extra });
}

/**
 * Stored criteria (presets, saved segments) run unattended, so a phrase the engine did not understand
 * is an error to show, never a condition silently dropped.
 */
export function notUnderstood(phrases: string[]): AppError {
  const list = phrases.map((p) => `"${p}"`).join(', ');
  return new AppError('BAD_USER_INPUT', `Part of the description was not understood: ${list}. Rephrase it so every condition is recognised.`);
}

/**
 * Parses a stored description (a saved segment, a Smart Segment preset) that runs unattended: a phrase not
 * understood or conditions that contradict each other are an error to show, never run as if whole.
 */
export async function parseUnattended(deps: ServiceDeps, text: string): Promise<ParseResult> {
  const result = await parseQuestion(deps, text);
  const problem = unattendedProblem(deps, result);
  if (problem) throw problem;
  return result;
}

/** Why a parsed description cannot run unattended (a phrase not understood, a contradiction), or undefined. */
export function unattendedProblem(deps: ServiceDeps, result: ParseResult): AppError | undefined {
  if (result.unrecognized.length) return notUnderstood(result.unrecognized);
  const contradiction = findContradictions(result.segment, { now: deps.now(), timeZone: deps.config.usageTimeZone })[0];
  if (contradiction) return new AppError('BAD_USER_INPUT', `The description contradicts itself: ${contradiction.message}. Rephrase it so every condition can hold.`);
  return undefined;
}
