// "How the question was understood": one chip per condition plus the phrases that were not
// understood. A chip's operator and value can be changed, a chip removed, a condition added from the
// menu of fields; "Apply changes" re-runs the query from the edited segment without retyping it.
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
import { graphql, useFragment } from 'react-relay';
import type { UnderstoodPanel_fields$key } from '../__generated__/UnderstoodPanel_fields.graphql';
import type { UnderstoodPanel_query$key } from '../__generated__/UnderstoodPanel_query.graphql';
import { ChipEditor } from './ChipEditor';
import { chipLabel, newChip, toSegmentInput, type Chip } from './segment-chips';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: tokens.spacingHorizontalS },
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  or: { color: tokens.colorNeutralForeground3, padding: `0 ${tokens.spacingHorizontalXXS}` },
  ignored: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function UnderstoodPanel(props: { query: UnderstoodPanel_query$key; fields: UnderstoodPanel_fields$key; busy: boolean; onApply: (segment: ReturnType<typeof toSegmentInput>) => void }) {
  const s = useStyles();
  // Every value field is selected in full, so an unedited chip goes back to the server unchanged.
  const q = useFragment(
    graphql`
      fragment UnderstoodPanel_query on CustomerQuery {
        id
        understood {
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
      }
    `,
    props.query,
  );
  const { segmentFields } = useFragment(
    graphql`
      fragment UnderstoodPanel_fields on Query {
        segmentFields {
          field
          label
          kind
          operators
          options
          example
        }
      }
    `,
    props.fields,
  );
  const fieldInfo = useMemo(() => new Map(segmentFields.map((f) => [f.field as string, f])), [segmentFields]);
  const u = q.understood;
  const original = useMemo<Chip[][]>(() => (u?.clauses ?? []).map((c) => c.anyOf.map((chip) => ({ ...chip, values: chip.values ?? null }) as Chip)), [u]);
  const [clauses, setClauses] = useState<Chip[][]>(original);
  const [sortKept, setSortKept] = useState(true);
  const [limitKept, setLimitKept] = useState(true);
  const [editing, setEditing] = useState<{ clause: number; index: number; chip: Chip } | null>(null);
  useEffect(() => {
    setClauses(original);
    setSortKept(true);
    setLimitKept(true);
  }, [original]);

  if (!u) return null;
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

  return (
    <section className={s.root} aria-label="How the question was understood">
      <div className={s.head}>
        <Text weight="semibold" size={300}>
          How I understood it
        </Text>
        {u.editable && (
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button size="small" appearance="subtle" icon={<Add16Regular />} disabled={props.busy}>
                Add condition
              </Button>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {segmentFields.map((f) => (
                  <MenuItem key={f.field} onClick={() => setEditing({ clause: clauses.length, index: 0, chip: newChip(f) })}>
                    {f.label}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
        )}
      </div>
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
      {dirty && (
        <div className={s.actions}>
          <Button
            size="small"
            appearance="primary"
            disabled={props.busy}
            onClick={() => props.onApply(toSegmentInput(clauses, sortKept && u.sort ? { field: u.sort.field, direction: u.sort.direction } : null, limitKept ? (u.limit ?? null) : null))}
          >
            Apply changes
          </Button>
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
        </div>
      )}
      <ChipEditor chip={editing?.chip ?? null} info={editing ? fieldInfo.get(editing.chip.field) : undefined} onSave={save} onClose={() => setEditing(null)} />
    </section>
  );
}
