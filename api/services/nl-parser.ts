// The question parser in use: the built-in deterministic parser, or (LLM_BASE_URL set) an
// OpenAI-compatible model that falls back to the built-in parser whenever its answer is unusable.
import type { Config } from '../config.js';
import { createParser, type ParseResult, type SegmentParser } from '../segmentation/index.js';
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

/** Parses a question with the configured parser, at the deps' clock and usage time zone. */
export function parseQuestion(deps: ServiceDeps, text: string): Promise<ParseResult> {
  return segmentParser(deps.config).parse(text, { now: deps.now(), timeZone: deps.config.usageTimeZone });
}
