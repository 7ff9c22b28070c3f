// Shell completion scripts, generated from the program itself (its commands, subcommands, options
// and arguments with fixed choices), so that they never fall behind it. Each shell gets the same
// model: the command path typed so far ("crm segments"), and for it the subcommands, options and
// choices; options that take a file complete file names, other values nothing.
import type { Command, Option } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface OptionInfo {
  flags: string[];
  description: string;
  takesValue: boolean;
  file: boolean;
}

interface Node {
  path: string;
  subcommands: { name: string; description: string }[];
  options: OptionInfo[];
  /** Choices of the first argument (e.g. crm open's screens, crm completion's shells). */
  choices: string[];
}

/** Options whose value is a file to write or read. */
const FILE_OPTIONS = new Set(['--output', '--csv']);

const optionInfo = (o: Option): OptionInfo => ({
  flags: [o.short, o.long].filter((f): f is string => Boolean(f)),
  description: o.description,
  takesValue: o.required || o.optional,
  file: FILE_OPTIONS.has(o.long ?? ''),
});

function nodes(program: Command): { nodes: Node[]; globals: OptionInfo[] } {
  const all: Node[] = [];
  const visit = (cmd: Command, path: string) => {
    const options = cmd === program ? [] : cmd.options.filter((o) => !o.hidden).map(optionInfo);
    options.push({ flags: ['-h', '--help'], description: 'show help', takesValue: false, file: false });
    const subs = cmd.commands.filter((c) => c.name() !== 'help');
    const args = (cmd as unknown as { registeredArguments: { argChoices?: string[] }[] }).registeredArguments;
    all.push({
      path,
      subcommands: subs.flatMap((c) => [c.name(), ...c.aliases()].map((name) => ({ name, description: c.summary() || c.description() }))),
      options,
      choices: args[0]?.argChoices ?? [],
    });
    for (const sub of subs) visit(sub, `${path} ${sub.name()}`);
  };
  visit(program, program.name());
  const globals = program.options.filter((o) => !o.hidden).map(optionInfo);
  globals.push({ flags: ['-v', '--version'], description: 'show the version', takesValue: false, file: false });
  return { nodes: all, globals };
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Every command path below the program, with the aliases a user may type ("crm segments delete"). */
function paths(program: Command): string[] {
  const out: string[] = [];
  const visit = (cmd: Command, path: string, typed: string) => {
    for (const sub of cmd.commands.filter((c) => c.name() !== 'help')) {
      for (const name of [sub.name(), ...sub.aliases()]) out.push(`${typed} ${name}=${path} ${sub.name()}`);
      visit(sub, `${path} ${sub.name()}`, `${typed} ${sub.name()}`);
    }
  };
  visit(program, program.name(), program.name());
  return out;
}

function bash(program: Command): string {
  const { nodes: all, globals } = nodes(program);
  const name = program.name();
  const valueFlags = (file: boolean) =>
    [...new Set([...globals, ...all.flatMap((n) => n.options)].filter((o) => o.takesValue && o.file === file).flatMap((o) => o.flags))].join('|');
  const steps = paths(program)
    .map((p) => p.split('='))
    .map(([typed, real]) => `      ${sq(typed)}) cmdpath=${sq(real)} ;;`)
    .join('\n');
  const cases = all
    .map((n) => {
      const words = [...n.subcommands.map((s) => s.name), ...n.choices].join(' ');
      const opts = [...n.options, ...globals].flatMap((o) => o.flags).join(' ');
      return `    ${sq(n.path)}) subs=${sq(words)}; opts=${sq(opts)} ;;`;
    })
    .join('\n');
  return `# ${name} completion for bash. Load it with:  source <(${name} completion bash)
# or save it where bash-completion finds it:    ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
_${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local cmdpath=${sq(name)} i w subs opts
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$cmdpath $w" in
${steps}
    esac
  done
  case "$prev" in
    ${valueFlags(true)}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    ${valueFlags(false)}) COMPREPLY=(); return ;;
  esac
  case "$cmdpath" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -W "$subs" -- "$cur")); fi
}
complete -F _${name} ${name}
`;
}

function zsh(program: Command): string {
  const { nodes: all, globals } = nodes(program);
  const name = program.name();
  const describe = (items: { name: string; description: string }[]) => items.map((i) => sq(`${i.name.replace(/:/g, '\\:')}:${i.description}`)).join(' ');
  const flagsOf = (opts: OptionInfo[]) => opts.flatMap((o) => o.flags.map((f) => ({ name: f, description: o.description })));
  const valueFlags = (file: boolean) =>
    [...new Set([...globals, ...all.flatMap((n) => n.options)].filter((o) => o.takesValue && o.file === file).flatMap((o) => o.flags))].join('|');
  const steps = paths(program)
    .map((p) => p.split('='))
    .map(([typed, real]) => `      ${sq(typed)}) cmdpath=${sq(real)} ;;`)
    .join('\n');
  const cases = all
    .map(
      (n) =>
        `    ${sq(n.path)}) subs=(${describe([...n.subcommands, ...n.choices.map((c) => ({ name: c, description: c }))])}); opts=(${describe(flagsOf([...n.options, ...globals]))}) ;;`,
    )
    .join('\n');
  return `#compdef ${name}
# ${name} completion for zsh. Load it with:  source <(${name} completion zsh)   (after compinit)
# or save it as _${name} in a directory of your $fpath.
_${name}() {
  local cmdpath=${sq(name)} i w
  local -a subs opts
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    case "$cmdpath $w" in
${steps}
    esac
  done
  case "\${words[CURRENT-1]}" in
    ${valueFlags(true)}) _files; return ;;
    ${valueFlags(false)}) return ;;
  esac
  case "$cmdpath" in
${cases}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then _describe -t options option opts; else _describe -t commands command subs; fi
}
if [ "$funcstack[1]" = "_${name}" ]; then _${name} "$@"; else compdef _${name} ${name}; fi
`;
}

function fish(program: Command): string {
  const { nodes: all, globals } = nodes(program);
  const name = program.name();
  const fn = `__${name}_path`;
  const known = paths(program).map((p) => p.split('='));
  const lines: string[] = [
    `# ${name} completion for fish. Load it with:  ${name} completion fish | source`,
    `# or save it as ~/.config/fish/completions/${name}.fish`,
    `function ${fn}`,
    `    set -l cmdpath ${name}`,
    '    for w in (commandline -opc)[2..-1]',
    '        switch "$cmdpath $w"',
    ...known.map(([typed, real]) => `            case ${sq(typed)}\n                set cmdpath ${sq(real)}`),
    '        end',
    '    end',
    '    echo $cmdpath',
    'end',
    `complete -c ${name} -f`,
  ];
  const option = (o: OptionInfo, condition?: string) => {
    const parts = [`complete -c ${name}`];
    if (condition) parts.push(`-n ${sq(condition)}`);
    for (const f of o.flags) parts.push(f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`);
    if (o.takesValue) parts.push(o.file ? '-r -F' : '-r');
    parts.push(`-d ${sq(o.description)}`);
    return parts.join(' ');
  };
  for (const o of globals) lines.push(option(o));
  for (const n of all) {
    const condition = `test (${fn}) = ${sq(n.path)}`;
    for (const s of n.subcommands) lines.push(`complete -c ${name} -n ${sq(condition)} -a ${sq(s.name)} -d ${sq(s.description)}`);
    for (const c of n.choices) lines.push(`complete -c ${name} -n ${sq(condition)} -a ${sq(c)}`);
    for (const o of n.options) lines.push(option(o, condition));
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, program: Command): string {
  return { bash, zsh, fish }[shell](program);
}
