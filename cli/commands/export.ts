// crm export <id>: every customer of a stored query (its segment run again now) or of an unlocked
// Smart Segment, streamed as CSV page by page with a progress bar, into a file (written atomically),
// a device or pipe, or standard output.
import { z } from 'zod';
import { formatCount } from '../../client/format.js';
import { defineCommand, FORCE_OPTION, idArg, intOption } from '../command.js';
import { exportCsv, EXPORT_PAGE_SIZE } from '../export-stream.js';
import { isClientError } from '../../client/index.js';
import { CliError } from '../errors.js';
import { shortId } from '../format.js';
import { resolveExportSource } from '../ids.js';
import { planOutput } from '../output-file.js';

export default defineCommand({
  name: 'export',
  summary: 'Export all customers of a query or a Smart Segment as CSV',
  description: [
    'Reads the customers from your CRM page by page (a query runs its segment again now, without using a chat query; a Smart Segment must be unlocked) and writes them as they come, so exports of any size use little memory. Progress goes to standard error.',
    'Without -o, or with -o -, the CSV goes to standard output. A file is written completely or not at all (into a hidden temporary file, renamed when done); a new file is readable by you only (0600), an existing one is replaced only with --force and keeps its permissions. Devices and pipes (/dev/null, a FIFO, /dev/fd/3) are written into as they are.',
  ].join('\n\n'),
  args: [{ name: '<id>', description: 'a query id (crm history) or a Smart Segment id (crm smart); the first characters are enough' }],
  options: [
    { flags: '-o, --output <file>', description: 'the CSV file to write, or - for standard output' },
    FORCE_OPTION,
    { flags: '--page-size <n>', description: `customers per request, 1 to ${EXPORT_PAGE_SIZE} (default ${EXPORT_PAGE_SIZE})` },
  ],
  examples: ['crm export 3f2a1b9c -o customers.csv', 'crm export 3f2a1b9c -o customers.csv --force', 'crm export 3f2a1b9c > customers.csv', 'crm export 9d41c2aa -o - | wc -l'],
  input: z.object({ id: idArg, output: z.string().min(1).optional(), force: z.boolean().default(false), pageSize: intOption(1, EXPORT_PAGE_SIZE).default(EXPORT_PAGE_SIZE) }),
  async run(input, ctx) {
    const target = planOutput(input.output, { force: input.force });
    const source = await resolveExportSource(ctx.api(), input.id);
    let n: number;
    try {
      n = await exportCsv(ctx, source.id, target, input.pageSize);
    } catch (err) {
      if (source.kind === 'smart' && isClientError(err) && err.code === 'FORBIDDEN') throw new CliError(err.message, `Unlock it first: crm smart unlock ${shortId(source.rawId)}`);
      throw err;
    }
    ctx.ui.note(`Exported ${formatCount(n)} customers to ${target.label}`);
  },
});
