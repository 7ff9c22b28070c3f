// crm completion bash|zsh|fish: the shell completion script for crm, generated from its commands.
import { z } from 'zod';
import type { Command } from 'commander';
import { defineCommand } from '../command.js';
import { completionScript, SHELLS } from '../completion.js';

const root = (cmd: Command) => {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
};

export default defineCommand({
  name: 'completion',
  summary: 'Print the shell completion script (bash, zsh or fish)',
  description:
    'Completes commands, subcommands, options, screens, and file names after -o and --csv. To load it in the current shell: source <(crm completion bash), source <(crm completion zsh) after compinit, crm completion fish | source.',
  args: [{ name: '<shell>', description: SHELLS.join(', '), choices: SHELLS }],
  examples: [
    'crm completion bash > ~/.local/share/bash-completion/completions/crm',
    'crm completion zsh > "${fpath[1]}/_crm"',
    'crm completion fish > ~/.config/fish/completions/crm.fish',
  ],
  input: z.object({ shell: z.enum(SHELLS) }),
  async run(input, ctx, command) {
    ctx.ui.io.stdout.write(completionScript(input.shell, root(command)));
  },
});
