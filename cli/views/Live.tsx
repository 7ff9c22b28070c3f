// What is shown while work runs, on stderr when it is a terminal: a spinner for a request, a
// progress bar for an export, the live counts of a generation run.
import { ProgressBar, Spinner } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { formatCount } from '../../client/format.js';
import { percent } from '../format.js';

export function Working({ label }: { label: string }) {
  return <Spinner label={label} />;
}

export interface ExportState {
  done: number;
  /** Expected total (may be off by a little: the CRM is read now). */
  total: number;
  target: string;
}

export const exportLine = (s: ExportState) => `Exported ${formatCount(s.done)} of ${formatCount(Math.max(s.total, s.done))} customers (${percent(s.done, Math.max(s.total, s.done))}%)`;

export function ExportProgress({ state }: { state: ExportState }) {
  return (
    <Box flexDirection="column">
      <Text>Exporting to {state.target}</Text>
      <Box gap={1}>
        <Box width={30}>
          <ProgressBar value={percent(state.done, Math.max(state.total, state.done))} />
        </Box>
        <Text>{exportLine(state)}</Text>
      </Box>
    </Box>
  );
}

export interface GenerationState {
  users: number;
  completedUsers: number;
  totalSegments: number;
  successCount: number;
  failedCount: number;
  done: boolean;
}

export const generationLine = (s: GenerationState) =>
  `Users ${formatCount(s.completedUsers)}/${formatCount(s.users)} · segments ${formatCount(s.totalSegments)} · errors ${formatCount(s.failedCount)}`;

export function GenerationProgressView({ state }: { state: GenerationState | null }) {
  if (!state) return <Spinner label="Starting generation…" />;
  return (
    <Box flexDirection="column">
      <Box gap={1}>
        {!state.done && <Spinner />}
        <Text>Generating today&apos;s Smart Segments</Text>
      </Box>
      <Box gap={1}>
        <Box width={30}>
          <ProgressBar value={percent(state.completedUsers, state.users)} />
        </Box>
        <Text>
          {generationLine(state)}
        </Text>
      </Box>
    </Box>
  );
}

export interface UploadState {
  done: number;
  total: number;
  file: string;
}

const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

export const uploadLine = (s: UploadState) => `Sent ${megabytes(s.done)} of ${megabytes(s.total)} (${percent(s.done, s.total)}%)`;

export function UploadProgress({ state }: { state: UploadState }) {
  return (
    <Box flexDirection="column">
      <Text>Sending {state.file}</Text>
      <Box gap={1}>
        <Box width={30}>
          <ProgressBar value={percent(state.done, state.total)} />
        </Box>
        <Text>{uploadLine(state)}</Text>
      </Box>
    </Box>
  );
}

export interface ImportState {
  file: string;
  /** share of the file read, 0 to 1 */
  progress: number;
  rows: number;
  imported: number;
}

export const importLine = (s: ImportState) => `${Math.floor(100 * s.progress)}% · ${formatCount(s.rows)} rows read · ${formatCount(s.imported)} contacts imported`;

export function ImportProgressView({ state }: { state: ImportState }) {
  return (
    <Box flexDirection="column">
      <Box gap={1}>
        <Spinner />
        <Text>Importing {state.file}</Text>
      </Box>
      <Box gap={1}>
        <Box width={30}>
          <ProgressBar value={Math.floor(100 * state.progress)} />
        </Box>
        <Text>{importLine(state)}</Text>
      </Box>
    </Box>
  );
}
