// One file per command (Shopify CLI's model): each describes its arguments, options and examples,
// validates what it was given with a zod schema, and runs. defineCommand turns that into a commander
// command; a schema's problem becomes one CliError line naming the option.
import { Argument, Command, Option } from 'commander';
import { z } from 'zod';
import type { Context } from './context.js';
import { CliError } from './errors.js';

export interface OptionSpec {
  /** commander syntax: "--limit <n>", "--csv [file]", "-o, --output <file>", "--json" */
  flags: string;
  description: string;
  /** Given several times, the values collect into a list (`--map a=b --map c=d`). */
  repeatable?: boolean;
}

export interface CommandSpec<S extends z.ZodType> {
  name: string;
  summary: string;
  /** Longer text under the summary in --help. */
  description?: string;
  /** commander syntax: "<question>", "[file]"; `choices` are checked by commander and offered by completion. */
  args?: { name: string; description: string; choices?: readonly string[] }[];
  options?: OptionSpec[];
  /** Shown under "Examples:" in --help. */
  examples: string[];
  aliases?: string[];
  /** Validates { ...options, ...arguments by name }. */
  input: S;
  /** `command` is this command as commander parsed it (its parents lead to the whole program). */
  run(input: z.output<S>, ctx: Context, command: Command): Promise<void>;
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
    for (const a of spec.args ?? []) {
      const argument = new Argument(a.name, a.description);
      if (a.choices) argument.choices(a.choices);
      cmd.addArgument(argument);
    }
    for (const o of spec.options ?? []) {
      const option = new Option(o.flags, o.description);
      if (o.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
      cmd.addOption(option);
    }
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
      await spec.run(parsed.data, ctx, command);
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

/** Several words on the command line (`crm query leads in Canada`) as one text. */
export const wordsArg = z.union([z.array(z.string()), z.string()]).transform((w) => (Array.isArray(w) ? w.join(' ') : w).trim());

/**
 * Where a command writes a file: "-" is standard output, a device or a pipe is written into, a file is
 * written atomically and replaced only with --force (output-file.ts).
 */
export const FORCE_OPTION: OptionSpec = { flags: '-f, --force', description: 'replace the file if it exists' };
export const JSON_OPTION = (what: string): OptionSpec => ({ flags: '--json', description: `print ${what} as JSON` });
