// One file per command (Shopify CLI's model): each describes its arguments, options and examples,
// validates what it was given with a zod schema, and runs. defineCommand turns that into a commander
// command; a schema's problem becomes one CliError line naming the option.
import { Command, Option } from 'commander';
import { z } from 'zod';
import type { Context } from './context.js';
import { CliError } from './errors.js';

export interface OptionSpec {
  /** commander syntax: "--limit <n>", "--csv [file]", "-o, --output <file>", "--json" */
  flags: string;
  description: string;
}

export interface CommandSpec<S extends z.ZodType> {
  name: string;
  summary: string;
  /** Longer text under the summary in --help. */
  description?: string;
  /** commander syntax: "<question>", "[file]" */
  args?: { name: string; description: string }[];
  options?: OptionSpec[];
  /** Shown under "Examples:" in --help. */
  examples: string[];
  aliases?: string[];
  /** Validates { ...options, ...arguments by name }. */
  input: S;
  run(input: z.output<S>, ctx: Context): Promise<void>;
}

const argName = (syntax: string) => syntax.replace(/[<>[\].]/g, '');

/** The option or argument a schema path names, as the user typed it. */
function label(cmd: Command, key: string | undefined): string {
  if (!key) return cmd.name();
  const option = cmd.options.find((o) => o.attributeName() === key);
  if (option) return option.long ?? option.flags;
  return `<${key}>`;
}

export function defineCommand<S extends z.ZodType>(spec: CommandSpec<S>): (ctx: Context) => Command {
  return (ctx) => {
    const cmd = new Command(spec.name).summary(spec.summary).description(spec.description ? `${spec.summary}\n\n${spec.description}` : spec.summary);
    for (const alias of spec.aliases ?? []) cmd.alias(alias);
    for (const a of spec.args ?? []) cmd.argument(a.name, a.description);
    for (const o of spec.options ?? []) cmd.addOption(new Option(o.flags, o.description));
    cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
    cmd.action(async (...received: unknown[]) => {
      const command = received[received.length - 1] as Command;
      const values: Record<string, unknown> = { ...command.opts() };
      (spec.args ?? []).forEach((a, i) => (values[argName(a.name)] = received[i]));
      const parsed = spec.input.safeParse(values);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new CliError(`${label(command, issue.path[0] as string | undefined)}: ${issue.message}`, `See crm ${commandPath(command)} --help`);
      }
      await spec.run(parsed.data, ctx);
    });
    return cmd;
  };
}

/** A group of subcommands (`crm admin …`, `crm segments …`). */
export function defineGroup(spec: { name: string; summary: string; examples: string[]; commands: ((ctx: Context) => Command)[]; defaultCommand?: string }) {
  return (ctx: Context) => {
    const group = new Command(spec.name).summary(spec.summary).description(spec.summary);
    for (const make of spec.commands) {
      const sub = make(ctx);
      group.addCommand(sub, { isDefault: sub.name() === spec.defaultCommand });
    }
    group.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
    return group;
  };
}

export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c && c.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

// Reusable pieces of input schemas.

/** A whole number from `min` to `max`, given as text on the command line. */
export const intOption = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

export const dateOption = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a calendar date as YYYY-MM-DD');

export const idArg = z.string().trim().min(1, 'an id is required');
