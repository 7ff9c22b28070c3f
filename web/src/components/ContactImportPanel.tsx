// "Import a contacts file" in the CRM Integration dialog (issue 27): for every user, and the only way in
// for "Other". Drop or choose a CSV / Excel file; it is sent as it is (with a progress bar) and the
// server guesses which column holds which customer field; the mapping (a select per column, what the
// file's lifecycle values mean, how its dates read), the first rows as the customers they become and
// the problems found are shown; "Import" runs it with a progress bar (contactImportProgress, and the
// import read again while it runs); the last import can be undone.
import {
  Button,
  Caption1,
  Field,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ArrowUploadRegular, DocumentTableRegular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { graphql, useFragment, useMutation, useRelayEnvironment, useSubscription } from 'react-relay';
import { fetchQuery, type GraphQLSubscriptionConfig } from 'relay-runtime';
import { contactsImported, fileTooLarge, IMPORT_FAILED, importUndone, UPLOAD_FAILED } from '../../../client/messages.js';
import { formatCount } from '../../../client/format.js';
import type { ContactImportPanel_connection$key } from '../__generated__/ContactImportPanel_connection.graphql';
import type { ContactImportPanelPreviewQuery, ContactImportPanelPreviewQuery$data, ContactImportMappingInput } from '../__generated__/ContactImportPanelPreviewQuery.graphql';
import type { ContactImportPanelStartMutation } from '../__generated__/ContactImportPanelStartMutation.graphql';
import type { ContactImportPanelUndoMutation } from '../__generated__/ContactImportPanelUndoMutation.graphql';
import type { ContactImportPanelDiscardMutation } from '../__generated__/ContactImportPanelDiscardMutation.graphql';
import type { ContactImportPanelProgressSubscription } from '../__generated__/ContactImportPanelProgressSubscription.graphql';
import type { ContactImportPanelStateQuery } from '../__generated__/ContactImportPanelStateQuery.graphql';
import type { ContactImportPanelConnectionQuery } from '../__generated__/ContactImportPanelConnectionQuery.graphql';
import { messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { uploadContactsFile } from '../lib/upload-contacts';
import { ConfirmDialog } from './ConfirmDialog';

const useStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  drop: {
    display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS, padding: tokens.spacingVerticalXL,
    border: `2px dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusLarge, backgroundColor: tokens.colorNeutralBackground2, textAlign: 'center',
  },
  dropActive: { border: `2px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  icon: { fontSize: '32px', color: tokens.colorNeutralForeground3 },
  muted: { color: tokens.colorNeutralForeground2 },
  scroll: { overflowX: 'auto', maxHeight: '260px', overflowY: 'auto', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'flex-end' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
  current: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' },
  problemCell: { color: tokens.colorPaletteRedForeground1 },
  skipped: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  stages: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))', gap: tokens.spacingVerticalS, columnGap: tokens.spacingHorizontalM },
});

const PREVIEW = graphql`
  query ContactImportPanelPreviewQuery($id: ID!, $mapping: ContactImportMappingInput) {
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
      rows {
        row
        customer {
          id
          firstName
          lastName
          email
          company
          lifecycleStage
          lastPurchaseDate
          lifetimeValue
          country
        }
        problems {
          message
        }
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
      stageValues {
        value
        count
        stage
        known
      }
      fieldOptions {
        value
        label
        kind
      }
      stageOptions {
        value
        label
      }
      encodingOptions {
        value
        label
      }
      contactImport {
        id
        fileName
        format
        byteSize
      }
    }
  }
`;

const STATE = graphql`
  query ContactImportPanelStateQuery($id: ID!) {
    node(id: $id) {
      ... on ContactImport {
        id
        status
        error
        progress
        rowCount
        importedCount
        skippedCount
        problemCount
        fileName
      }
    }
  }
`;

