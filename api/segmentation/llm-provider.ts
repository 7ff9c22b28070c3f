/**
 * Parsers behind one interface: the deterministic parser (default) and an optional language-model parser
 * that calls an OpenAI-compatible chat-completions endpoint and must answer with the segment as JSON.
 * The model's answer is validated with the segment schema; on invalid output, an HTTP error or a
 * timeout the deterministic parser is used instead and the result says so in `notes`.
 */
import { z } from 'zod';
import { segmentSchema } from './ast.js';
import { parseSegment, type ParseOptions, type ParseResult } from './parser/index.js';
import { REGIONS, REGION_COUNTRIES } from './regions.js';
import { localDateString, resolveContext } from './resolve.js';

export interface SegmentParser {
  readonly kind: 'deterministic' | 'llm';
  parse(text: string, opts: ParseOptions): Promise<ParseResult>;
}

export interface LlmProviderOptions {
  /** e.g. "https://api.openai.com/v1" or a local server; "/chat/completions" is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Default 15,000 ms. */
  timeoutMs?: number;
  /** Default 0. */
  temperature?: number;
  /** Injected fetch (tests). Default: global fetch. */
  fetch?: typeof fetch;
  /** Used when the model's answer cannot be used. Default: the deterministic parser. */
  fallback?: SegmentParser;
}

export type ParserConfig = { kind?: 'deterministic' } | ({ kind: 'llm' } & LlmProviderOptions);

export const LLM_FALLBACK_NOTE = "The language model's answer could not be used; the built-in parser was used instead.";

export function createDeterministicParser(): SegmentParser {
  return {
    kind: 'deterministic',
    async parse(text, opts) {
      return parseSegment(text, opts);
    },
  };
}

const answerSchema = z.union([
  z.strictObject({ segment: segmentSchema, unrecognized: z.array(z.string()).optional(), confidence: z.number().min(0).max(1).optional() }),
  segmentSchema,
]);

let schemaText: string | undefined;
function segmentJsonSchema(): string {
  schemaText ??= JSON.stringify(z.toJSONSchema(segmentSchema, { unrepresentable: 'any' }));
  return schemaText;
}

export function buildSystemPrompt(opts: ParseOptions): string {
  const ctx = resolveContext(opts);
  const regions = REGIONS.map((r) => `${r}: ${REGION_COUNTRIES[r].slice(0, 8).join(', ')}, …`).join('\n');
  return [
    'You turn a sales or marketing question about CRM contacts into a customer segment definition.',
    'Answer with ONE JSON object and nothing else: {"segment": <segment>, "unrecognized": [<phrases of the question you could not express>]}.',
    `The segment must match this JSON Schema: ${segmentJsonSchema()}`,
    'Rules:',
    '- "customers" alone is the generic word for contacts (no lifecycle condition); use lifecycleStage "customer" only for "paying customers", "existing customers", "customers only", or when contrasted with other stages.',
    '- prospects/opportunities -> "opportunity"; MQLs/SQLs/leads -> "lead"; subscribers -> "subscriber"; clients like customers.',
    '- Money is in US dollars: "over $5k" -> {"op":"gt","value":5000}; "at least" -> gte; "under" -> lt; "no more than" -> lte; "between" -> between (inclusive).',
    '- "spent" and "lifetime value" -> lifetimeValue; "last purchase/order amount" -> lastPurchaseAmount.',
    '- "in the last 30 days" -> lastPurchaseDate gte {"kind":"relative","amount":30,"unit":"day","direction":"past"}; "this quarter" -> gte {"kind":"anchor","unit":"quarter","offset":0}; "last month" -> between anchor month -1 and anchor month 0; "before 2024" -> lt {"kind":"absolute","date":"2024-01-01"}.',
    '- Date "between" is from <= date < to. "haven\'t bought in 6 months" -> {"not": lastPurchaseDate gte 6 months ago}. "never purchased" -> {"field":"hasPurchased","op":"eq","value":false}.',
    '- Countries use full English names ("United States", "United Kingdom"); US states full names ("California").',
    `- Regions:\n${regions}`,
    '- "top 10 by lifetime value" -> "sort":{"field":"lifetimeValue","direction":"desc"},"limit":10.',
    `Today is ${localDateString(ctx.nowMs, ctx.timeZone)} (time zone ${ctx.timeZone}); "version" is always 1.`,
  ].join('\n');
}

function extractJson(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const text = (fenced ? fenced[1] : content).trim();
  return JSON.parse(text);
}

export function createLlmParser(options: LlmProviderOptions): SegmentParser {
  const fallback = options.fallback ?? createDeterministicParser();
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function ask(text: string, opts: ParseOptions): Promise<ParseResult> {
    const res = await doFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        temperature: options.temperature ?? 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: buildSystemPrompt(opts) },
          { role: 'user', content: text },
        ],
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('no message content');
    const answer = answerSchema.parse(extractJson(content));
    if ('segment' in answer) {
      return { segment: answer.segment, unrecognized: answer.unrecognized ?? [], confidence: answer.confidence ?? 0.9, notes: [] };
    }
    return { segment: answer, unrecognized: [], confidence: 0.9, notes: [] };
  }

  return {
    kind: 'llm',
    async parse(text, opts) {
      try {
        return await ask(text, opts);
      } catch {
        const result = await fallback.parse(text, opts);
        return { ...result, notes: [LLM_FALLBACK_NOTE, ...result.notes] };
      }
    },
  };
}

/** The parser selected by configuration; the deterministic parser by default. */
export function createParser(config: ParserConfig = {}): SegmentParser {
  return config.kind === 'llm' ? createLlmParser(config) : createDeterministicParser();
}
