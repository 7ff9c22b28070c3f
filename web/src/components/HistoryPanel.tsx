// "Query history" (spec §2): collapsible, with the count out of 50; each past question selects its
// results, and can be re-run.
import { Button, Text, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowClockwise16Regular, ChevronDown16Regular, ChevronRight16Regular, History20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { HistoryItem_query$key } from '../__generated__/HistoryItem_query.graphql';
import { formatCount, relativeTime } from '../lib/format';

export const HISTORY_LIMIT = 50;

const useStyles = makeStyles({
  section: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  toggle: { width: '100%', justifyContent: 'space-between', borderRadius: 0, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}` },
  toggleLabel: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  list: { listStyleType: 'none', margin: 0, padding: `0 0 ${tokens.spacingVerticalS}`, maxHeight: '260px', overflowY: 'auto' },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, padding: `0 ${tokens.spacingHorizontalS}` },
  select: {
    flexGrow: 1,
    minWidth: 0,
    justifyContent: 'flex-start',
    textAlign: 'left',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    paddingTop: tokens.spacingVerticalXS,
    paddingBottom: tokens.spacingVerticalXS,
  },
  selected: { backgroundColor: tokens.colorBrandBackground2 },
  question: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  meta: { color: tokens.colorNeutralForeground3 },
  empty: { padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, color: tokens.colorNeutralForeground3 },
});

export function HistoryPanel(props: {
  items: readonly ({ readonly id: string } & HistoryItem_query$key)[];
  total: number;
  selectedId: string | null;
  busy: boolean;
  onSelect: (id: string) => void;
  onRerun: (id: string) => void;
}) {
  const s = useStyles();
  const [open, setOpen] = useState(true);
  return (
    <section className={s.section} aria-label="Query history">
      <Button appearance="subtle" className={s.toggle} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <span className={s.toggleLabel}>
          <History20Regular aria-hidden />
          <Text weight="semibold">Query history</Text>
        </span>
        <span className={s.toggleLabel}>
          <Text size={200}>
            {Math.min(props.total, HISTORY_LIMIT)}/{HISTORY_LIMIT}
          </Text>
          {open ? <ChevronDown16Regular aria-hidden /> : <ChevronRight16Regular aria-hidden />}
        </span>
      </Button>
      {open &&
        (props.items.length === 0 ? (
          <Text as="p" className={s.empty}>
            Your questions will appear here.
          </Text>
        ) : (
          <ul className={s.list}>
            {props.items.map((q) => (
              <HistoryItem key={q.id} query={q} selected={q.id === props.selectedId} busy={props.busy} onSelect={props.onSelect} onRerun={props.onRerun} />
            ))}
          </ul>
        ))}
    </section>
  );
}

function HistoryItem(props: { query: HistoryItem_query$key; selected: boolean; busy: boolean; onSelect: (id: string) => void; onRerun: (id: string) => void }) {
  const s = useStyles();
  const q = useFragment(
    graphql`
      fragment HistoryItem_query on CustomerQuery {
        id
        naturalLanguage
        createdAt
        resultCount
        hasError
      }
    `,
    props.query,
  );
  return (
    <li className={s.item}>
      <Button
        appearance="subtle"
        className={mergeClasses(s.select, props.selected && s.selected)}
        onClick={() => props.onSelect(q.id)}
        aria-current={props.selected ? 'true' : undefined}
      >
        <Text className={s.question}>{q.naturalLanguage}</Text>
        <Text size={200} className={s.meta}>
          {q.hasError ? 'Could not reach the CRM' : `${formatCount(q.resultCount)} customers`} · {relativeTime(q.createdAt)}
        </Text>
      </Button>
      <Tooltip content="Re-run this query" relationship="label" showDelay={700} hideDelay={300}>
        <Button appearance="subtle" size="small" icon={<ArrowClockwise16Regular />} disabled={props.busy} onClick={() => props.onRerun(q.id)} />
      </Tooltip>
    </li>
  );
}
