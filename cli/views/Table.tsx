// A table as Ink Box rows with fixed column widths, sized to the width it is given: columns keep
// their content's width while it fits, then the growable ones shrink (text is cut with "…"), and
// optional columns are left out when even their minimum widths do not fit. Piped, a table is TSV
// with full values instead (tsv(), as gh does).
import { Box, Text } from 'ink';

export interface Column<R> {
  header: string;
  cell: (row: R) => string;
  /** The full value piped output (TSV) shows, e.g. a whole id, an ISO date, a plain number; default: the cell. */
  value?: (row: R) => string | number | null | undefined;
  /** Only in piped output (e.g. the full id next to a name the terminal shows with a short id). */
  pipedOnly?: boolean;
  align?: 'left' | 'right';
  /** Narrowest width it may be cut to (default: its header, at most 12); below it, optional columns go. */
  min?: number;
  /** Left out when the table does not fit (higher: left out earlier); a column without it is always shown. */
  optional?: number;
  color?: (row: R) => string | undefined;
}

export const GAP = 2;
const len = (s: string) => [...s].length;

/**
 * The columns that fit in `width` and their widths. A column is left out only when the table does not
 * fit with every column cut to its minimum (or to its content, when that is narrower); when even the
 * columns always shown do not fit, they are cut further, so that a row never wraps.
 */
export function layout<R>(columns: readonly Column<R>[], rows: readonly R[], width: number): { columns: Column<R>[]; widths: number[] } {
  let shown = columns.filter((c) => !c.pipedOnly);
  const natural = new Map(shown.map((c) => [c, Math.max(len(c.header), ...rows.map((r) => len(c.cell(r))))]));
  const floor = (c: Column<R>) => Math.min(c.min ?? Math.min(len(c.header), 12), natural.get(c)!);
  const total = (cols: Column<R>[], w: (c: Column<R>) => number) => cols.reduce((s, c) => s + w(c), 0) + GAP * (cols.length - 1);
  while (total(shown, floor) > width && shown.some((c) => c.optional !== undefined)) {
    const drop = shown.reduce((a, c) => ((c.optional ?? -1) > (a.optional ?? -1) ? c : a));
    shown = shown.filter((c) => c !== drop);
  }
  const widths = shown.map((c) => natural.get(c)!);
  const floors = shown.map(floor);
  let excess = total(shown, (c) => natural.get(c)!) - width;
  // Take from the column with the most room above its minimum, one character at a time; then, when
  // the minimums do not fit, from the widest column.
  while (excess > 0) {
    let pick = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i] > floors[i] && (pick < 0 || widths[i] - floors[i] > widths[pick] - floors[pick])) pick = i;
    if (pick < 0) for (let i = 0; i < widths.length; i++) if (widths[i] > 1 && (pick < 0 || widths[i] > widths[pick])) pick = i;
    if (pick < 0) break;
    widths[pick]--;
    excess--;
  }
  return { columns: shown, widths };
}

/** The table as tab-separated values for a pipe: a header line, then every column with its full values. */
export function tsv<R>(columns: readonly Column<R>[], rows: readonly R[]): string {
  const clean = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v).replace(/[\t\r\n]+/g, ' '));
  const lines = [columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => clean(c.value ? c.value(r) : c.cell(r))))];
  return lines.map((l) => l.join('\t')).join('\n') + '\n';
}

export function Table<R>({ columns, rows, width }: { columns: readonly Column<R>[]; rows: readonly R[]; width: number }) {
  const { columns: shown, widths } = layout(columns, rows, width);
  const cell = (text: string, i: number, opts: { bold?: boolean; color?: string } = {}) => (
    <Box key={i} width={widths[i]} marginRight={i < shown.length - 1 ? GAP : 0} justifyContent={shown[i].align === 'right' ? 'flex-end' : 'flex-start'}>
      <Text bold={opts.bold} color={opts.color} wrap="truncate-end">
        {text}
      </Text>
    </Box>
  );
  return (
    <Box flexDirection="column">
      <Box>{shown.map((c, i) => cell(c.header, i, { bold: true }))}</Box>
      {rows.map((r, ri) => (
        <Box key={ri}>{shown.map((c, i) => cell(c.cell(r), i, { color: c.color?.(r) }))}</Box>
      ))}
    </Box>
  );
}
