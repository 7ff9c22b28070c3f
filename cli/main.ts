// Entry of the `crm` command (cli/bin/crm.js runs this, bundled or through tsx).
import { interrupted, SIGNALS } from './interrupt.js';
import { run } from './program.js';

// The reader of our output went away (`crm export … | head`): that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// Ctrl-C, kill, a closed terminal: what the command registered cleans up first (interrupt.ts).
for (const signal of SIGNALS) process.on(signal, () => process.exit(interrupted(signal)));

const code = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
// Exit once the output is flushed, without waiting for idle keep-alive sockets to time out.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