const CONNECTION = graphql`
  query ContactImportPanelConnectionQuery {
    crmConnection {
      id
      ...CrmIntegrationDialog_connection
      ...UserMenu_connection
      ...ContactImportPanel_connection
    }
  }
`;

const PROGRESS = graphql`
  subscription ContactImportPanelProgressSubscription($id: ID) {
    contactImportProgress(importId: $id) {
      status
      progress
      rowCount
      importedCount
      done
    }
  }
`;

type Preview = ContactImportPanelPreviewQuery$data['contactImportPreview'];
type Mapping = { columns: { index: number; field: string }[]; stages: { value: string; stage: string }[]; dateOrder: string; encoding?: string | null };
type Step =
  | { kind: 'idle' }
  | { kind: 'uploading'; fileName: string; sent: number; total: number }
  | { kind: 'preview'; id: string; preview: Preview; mapping: Mapping; refreshing: boolean }
  | { kind: 'importing'; id: string; fileName: string; progress: number; rows: number; imported: number };

const toInput = (m: Mapping): ContactImportMappingInput => ({ columns: m.columns, stages: m.stages, dateOrder: m.dateOrder, encoding: m.encoding ?? null });
const fromPreview = (p: Preview): Mapping => ({
  columns: p.mapping.columns.map((c) => ({ index: c.index, field: c.field })),
  stages: p.mapping.stages.map((s) => ({ value: s.value, stage: s.stage })),
  dateOrder: p.mapping.dateOrder,
  encoding: p.mapping.encoding,
});
const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
/** How often the import is read while it runs, besides its events (a dropped websocket loses them). */
const STATE_READ_MS = 2000;

