// A table as Ink Box rows with fixed column widths, sized to the width it is given: columns keep
// their content's width while it fits, then the growable ones shrink (text is cut with "…"), and
// optional columns are left out when even their minimum widths do not fit.
import { Box, Text } from 'ink';

export interface Column<R> {
  header: string;
  cell: (row: R) => string;
  align?: 'left' | 'right';
  /** Narrowest width it may be cut to (default: its header, at most 12); below it, optional columns go. */
  min?: number;
  /** Left out first when the table does not fit (higher: left out earlier). */
  optional?: number;
  color?: (row: R) => string | undefined;
}

export const GAP = 2;
const len = (s: string) => [...s].length;

/** The columns that fit and their widths. */
export function layout<R>(columns: readonly Column<R>[], rows: readonly R[], width: number): { columns: Column<R>[]; widths: number[] } {
  let shown = [...columns];
  const minOf = (c: Column<R>) => c.min ?? Math.min(len(c.header), 12);
  const fits = (cols: Column<R>[]) => cols.reduce((s, c) => s + minOf(c), 0) + GAP * (cols.length - 1) <= width;
  while (!fits(shown) && shown.some((c) => c.optional !== undefined)) {
    const drop = shown.reduce((a, c) => ((c.optional ?? -1) > (a.optional ?? -1) ? c : a));
    shown = shown.filter((c) => c !== drop);
  }
  const widths = shown.map((c) => Math.max(len(c.header), ...rows.map((r) => len(c.cell(r)))));
  const mins = shown.map((c, i) => Math.min(minOf(c), widths[i]));
  let excess = widths.reduce((s, w) => s + w, 0) + GAP * (shown.length - 1) - width;
  // Take from the column with the most room above its minimum, one character at a time.
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i] > mins[i] && (widest < 0 || widths[i] - mins[i] > widths[widest] - mins[widest])) widest = i;
    if (widest < 0) break;
    widths[widest]--;
    excess--;
  }
  return { columns: shown, widths };
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
