// The understood segment as editable chips: one chip per condition (its operator and value can be changed,
// a chip removed, a condition added from the menu of fields), the sort and limit, and the phrases that were
// not understood. Used for a stored query (UnderstoodPanel: "Apply changes" re-runs it) and for a
// clarification in the chat (ClarificationCard: "Run with these conditions" runs the question as edited).
import {
  Button,
  InteractionTag,
  InteractionTagPrimary,
  InteractionTagSecondary,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Tag,
  TagGroup,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add16Regular } from '@fluentui/react-icons';
import { useEffect, useMemo, useState } from 'react';
import { graphql } from 'react-relay';
import type { UnderstoodChips_definition$data } from '../__generated__/UnderstoodChips_definition.graphql';
import { ChipEditor } from './ChipEditor';
import { chipLabel, newChip, toSegmentInput, type Chip, type FieldInfo } from './segment-chips';

// Every value field is selected in full, so an unedited chip goes back to the server unchanged.
export const UNDERSTOOD_CHIPS_FRAGMENT = graphql`
  fragment UnderstoodChips_definition on SegmentDefinition {
    editable
    explanation
    ignoredPhrases
    limit
    sort {
      field
      direction
    }
    clauses {
      anyOf {
        field
        operator
        negated
        label
        countries
        values
        value {
          text
          number
          boolean
          date {
            kind
            date
            amount
            unit
            direction
            offset
          }
        }
        from {
          text
          number
          boolean
          date {
            kind
            date
            amount
            unit
            direction
            offset
          }
        }
        to {
          text
          number
          boolean
          date {
            kind
            date
            amount
            unit
            direction
            offset
          }
        }
      }
    }
  }
`;

export type UnderstoodDefinition = Omit<UnderstoodChips_definition$data, ' $fragmentType'>;
export type SegmentInputOf = ReturnType<typeof toSegmentInput>;

const useStyles = makeStyles({
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  or: { color: tokens.colorNeutralForeground3, padding: `0 ${tokens.spacingHorizontalXXS}` },
  ignored: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  head: { display: 'flex', justifyContent: 'flex-end' },
});

