// crm query <question…>: runs a question as a query (one of today's chat queries), then shows how it
// was understood and the first customers; --json, --csv (all customers), --limit. The words of the
// question may be given with or without quotes. A question the assistant did not understand whole
// (issue 23) runs nothing: in a terminal it asks which reading to run; without one it exits 1 listing
// the choices, to be picked with --choice N or --as-understood.
import { z } from 'zod';
import { defineCommand, intOption, wordsArg } from '../command.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { planResultOutput, RESULT_OPTIONS, PAGE, resultInput, runWithLimitMessage, showResult, type Payload } from '../results.js';
import queryRunNode, { type queryRunMutation } from '../__generated__/queryRunMutation.graphql.js';

const Run = operation<queryRunMutation>(
  queryRunNode,
  graphql`
    mutation queryRunMutation($question: String!, $first: Int!, $choice: Int, $choiceId: String, $asUnderstood: Boolean) {
      runQuery(input: { naturalLanguage: $question, choice: $choice, choiceId: $choiceId, asUnderstood: $asUnderstood }) {
        ...results_payload @relay(mask: false)
      }
    }
  `,
);

interface Answer {
  choice?: number;
  choiceId?: string;
  asUnderstood?: boolean;
}

/** Runs the question on the server (with a spinner in a terminal). */
function ask(ctx: Context, question: string, limit: number, answer: Answer = {}): Promise<Payload> {
  const api = ctx.api();
  const vars = { question, first: Math.min(PAGE, limit), choice: answer.choice ?? null, choiceId: answer.choiceId ?? null, asUnderstood: answer.asUnderstood ?? null };
  return runWithLimitMessage('run', () => ctx.ui.task('Searching your CRM…', () => api.request(Run, vars))).then((r) => r.runQuery);
}

type Clarification = NonNullable<Payload['clarification']>;

/** The answer to a clarification: from --choice / --as-understood, a prompt in a terminal, or exit 1 listing the choices. */
async function answerOf(ctx: Context, c: Clarification, input: { choice?: number; asUnderstood?: boolean; json?: boolean }): Promise<Answer> {
  const lines = c.issues.map((i) => i.message);
  if (input.asUnderstood) {
    if (!c.choices.some((ch) => ch.asUnderstood)) throw new CliError('Nothing of the question was understood, so it cannot run as understood', 'Pick a --choice or rephrase it');
    return { asUnderstood: true };
  }
  if (input.choice !== undefined) {
    const ch = c.choices[input.choice - 1];
    if (!ch) throw new CliError(`There is no choice ${input.choice}: the question has ${c.choices.length}`, 'Run it without --choice to see them');
    return { choice: ch.index, choiceId: ch.id };
  }
  if (ctx.ui.interactive && !input.json) {
    const title = c.understood.explanation ? `I understood: ${c.understood.explanation}` : "I couldn't find a condition I understood.";
    const picked = await ctx.ui.choose(title, [...lines, 'Nothing was run and no query was used. Which should I run?'], [...c.choices.map((ch) => (ch.asUnderstood ? `${ch.label} (${ch.explanation})` : ch.label)), 'Cancel']);
    if (picked >= c.choices.length) throw new CliError('Cancelled: nothing was run and no query was used');
    return { choice: c.choices[picked].index, choiceId: c.choices[picked].id };
  }
  const list = c.choices.map((ch, i) => `  ${i + 1}. ${ch.label}${ch.asUnderstood ? '' : ` (${ch.explanation})`}`);
  if (!input.json) for (const line of [c.message, ...(list.length ? ['Choices:', ...list] : [])]) ctx.ui.note(line);
  throw new CliError(
    'The question needs a choice: nothing was run and no query was used',
    c.choices.length ? 'Run it again with --choice N (one of the choices listed), or --as-understood' : 'Rephrase the question',
    1,
    'CLARIFICATION',
    { message: c.message, issues: c.issues, choices: c.choices.map((ch, i) => ({ choice: i + 1, label: ch.label, explanation: ch.explanation, asUnderstood: ch.asUnderstood })) },
  );
}

export default defineCommand({
  name: 'query',
  summary: 'Ask a question about your customers',
  description:
    'Uses one of your daily chat queries. Shows how the question was understood and the first customers; the query is kept in crm history. A question understood only in part runs nothing and uses no query until you pick how to run it: in a terminal you are asked; otherwise the choices are listed and --choice N or --as-understood picks one. Quote the question when it has characters your shell treats specially ($, *, ?, !): single quotes keep them as they are.',
  args: [{ name: '<question...>', description: 'the question, in plain language (one quoted text, or several words)' }],
  options: [
    ...RESULT_OPTIONS,
    { flags: '--choice <n>', description: 'when the question needs a choice: run choice n of those listed' },
    { flags: '--as-understood', description: 'when the question needs a choice: run what was understood' },
  ],
  examples: [
    "crm query 'customers in Europe who bought in the last 30 days with lifetime value over $5k'",
    'crm query top 10 customers by lifetime value --json',
    'crm query leads in Canada --csv leads.csv',
    "crm query 'subscribers who never purchased' --csv | wc -l",
    "crm query 'accts in ohio with 10+ support tickets' --as-understood",
  ],
  input: z.object({
    question: wordsArg.pipe(z.string().min(1, 'a question is required')),
    ...resultInput,
    choice: intOption(1, 100).optional(),
    asUnderstood: z.boolean().optional(),
  }),
  async run(input, ctx) {
    if (input.choice !== undefined && input.asUnderstood) throw new CliError('--choice and --as-understood pick differently', 'Give one of them');
    const csv = planResultOutput(input);
    let payload = await ask(ctx, input.question, input.limit);
    if (payload.outcome === 'CLARIFICATION' && payload.clarification) {
      const answer = await answerOf(ctx, payload.clarification, input);
      payload = await ask(ctx, input.question, input.limit, answer);
    }
    await showResult(ctx, 'run', payload, input, csv);
  },
});