export function ContactImportPanel({ connection: key, onImported }: { connection: ContactImportPanel_connection$key; onImported: () => void }) {
  const s = useStyles();
  const notify = useNotify();
  const environment = useRelayEnvironment();
  const c = useFragment(
    graphql`
      fragment ContactImportPanel_connection on CrmConnection {
        connected
        tokenType
        crmLabel
        maxImportBytes
        activeImport {
          id
          fileName
          importedCount
          completedAt
        }
        previousImport {
          id
          fileName
          importedCount
        }
        pendingImport {
          id
          status
          fileName
          error
          progress
          rowCount
          importedCount
        }
      }
    `,
    key,
  );
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);
  const [confirmUndo, setConfirmUndo] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const [start, starting] = useMutation<ContactImportPanelStartMutation>(graphql`
    mutation ContactImportPanelStartMutation($input: StartContactImportInput!) {
      startContactImport(input: $input) {
        contactImport {
          id
          status
          progress
          rowCount
          importedCount
          fileName
        }
      }
    }
  `);
  const [undo, undoing] = useMutation<ContactImportPanelUndoMutation>(graphql`
    mutation ContactImportPanelUndoMutation {
      undoContactImport {
        crmConnection {
          id
          activeImport {
            fileName
            importedCount
          }
          ...CrmIntegrationDialog_connection
          ...UserMenu_connection
          ...ContactImportPanel_connection
        }
      }
    }
  `);
  const [discard] = useMutation<ContactImportPanelDiscardMutation>(graphql`
    mutation ContactImportPanelDiscardMutation($id: ID!) {
      discardContactImport(input: { importId: $id }) {
        deletedId
      }
    }
  `);

  const refreshConnection = useCallback(() => fetchQuery<ContactImportPanelConnectionQuery>(environment, CONNECTION, {}, { fetchPolicy: 'network-only' }).toPromise(), [environment]);

  // An import that was running when the dialog opened (another tab, a reload) is followed too.
  useEffect(() => {
    const p = c.pendingImport;
    if (step.kind === 'idle' && p?.status === 'importing') {
      setStep({ kind: 'importing', id: p.id, fileName: p.fileName, progress: p.progress, rows: p.rowCount, imported: p.importedCount });
    }
  }, [c.pendingImport, step.kind]);

  const loadPreview = useCallback(
    async (id: string, mapping: Mapping | null) => {
      const data = await fetchQuery<ContactImportPanelPreviewQuery>(environment, PREVIEW, { id, mapping: mapping ? toInput(mapping) : null }, { fetchPolicy: 'network-only' }).toPromise();
      const preview = data!.contactImportPreview;
      setStep({ kind: 'preview', id, preview, mapping: mapping ?? fromPreview(preview), refreshing: false });
    },
    [environment],
  );

  async function chooseFile(file: File | undefined) {
    if (!file) return;
    setFailure(null);
    if (file.size > c.maxImportBytes) {
      notify({ ...fileTooLarge(megabytes(c.maxImportBytes)), intent: 'error' });
      return;
    }
    setStep({ kind: 'uploading', fileName: file.name, sent: 0, total: file.size });
    try {
      const uploaded = await uploadContactsFile(file, (sent, total) => setStep({ kind: 'uploading', fileName: file.name, sent, total }));
      await loadPreview(uploaded.importId, null);
    } catch (err) {
      setStep({ kind: 'idle' });
      notify({ title: UPLOAD_FAILED, body: messageOf(err, 'The file could not be sent. Please try again.'), intent: 'error' });
    }
  }

  async function changeMapping(next: Mapping) {
    if (step.kind !== 'preview') return;
    setStep({ ...step, mapping: next, refreshing: true });
    try {
      await loadPreview(step.id, next);
    } catch (err) {
      setStep({ ...step, mapping: next, refreshing: false });
      notify({ title: 'Invalid mapping', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  async function runImport() {
    if (step.kind !== 'preview') return;
    try {
      const r = await mutate(start, { variables: { input: { importId: step.id, mapping: toInput(step.mapping) } } });
      const i = r.startContactImport.contactImport!;
      setStep({ kind: 'importing', id: step.id, fileName: i.fileName, progress: i.progress, rows: i.rowCount, imported: i.importedCount });
    } catch (err) {
      notify({ title: IMPORT_FAILED, body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  async function cancelPreview() {
    if (step.kind === 'preview') await mutate(discard, { variables: { id: step.id } }).catch(() => undefined);
    setStep({ kind: 'idle' });
  }

  const finished = useCallback(
    async (id: string) => {
      const data = await fetchQuery<ContactImportPanelStateQuery>(environment, STATE, { id }, { fetchPolicy: 'network-only' }).toPromise();
      const node = data?.node;
      if (!node || node.status === 'importing') return false;
      setStep({ kind: 'idle' });
      await refreshConnection();
      if (node.status === 'active') {
        notify({ ...contactsImported(node.importedCount ?? 0, node.fileName ?? 'the file'), intent: 'success' });
        onImported();
      } else {
        setFailure(node.error ?? 'The file could not be imported. Nothing was changed.');
        notify({ title: IMPORT_FAILED, body: node.error ?? 'Nothing was changed.', intent: 'error' });
      }
      return true;
    },
    [environment, notify, onImported, refreshConnection],
  );

  async function doUndo() {
    setConfirmUndo(false);
    try {
      const r = await mutate(undo, { variables: {} });
      const restored = r.undoContactImport.crmConnection.activeImport;
      notify({ ...importUndone(restored ? { fileName: restored.fileName, importedCount: restored.importedCount } : null), intent: 'success' });
    } catch (err) {
      notify({ title: 'Undo failed', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void chooseFile(e.dataTransfer.files[0]);
  };

  return (
    <section className={s.panel} aria-label="Import a contacts file">
      {c.connected && c.tokenType === 'file' && c.activeImport && step.kind === 'idle' && (
        <div className={s.current}>
          <Text>
            Your contacts: <Text weight="semibold">{formatCount(c.activeImport.importedCount)}</Text> from <Text weight="semibold">{c.activeImport.fileName}</Text>
            {c.activeImport.completedAt ? `, imported ${new Date(c.activeImport.completedAt).toLocaleDateString()}` : ''}.
          </Text>
          <Button size="small" onClick={() => setConfirmUndo(true)} disabled={undoing}>
            Undo last import
          </Button>
        </div>
      )}
      {failure && step.kind === 'idle' && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>{IMPORT_FAILED}</MessageBarTitle>
            {failure}
          </MessageBarBody>
        </MessageBar>
      )}
      {step.kind === 'idle' && (
        <div
          className={mergeClasses(s.drop, dragging && s.dropActive)}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="contacts-drop-zone"
        >
          <DocumentTableRegular className={s.icon} aria-hidden />
          <Text weight="semibold">{c.connected && c.tokenType === 'file' ? 'Drop a newer contacts file here to replace them' : 'Drop your contacts file here'}</Text>
          <Caption1 className={s.muted}>
            A CSV or Excel (.xlsx) export of {c.crmLabel === 'your CRM' ? 'any CRM' : `${c.crmLabel} or any CRM`}, up to {megabytes(c.maxImportBytes)}. You choose which column holds what before anything is imported.
          </Caption1>
          <Button icon={<ArrowUploadRegular />} onClick={() => input.current?.click()}>
            Choose a file
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            accept=".csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-label="Contacts file"
            onChange={(e) => {
              void chooseFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
      )}
      {step.kind === 'uploading' && (
        <Field label={`Sending ${step.fileName}`} validationMessage={`${megabytes(step.sent)} of ${megabytes(step.total)}`} validationState="none">
          <ProgressBar value={step.total ? step.sent / step.total : 0} aria-label="Upload progress" />
        </Field>
      )}
      {step.kind === 'preview' && (
        <PreviewView step={step} onChange={changeMapping} onImport={runImport} onCancel={cancelPreview} starting={starting} replaces={c.connected ? (c.tokenType === 'file' ? 'your current imported contacts' : `your ${c.crmLabel} connection`) : null} />
      )}
      {step.kind === 'importing' && <ImportProgress step={step} onProgress={setStep} onDone={finished} />}
      <ConfirmDialog open={confirmUndo} title="Undo last import?" confirmLabel="Undo import" danger onConfirm={doUndo} onCancel={() => setConfirmUndo(false)}>
        {c.previousImport
          ? `The contacts of ${c.previousImport.fileName} (${formatCount(c.previousImport.importedCount)}) become your contacts again.`
          : 'Your imported contacts are removed; you will have no contacts until you import a file or connect your CRM.'}
      </ConfirmDialog>
    </section>
  );
}

function ImportProgress({
  step,
  onProgress,
  onDone,
}: {
  step: Extract<Step, { kind: 'importing' }>;
  onProgress: (s: Step) => void;
  onDone: (id: string) => Promise<boolean>;
}) {
  const { id, fileName } = step;
  const config = useMemo<GraphQLSubscriptionConfig<ContactImportPanelProgressSubscription>>(
    () => ({
      subscription: PROGRESS,
      variables: { id },
      onNext: (e) => {
        const p = e?.contactImportProgress;
        if (!p) return;
        onProgress({ kind: 'importing', id, fileName, progress: p.progress, rows: p.rowCount, imported: p.importedCount });
        if (p.done) void onDone(id);
      },
      onError: () => {},
    }),
    [id, fileName, onProgress, onDone],
  );
  useSubscription(config);
  useEffect(() => {
    const timer = setInterval(() => void onDone(id).catch(() => undefined), STATE_READ_MS);
    return () => clearInterval(timer);
  }, [id, onDone]);
  return (
    <Field label={`Importing ${fileName}`} validationMessage={`${formatCount(step.rows)} rows read · ${formatCount(step.imported)} contacts imported`} validationState="none">
      <ProgressBar value={step.progress} aria-label="Import progress" />
    </Field>
  );
}

const STAGE_HINT: Record<string, string> = { '': 'Unknown' };

function PreviewView({
  step,
  onChange,
  onImport,
  onCancel,
  starting,
  replaces,
}: {
  step: Extract<Step, { kind: 'preview' }>;
  onChange: (m: Mapping) => void;
  onImport: () => void;
  onCancel: () => void;
  starting: boolean;
  replaces: string | null;
}) {
  const s = useStyles();
  const { preview: p, mapping } = step;
  const fieldOf = new Map(mapping.columns.map((x) => [x.index, x.field]));
  const hasDates = mapping.columns.some((x) => x.field === 'lastPurchaseDate' || x.field === 'createdAt');
  const stageChoice = new Map(mapping.stages.map((x) => [x.value, x.stage]));

  const setColumn = (index: number, field: string) => {
    const columns = mapping.columns.filter((x) => x.index !== index && (field === '' || x.field !== field));
    if (field) columns.push({ index, field });
    onChange({ ...mapping, columns: columns.sort((a, b) => a.index - b.index) });
  };
  const setStage = (value: string, stage: string) => {
    const stages = mapping.stages.filter((x) => x.value !== value);
    stages.push({ value, stage: stage || 'other' });
    onChange({ ...mapping, stages });
  };
  const details = [p.contactImport.format.toUpperCase(), p.encoding, p.delimiter && `${p.delimiter}-separated`].filter(Boolean).join(' · ');
  return (
    <>
      <Text>
        <Text weight="semibold">{p.contactImport.fileName}</Text> <Caption1 className={s.muted}>({details}; {formatCount(p.scannedRows)} rows checked{p.complete ? '' : ', the import checks the rest'})</Caption1>
      </Text>
      <div className={s.scroll} role="region" aria-label="Mapping of the columns" tabIndex={0}>
        <Table size="small" aria-label="Columns of the file">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Column in the file</TableHeaderCell>
              <TableHeaderCell>Imported as</TableHeaderCell>
              <TableHeaderCell>First values</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {p.columns.map((col) => (
              <TableRow key={col.index}>
                <TableCell>{col.header}</TableCell>
                <TableCell>
                  <Select size="small" aria-label={`Import column ${col.header} as`} value={fieldOf.get(col.index) ?? ''} onChange={(_e, d) => setColumn(col.index, d.value)} disabled={step.refreshing}>
                    <option value="">Don&apos;t import</option>
                    {p.fieldOptions.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </Select>
                </TableCell>
                <TableCell>
                  <Caption1 className={s.muted}>{col.samples.join(', ')}</Caption1>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {(hasDates || p.contactImport.format === 'csv') && (
        <div className={s.row}>
          {hasDates && (
            <Field label="Dates such as 03/05/2024" hint={p.dateOrderDetected ? 'Detected from the file' : undefined}>
              <Select value={mapping.dateOrder} onChange={(_e, d) => onChange({ ...mapping, dateOrder: d.value })} disabled={step.refreshing}>
                <option value="MDY">Month first (March 5)</option>
                <option value="DMY">Day first (3 May)</option>
              </Select>
            </Field>
          )}
          {p.contactImport.format === 'csv' && (
            <Field label="Characters">
              <Select value={mapping.encoding ?? ''} onChange={(_e, d) => onChange({ ...mapping, encoding: d.value || null })} disabled={step.refreshing}>
                <option value="">{p.encoding} (detected)</option>
                {p.encodingOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            </Field>
          )}
        </div>
      )}
      {p.stageValues.length > 0 && (
        <section aria-label="Lifecycle values in the file">
          <Text weight="semibold">Lifecycle values in the file</Text>{' '}
          <Caption1 className={s.muted}>What each value means for questions such as &quot;customers&quot; or &quot;leads&quot;</Caption1>
          <div className={s.stages}>
            {p.stageValues.map((v) => (
              <Field key={v.value} label={`${v.value} (${formatCount(v.count)})`} size="small" validationState={v.known || stageChoice.has(v.value) ? 'none' : 'warning'} validationMessage={v.known || stageChoice.has(v.value) ? undefined : 'Not recognised: shown as unknown'}>
                <Select size="small" value={stageChoice.get(v.value) ?? v.stage ?? ''} onChange={(_e, d) => setStage(v.value, d.value)} disabled={step.refreshing}>
                  <option value="">{STAGE_HINT['']}</option>
                  {p.stageOptions.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </Select>
              </Field>
            ))}
          </div>
        </section>
      )}
      {p.blocker && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>This file cannot be imported yet</MessageBarTitle>
            {p.blocker}
          </MessageBarBody>
        </MessageBar>
      )}
      {!p.blocker &&
        (p.problems.total > 0 ? (
          <MessageBar intent="warning">
            <MessageBarBody>
              <MessageBarTitle>Problems found</MessageBarTitle>
              {p.problems.counts.map((x) => `${formatCount(x.count)} × ${x.label}`).join('; ')}.
              <ul>
                {p.problems.examples.slice(0, 6).map((e, i) => (
                  <li key={i}>
                    Row {e.row}: {e.message}
                  </li>
                ))}
              </ul>
            </MessageBarBody>
          </MessageBar>
        ) : (
          <MessageBar intent="success">
            <MessageBarBody>No problems found in the rows checked.</MessageBarBody>
          </MessageBar>
        ))}
      {!p.blocker && p.rows.length > 0 && (
        <div className={s.scroll} role="region" aria-label="The first rows" tabIndex={0}>
          <Table size="small" aria-label="First rows as customers">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Row</TableHeaderCell>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Email</TableHeaderCell>
                <TableHeaderCell>Company</TableHeaderCell>
                <TableHeaderCell>Stage</TableHeaderCell>
                <TableHeaderCell>Last purchase</TableHeaderCell>
                <TableHeaderCell>Lifetime value</TableHeaderCell>
                <TableHeaderCell>Country</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {p.rows.map((r) =>
                r.customer ? (
                  <TableRow key={r.row}>
                    <TableCell>{r.row}</TableCell>
                    <TableCell>{[r.customer.firstName, r.customer.lastName].filter(Boolean).join(' ') || '—'}</TableCell>
                    <TableCell>{r.customer.email ?? '—'}</TableCell>
                    <TableCell>{r.customer.company ?? '—'}</TableCell>
                    <TableCell>{r.customer.lifecycleStage}</TableCell>
                    <TableCell className={r.problems.length ? s.problemCell : undefined} title={r.problems.map((x) => x.message).join('\n') || undefined}>
                      {r.customer.lastPurchaseDate ?? '—'}
                    </TableCell>
                    <TableCell>{r.customer.lifetimeValue == null ? '—' : `$${formatCount(r.customer.lifetimeValue)}`}</TableCell>
                    <TableCell>{r.customer.country ?? '—'}</TableCell>
                  </TableRow>
                ) : (
                  <TableRow key={r.row}>
                    <TableCell>{r.row}</TableCell>
                    <TableCell colSpan={7} className={s.skipped}>
                      Skipped: {r.problems.map((x) => x.message).join('; ')}
                    </TableCell>
                  </TableRow>
                ),
              )}
            </TableBody>
          </Table>
        </div>
      )}
      {replaces && !p.blocker && (
        <MessageBar intent="warning">
          <MessageBarBody>Importing replaces {replaces}. You can undo it afterwards.</MessageBarBody>
        </MessageBar>
      )}
      <div className={s.actions}>
        <Button onClick={onCancel}>Cancel</Button>
        <Button appearance="primary" onClick={onImport} disabled={Boolean(p.blocker) || starting || step.refreshing}>
          {starting ? 'Starting...' : 'Import contacts'}
        </Button>
      </div>
    </>
  );
}