export function UnderstoodChips(props: {
  definition: UnderstoodDefinition;
  fields: readonly FieldInfo[];
  busy: boolean;
  onApply: (segment: SegmentInputOf) => void;
  /** the button that runs the chips ("Apply changes" when edited; always shown when `alwaysApply`) */
  applyLabel: string;
  alwaysApply?: boolean;
  /** a name for the region ("How the question was understood") */
  label: string;
}) {
  const s = useStyles();
  const u = props.definition;
  const fieldInfo = useMemo(() => new Map(props.fields.map((f) => [f.field as string, f])), [props.fields]);
  const original = useMemo<Chip[][]>(() => u.clauses.map((c) => c.anyOf.map((chip) => ({ ...chip, values: chip.values ?? null }) as Chip)), [u]);
  const [clauses, setClauses] = useState<Chip[][]>(original);
  const [sortKept, setSortKept] = useState(true);
  const [limitKept, setLimitKept] = useState(true);
  const [editing, setEditing] = useState<{ clause: number; index: number; chip: Chip } | null>(null);
  useEffect(() => {
    setClauses(original);
    setSortKept(true);
    setLimitKept(true);
  }, [original]);

  const dirty = clauses !== original || !sortKept || !limitKept;
  const save = (chip: Chip) => {
    if (!editing) return;
    setClauses((cs) => {
      const next = cs.map((c) => [...c]);
      if (editing.clause === next.length) next.push([chip]);
      else next[editing.clause][editing.index] = chip;
      return next;
    });
    setEditing(null);
  };
  const remove = (clause: number, index: number) => setClauses((cs) => cs.map((c, i) => (i === clause ? c.filter((_x, j) => j !== index) : c)).filter((c) => c.length > 0));
  const apply = () => props.onApply(toSegmentInput(clauses, sortKept && u.sort ? { field: u.sort.field, direction: u.sort.direction } : null, limitKept ? (u.limit ?? null) : null));

  return (
    <div aria-label={props.label} role="group">
      {u.editable && (
        <div className={s.head}>
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button size="small" appearance="subtle" icon={<Add16Regular />} disabled={props.busy}>
                Add condition
              </Button>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {props.fields.map((f) => (
                  <MenuItem key={f.field} onClick={() => setEditing({ clause: clauses.length, index: 0, chip: newChip(f) })}>
                    {f.label}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
        </div>
      )}
      {!u.editable ? (
        <Text>{u.explanation}</Text>
      ) : (
        <div className={s.chips}>
          {clauses.length === 0 && !u.sort && u.limit === null && <Text className={s.muted}>All customers (no conditions)</Text>}
          {clauses.map((clause, ci) =>
            clause.map((chip, i) => {
              const label = chipLabel(chip, fieldInfo.get(chip.field));
              const countries = chip.countries?.length ? `Covers: ${chip.countries.join(', ')}` : undefined;
              const tag = (
                <InteractionTag key={`${ci}-${i}`} size="small" appearance="brand" value={`${ci}-${i}`}>
                  <InteractionTagPrimary hasSecondaryAction onClick={() => setEditing({ clause: ci, index: i, chip })} aria-label={`Edit condition: ${label}`}>
                    {label}
                  </InteractionTagPrimary>
                  <InteractionTagSecondary aria-label={`Remove condition: ${label}`} onClick={() => remove(ci, i)} />
                </InteractionTag>
              );
              return (
                <span key={`${ci}-${i}`} style={{ display: 'inline-flex', alignItems: 'center' }}>
                  {i > 0 && <Text className={s.or}>or</Text>}
                  {countries ? (
                    <Tooltip content={countries} relationship="description" showDelay={700} hideDelay={300}>
                      {tag}
                    </Tooltip>
                  ) : (
                    tag
                  )}
                </span>
              );
            }),
          )}
          {u.sort && sortKept && (
            <InteractionTag size="small" appearance="outline">
              <InteractionTagPrimary hasSecondaryAction>
                Sorted by {u.sort.field} ({u.sort.direction === 'desc' ? 'highest first' : 'lowest first'})
              </InteractionTagPrimary>
              <InteractionTagSecondary aria-label="Remove the sort" onClick={() => setSortKept(false)} />
            </InteractionTag>
          )}
          {u.limit !== null && limitKept && (
            <InteractionTag size="small" appearance="outline">
              <InteractionTagPrimary hasSecondaryAction>First {u.limit}</InteractionTagPrimary>
              <InteractionTagSecondary aria-label="Remove the limit" onClick={() => setLimitKept(false)} />
            </InteractionTag>
          )}
        </div>
      )}
      {u.ignoredPhrases.length > 0 && (
        <TagGroup aria-label="Not understood">
          <Text size={200} className={s.ignored}>
            Not understood:
          </Text>
          {u.ignoredPhrases.map((p) => (
            <Tag key={p} size="extra-small" appearance="outline">
              {p}
            </Tag>
          ))}
        </TagGroup>
      )}
      {(dirty || props.alwaysApply) && u.editable && (
        <div className={s.actions}>
          <Button size="small" appearance="primary" disabled={props.busy} onClick={apply}>
            {props.applyLabel}
          </Button>
          {dirty && (
            <Button
              size="small"
              disabled={props.busy}
              onClick={() => {
                setClauses(original);
                setSortKept(true);
                setLimitKept(true);
              }}
            >
              Undo changes
            </Button>
          )}
        </div>
      )}
      <ChipEditor chip={editing?.chip ?? null} info={editing ? fieldInfo.get(editing.chip.field) : undefined} onSave={save} onClose={() => setEditing(null)} />
    </div>
  );
}
