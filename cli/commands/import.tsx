// crm import <file>: your contacts from a CSV or Excel file (any CRM's export). The file is streamed to
// the server (POST /api/crm/imports, a progress bar on stderr), which guesses which column holds which
// customer field; the mapping and the problems found are shown, confirmed (in a terminal; --yes
// without one), and the import runs with live progress. `crm import --undo` undoes the last import.
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { Box, Text } from 'ink';
import { z } from 'zod';
import { formatCount } from '../../client/format.js';
import { GraphQLClientError, isClientError } from '../../client/index.js';
import { defineCommand, JSON_OPTION } from '../command.js';
import type { Context } from '../context.js';
import { CliError, EXIT, failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { onInterrupt } from '../interrupt.js';
import { Table, type Column } from '../views/Table.js';
import importPreviewNode, { type importPreviewQuery } from '../__generated__/importPreviewQuery.graphql.js';
import importStartNode, { type importStartMutation } from '../__generated__/importStartMutation.graphql.js';
import importStateNode, { type importStateQuery } from '../__generated__/importStateQuery.graphql.js';
import importProgressNode, { type importProgressSubscription } from '../__generated__/importProgressSubscription.graphql.js';
import importDiscardNode, { type importDiscardMutation } from '../__generated__/importDiscardMutation.graphql.js';
import importUndoNode, { type importUndoMutation } from '../__generated__/importUndoMutation.graphql.js';

/** The server's limit (also checked there: 413). */
const MAX_BYTES = 200 * 1024 * 1024;
/** While an import runs: how often its state is read besides the events (which a dropped socket loses). */
const STATE_READ_MS = 3000;

const _stateFields = graphql`
  fragment import_state on ContactImport {
    id
    importId
    fileName
    status
    error
    progress
    rowCount
    importedCount
    skippedCount
    problemCount
    problems {
      counts {
        kind
        label
        count
      }
      examples {
        kind
        row
        column
        value
        message
      }
    }
  }
`;

const Preview = operation<importPreviewQuery>(
  importPreviewNode,
  graphql`
    query importPreviewQuery($id: ID!, $mapping: ContactImportMappingInput) {
      contactImportPreview(id: $id, mapping: $mapping) {
        encoding
        delimiter
        blocker
        scannedRows
        complete
        dateOrderDetected
        columns {
          index
          header
          field
          samples
        }
        mapping {
          columns {
            index
            field
          }
          stages {
            value
            stage
          }
          dateOrder
          encoding
        }
        stageValues {
          value
          count
          stage
          known
        }
        problems {
          total
          counts {
            kind
            label
            count
          }
          examples {
            row
            message
          }
        }
        fieldOptions {
          value
          label
        }
        contactImport {
          fileName
          format
        }
      }
    }
  `,
);

const Start = operation<importStartMutation>(
  importStartNode,
  graphql`
    mutation importStartMutation($input: StartContactImportInput!) {
      startContactImport(input: $input) {
        contactImport {
          ...import_state @relay(mask: false)
        }
      }
    }
  `,
);

const State = operation<importStateQuery>(
  importStateNode,
  graphql`
    query importStateQuery($id: ID!) {
      node(id: $id) {
        ... on ContactImport {
          id
          importId
          fileName
          status
          error
          progress
          rowCount
          importedCount
          skippedCount
          problemCount
          problems {
            counts {
              kind
              label
              count
            }
            examples {
              kind
              row
              column
              value
              message
            }
          }
        }
      }
    }
  `,
);

const Progress = operation<importProgressSubscription>(
  importProgressNode,
  graphql`
    subscription importProgressSubscription($id: ID) {
      contactImportProgress(importId: $id) {
        status
        rowCount
        importedCount
        progress
        done
      }
    }
  `,
);

const Discard = operation<importDiscardMutation>(
  importDiscardNode,
  graphql`
    mutation importDiscardMutation($id: ID!) {
      discardContactImport(input: { importId: $id }) {
        deletedId
      }
    }
  `,
);

const Undo = operation<importUndoMutation>(
  importUndoNode,
  graphql`
    mutation importUndoMutation {
      undoContactImport {
        crmConnection {
          connected
          activeImport {
            fileName
            importedCount
          }
        }
      }
    }
  `,
);

type PreviewData = importPreviewQuery['response']['contactImportPreview'];
type ImportState = importStartMutation['response']['startContactImport']['contactImport'];
type Mapping = { columns: { index: number; field: string }[]; stages: { value: string; stage: string }[]; dateOrder: string; encoding?: string | null };

/** The server's answer to an upload as a client error (the same exit codes as GraphQL's). */
function uploadError(status: number, body: { error?: string; message?: string } | undefined): GraphQLClientError {
  const code = status === 401 ? 'UNAUTHENTICATED' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 503 ? 'SERVICE_UNAVAILABLE' : status >= 500 ? 'INTERNAL_SERVER_ERROR' : status === 403 ? 'FORBIDDEN' : 'BAD_USER_INPUT';
  const message = body?.message && body.error && body.error !== body.message ? `${body.error}: ${body.message}` : (body?.message ?? body?.error ?? `HTTP ${status}`);
  return new GraphQLClientError(message, code, {}, [], status);
}

/** Streams the file to the server with a progress bar; returns the upload's id (a Relay id). */
async function upload(ctx: Context, file: string): Promise<string> {
  const creds = ctx.credentials();
  if (!creds) ctx.api(); // throws "Not signed in"
  const size = statSync(file).size;
  if (size > MAX_BYTES) throw new CliError(`${file} is larger than 200 MB, the largest contacts file the server accepts`, 'Split it, or remove columns it does not need');
  const progress = ctx.ui.uploadProgress();
  const stopProgress = onInterrupt(() => progress.end());
  let sent = 0;
  const quiet = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => quiet.abort(), ctx.timeoutMs());
  };
  async function* chunks() {
    for await (const chunk of createReadStream(file)) {
      sent += (chunk as Buffer).length;
      alive();
      progress.update({ done: sent, total: size, file: basename(file) });
      yield chunk as Buffer;
    }
  }
  alive();
  try {
    const url = new URL(`/api/crm/imports?name=${encodeURIComponent(basename(file))}`, creds!.server);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${creds!.token}`, 'content-length': String(size), 'content-type': 'application/octet-stream' },
        body: Readable.toWeb(Readable.from(chunks())) as ReadableStream,
        duplex: 'half',
        signal: quiet.signal,
      } as RequestInit);
    } catch (err) {
      if (quiet.signal.aborted) throw new GraphQLClientError(`The server at ${creds!.server} stopped taking the file for ${ctx.timeoutMs() / 1000} s`, 'TIMEOUT');
      throw new GraphQLClientError(`Could not send the file to ${creds!.server}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`, 'NETWORK_ERROR');
    }
    const text = await res.text();
    let body: { importId?: string; error?: string; message?: string } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (res.status !== 201 || !body?.importId) throw uploadError(res.status, body);
    return body.importId;
  } finally {
    clearTimeout(timer);
    stopProgress();
    progress.end();
  }
}

/** "Lead Status=lifecycleStage", "Notes=" (not imported): a column by header (or 1-based number) and a field. */
function applyMaps(preview: PreviewData, maps: string[], stages: string[], dateOrder: string | undefined, encoding: string | undefined): Mapping {
  const byField = new Map(preview.fieldOptions.map((o) => [o.value.toLowerCase(), o.value]));
  for (const o of preview.fieldOptions) byField.set(o.label.toLowerCase(), o.value);
  const columns = new Map(preview.mapping.columns.map((c) => [c.index, c.field]));
  for (const m of maps) {
    const eq = m.lastIndexOf('=');
    if (eq < 0) throw new CliError(`--map ${m}: expected <column>=<field>`, `Fields: ${preview.fieldOptions.map((o) => o.value).join(', ')}; an empty field leaves the column out`);
    const name = m.slice(0, eq).trim();
    const fieldName = m.slice(eq + 1).trim();
    const column = preview.columns.find((c) => c.header.toLowerCase() === name.toLowerCase()) ?? (/^\d+$/.test(name) ? preview.columns[Number(name) - 1] : undefined);
    if (!column) throw new CliError(`--map ${m}: the file has no column "${name}"`, `Its columns: ${preview.columns.map((c) => c.header).join(', ')}`);
    if (!fieldName || fieldName === '-') {
      columns.delete(column.index);
      continue;
    }
    const field = byField.get(fieldName.toLowerCase());
    if (!field) throw new CliError(`--map ${m}: no field "${fieldName}"`, `Fields: ${preview.fieldOptions.map((o) => o.value).join(', ')}`);
    for (const [i, f] of columns) if (f === field) columns.delete(i); // a field goes to one column
    columns.set(column.index, field);
  }
  const stageMap = new Map(preview.mapping.stages.map((s) => [s.value, s.stage]));
  for (const s of stages) {
    const eq = s.lastIndexOf('=');
    if (eq < 1) throw new CliError(`--stage ${s}: expected <value>=<stage>`, 'Stages: subscriber, lead, marketingqualifiedlead, salesqualifiedlead, opportunity, customer, evangelist, other');
    stageMap.set(s.slice(0, eq).trim(), s.slice(eq + 1).trim());
  }
  return {
    columns: [...columns].map(([index, field]) => ({ index, field })).sort((a, b) => a.index - b.index),
    stages: [...stageMap].map(([value, stage]) => ({ value, stage })),
    dateOrder: dateOrder ?? preview.mapping.dateOrder,
    ...(encoding ?? preview.mapping.encoding ? { encoding: encoding ?? preview.mapping.encoding } : {}),
  };
}

interface ColumnRow {
  header: string;
  field: string;
  samples: string;
}

function PreviewView({ p, width }: { p: PreviewData; width: number }) {
  const label = new Map(p.fieldOptions.map((o) => [o.value, o.label]));
  const rows: ColumnRow[] = p.columns.map((c) => ({ header: c.header, field: c.field ? (label.get(c.field) ?? c.field) : '(not imported)', samples: c.samples.join(', ') }));
  const columns: Column<ColumnRow>[] = [
    { header: 'Column', cell: (r) => r.header, min: 10 },
    { header: 'Imported as', cell: (r) => r.field, min: 12, color: (r) => (r.field === '(not imported)' ? 'gray' : undefined) },
    { header: 'First values', cell: (r) => r.samples, optional: 1 },
  ];
  const unknown = p.stageValues.filter((s) => !s.known);
  const described = [p.contactImport.format.toUpperCase(), p.encoding, p.delimiter && `${p.delimiter}-separated`, p.mapping.dateOrder === 'DMY' ? 'dates day first' : 'dates month first'].filter(Boolean).join(', ');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{p.contactImport.fileName}</Text> · {described} · {formatCount(p.scannedRows)} rows checked{p.complete ? '' : ' (the import checks the rest)'}
      </Text>
      <Table columns={columns} rows={rows} width={width} />
      {p.stageValues.length > 0 && (
        <Text>
          Lifecycle values: {p.stageValues.slice(0, 8).map((s) => `${s.value} → ${s.stage ?? 'unknown'} (${formatCount(s.count)})`).join(' · ')}
          {p.stageValues.length > 8 ? ' · …' : ''}
        </Text>
      )}
      {unknown.length > 0 && <Text color="yellow">Not recognised (imported as unknown unless you map them with --stage "{unknown[0].value}=customer"): {unknown.map((s) => s.value).join(', ')}</Text>}
      {p.problems.total > 0 ? (
        <Box flexDirection="column">
          <Text color="yellow">Problems in the rows checked:</Text>
          {p.problems.counts.map((c) => (
            <Text key={c.kind}>  {formatCount(c.count)} × {c.label}</Text>
          ))}
          {p.problems.examples.slice(0, 5).map((e, i) => (
            <Text key={i} dimColor>
              {'  '}row {e.row}: {e.message}
            </Text>
          ))}
        </Box>
      ) : (
        <Text color="green">No problems found in the rows checked.</Text>
      )}
    </Box>
  );
}

const resultLine = (s: ImportState) =>
  `Imported ${formatCount(s.importedCount)} contacts from ${s.fileName}` +
  (s.skippedCount ? ` (${formatCount(s.skippedCount)} rows skipped)` : '') +
  (s.problemCount ? `; ${formatCount(s.problemCount)} problems` : '');

/** Follows the import to its end: events as they come, and the import's state read every few seconds. */
async function follow(ctx: Context, id: string, fileName: string, start: () => Promise<ImportState>): Promise<ImportState> {
  const api = ctx.api();
  const live = ctx.ui.importProgress();
  const stopOnInterrupt = onInterrupt(() => {
    live.end();
    ctx.ui.note(`Stopped watching: the import goes on on the server. crm crm shows your contacts when it is done`);
  });
  let resolveDone: (s: ImportState) => void = () => {};
  const done = new Promise<ImportState>((r) => (resolveDone = r));
  const readState = async () => {
    const { node } = await api.request(State, { id });
    if (node && node.status !== undefined && node.status !== 'importing') resolveDone(node as ImportState);
    else if (node?.status === 'importing') live.update({ file: fileName, progress: node.progress ?? 0, rows: node.rowCount ?? 0, imported: node.importedCount ?? 0 });
  };
  const subscription = api.subscribe(Progress, { id }, (data) => {
    const e = data.contactImportProgress;
    live.update({ file: fileName, progress: e.progress, rows: e.rowCount, imported: e.importedCount });
    if (e.done) void readState();
  });
  subscription.ended.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await subscription.ready;
    const started = await start();
    live.update({ file: fileName, progress: started.progress, rows: started.rowCount, imported: started.importedCount });
    timer = setInterval(() => void readState().catch(() => undefined), STATE_READ_MS);
    return await done;
  } finally {
    stopOnInterrupt();
    clearInterval(timer);
    live.end();
    subscription.stop();
  }
}

async function undo(ctx: Context, json: boolean | undefined, yes: boolean) {
  await ctx.ui.confirm('Undo your last contacts import?', { yes, detail: 'The contacts of the import before it come back; after a first import, there are none.' });
  const { undoContactImport } = await failingAs('Undo failed', () => ctx.api().request(Undo, {}));
  if (json) return ctx.ui.json(undoContactImport.crmConnection);
  const active = undoContactImport.crmConnection.activeImport;
  ctx.ui.print(
    <Text>
      <Text color="green">✔</Text> <Text bold>Import undone</Text> —{' '}
      {active ? `your contacts are those of ${active.fileName} again (${formatCount(active.importedCount)})` : 'you have no imported contacts now'}
    </Text>,
  );
}

export default defineCommand({
  name: 'import',
  summary: 'Import your contacts from a CSV or Excel file (any CRM\'s export)',
  description: [
    'The file is sent to the server as it is read (at most 200 MB; CSV in UTF-8, UTF-16 or Windows-1252, or .xlsx). The server guesses which column holds which customer field from the header names; the mapping and the problems found in the first rows (dates or amounts it cannot read, duplicate ids, rows without an id, a name or an e-mail) are shown on standard error. In a terminal you confirm; without one, --yes accepts the mapping as shown (else nothing is imported, exit 1).',
    'Change the mapping with --map "<column>=<field>" (an empty field leaves the column out), what a lifecycle value means with --stage "<value>=<stage>", slashed dates with --date-order DMY. Your choices are remembered for your next file.',
    'The imported contacts replace your current ones (and a CRM connection); crm import --undo brings the previous ones back.',
  ].join('\n\n'),
  args: [{ name: '[file]', description: 'the CSV or Excel (.xlsx) file' }],
  options: [
    { flags: '-y, --yes', description: 'import with the mapping as shown, without asking' },
    { flags: '--map <column=field>', description: 'import a column as a field (repeatable), e.g. --map "Lead Status=lifecycleStage" --map "Notes="', repeatable: true },
    { flags: '--stage <value=stage>', description: 'what a lifecycle value means (repeatable), e.g. --stage "VIP=customer"', repeatable: true },
    { flags: '--date-order <order>', description: 'how dates like 03/05/2024 read: MDY (month first) or DMY (day first); default: what the file shows' },
    { flags: '--encoding <name>', description: 'read a CSV as utf-8, utf-16le, utf-16be, windows-1252, windows-1250 or iso-8859-15 instead of the encoding detected' },
    { flags: '--undo', description: 'undo your last import instead (asks first; --yes answers)' },
    JSON_OPTION('the import when it is done'),
  ],
  examples: [
    'crm import contacts.csv',
    'crm import hubspot-export.csv --yes',
    'crm import leads.xlsx --map "Lead Status=lifecycleStage" --stage "VIP=customer" --yes',
    'crm import kunden.csv --date-order DMY --encoding windows-1252',
    'crm import --undo',
  ],
  input: z.object({
    file: z.string().min(1).optional(),
    yes: z.boolean().default(false),
    map: z.array(z.string()).default([]),
    stage: z.array(z.string()).default([]),
    dateOrder: z.enum(['MDY', 'DMY'], { error: 'must be MDY or DMY' }).optional(),
    encoding: z.string().optional(),
    undo: z.boolean().default(false),
    json: z.boolean().optional(),
  }),
  async run(input, ctx) {
    if (input.undo) {
      if (input.file) throw new CliError('--undo takes no file', 'Run crm import --undo alone');
      return undo(ctx, input.json, input.yes);
    }
    if (!input.file) throw new CliError('Which file? Give the CSV or Excel file to import', 'crm import contacts.csv');
    try {
      if (!statSync(input.file).isFile()) throw new CliError(`${input.file} is not a file`, undefined, EXIT.user, 'FILE_ERROR');
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`Cannot read ${input.file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`, undefined, EXIT.user, 'FILE_ERROR');
    }
    const api = ctx.api();
    const id = await failingAs('Upload failed', () => upload(ctx, input.file!));
    let imported = false;
    try {
      let preview = (await ctx.ui.task('Reading the file…', () => api.request(Preview, { id, mapping: null }))).contactImportPreview;
      const changed = input.map.length || input.stage.length || input.dateOrder || input.encoding;
      const mapping = applyMaps(preview, input.map, input.stage, input.dateOrder, input.encoding);
      if (changed) preview = (await failingAs('Invalid mapping', () => api.request(Preview, { id, mapping }))).contactImportPreview;
      ctx.ui.printNote(<PreviewView p={preview} width={ctx.ui.io.stderr.columns || 100} />);
      if (preview.blocker) throw new CliError(preview.blocker, 'Choose the column with --map "<column>=email" (or firstName, lastName, fullName)');
      await ctx.ui.confirm(`Import ${preview.contactImport.fileName} with this mapping? It replaces your current contacts.`, {
        yes: input.yes,
        detail: 'crm import --undo brings them back.',
      });
      const state = await follow(ctx, id, preview.contactImport.fileName, async () => {
        const r = await failingAs('Import failed', () => api.request(Start, { input: { importId: id, mapping } }));
        imported = true;
        return r.startContactImport.contactImport;
      });
      if (state.status !== 'active') throw new CliError(`Import failed: ${state.error ?? 'the file could not be imported'}`, 'Nothing was changed');
      if (input.json) return ctx.ui.json(state);
      ctx.ui.print(
        <Box flexDirection="column">
          <Text>
            <Text color="green">✔</Text> <Text bold>{resultLine(state)}</Text>
          </Text>
          {state.problems.counts.map((c) => (
            <Text key={c.kind} dimColor>
              {'  '}
              {formatCount(c.count)} × {c.label}
            </Text>
          ))}
        </Box>,
      );
      ctx.ui.note('Ask about them: crm query "customers in Europe who bought in the last 30 days"; undo with crm import --undo');
    } finally {
      // a file that was not imported is not left waiting on the server
      if (!imported) await api.request(Discard, { id }).catch((err) => (isClientError(err) ? undefined : undefined));
    }
  },
});
