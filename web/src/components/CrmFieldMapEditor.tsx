// The connection's field map (issue 27): which of the CRM's fields holds each customer field and which of
// its lifecycle values mean which stage. Read-only summary by default; "Edit field map" reads the CRM's
// own fields (labels, kinds, picklist values, and what their labels suggest) and saves the choices.
import { Button, Field, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useFragment, useLazyLoadQuery } from 'react-relay';
import type { CrmFieldMapEditor_connection$data, CrmFieldMapEditor_connection$key } from '../__generated__/CrmFieldMapEditor_connection.graphql';
import type { CrmFieldMapEditorQuery } from '../__generated__/CrmFieldMapEditorQuery.graphql';
import { messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useSaveCrmFieldMapMutation } from '../mutations/SaveCrmFieldMapMutation';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, borderTop: `1px solid ${tokens.colorNeutralStroke2}`, paddingTop: tokens.spacingVerticalM },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: tokens.spacingVerticalS, columnGap: tokens.spacingHorizontalM },
  summary: { color: tokens.colorNeutralForeground2 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
});

/** The detailed stages a CRM value can mean (the product's vocabulary), with how the product shows them. */
const STAGES: [string, string][] = [
  ['', '(no stage: unknown)'],
  ['subscriber', 'Subscriber'],
  ['lead', 'Lead'],
  ['marketingqualifiedlead', 'Lead (marketing qualified)'],
  ['salesqualifiedlead', 'Lead (sales qualified)'],
  ['opportunity', 'Opportunity'],
  ['customer', 'Customer'],
  ['evangelist', 'Customer (evangelist)'],
  ['other', 'Other (unknown)'],
];

export function CrmFieldMapEditor({ connection: key }: { connection: CrmFieldMapEditor_connection$key }) {
  const s = useStyles();
  const c = useFragment(
    graphql`
      fragment CrmFieldMapEditor_connection on CrmConnection {
        crmLabel
        fieldMap {
          field
          label
          kind
          crmField
          defaultCrmField
        }
        stageMap {
          crmValue
          stage
        }
      }
    `,
    key,
  );
  const [editing, setEditing] = useState(false);
  if (c.fieldMap.length === 0) return null;
  const pick = (f: string) => c.fieldMap.find((e) => e.field === f)?.crmField;
  const customerValues = c.stageMap.filter((e) => e.stage === 'customer' || e.stage === 'evangelist').map((e) => e.crmValue);
  return (
    <section className={s.box} aria-labelledby="field-map-heading">
      <Text weight="semibold" id="field-map-heading">
        Field map
      </Text>
      {!editing ? (
        <>
          <Text size={200} className={s.summary}>
            Lifetime value ← {pick('lifetimeValue')} · Last purchase ← {pick('lastPurchaseDate')} ({pick('lastPurchaseAmount')}) · Stage ← {pick('lifecycleStage')} · Customers: {customerValues.join(', ') || 'none'}
          </Text>
          <div className={s.actions}>
            <Button size="small" onClick={() => setEditing(true)}>
              Edit field map
            </Button>
          </div>
        </>
      ) : (
        <FieldMapForm connection={c} onDone={() => setEditing(false)} />
      )}
    </section>
  );
}

type Connection = CrmFieldMapEditor_connection$data;

function FieldMapForm({ connection: c, onDone }: { connection: Connection; onDone: () => void }) {
  const s = useStyles();
  const notify = useNotify();
  const data = useLazyLoadQuery<CrmFieldMapEditorQuery>(
    graphql`
      query CrmFieldMapEditorQuery {
        crmFields {
          name
          label
          kind
          derived
          suggestedFor
          options {
            value
            label
          }
        }
      }
    `,
    {},
    { fetchPolicy: 'network-only' },
  );
  const [fields, setFields] = useState<Record<string, string>>(() => Object.fromEntries(c.fieldMap.map((e) => [e.field, e.crmField])));
  const [stages, setStages] = useState<Record<string, string>>(() => Object.fromEntries(c.stageMap.map((e) => [e.crmValue, e.stage])));
  const [save, saving] = useSaveCrmFieldMapMutation();

  const lifecycleField = data.crmFields.find((f) => f.name === fields.lifecycleStage);
  // Every value the stage field can hold, and every value already mapped.
  const stageValues = [...new Set([...(lifecycleField?.options ?? []).map((o) => o.value.toLowerCase()), ...Object.keys(stages)])];

  const choicesFor = (entry: Connection['fieldMap'][number]) => {
    const fitting = data.crmFields.filter((f) => f.kind === entry.kind || (entry.kind === 'stage' && f.options.length > 0));
    const known = new Set(fitting.map((f) => f.name));
    const extra = [entry.crmField, entry.defaultCrmField].filter((n) => !known.has(n)).map((name) => ({ name, label: name, suggestedFor: [] as readonly string[] }));
    return [...fitting, ...extra];
  };

  async function submit(reset: boolean) {
    try {
      await mutate(save, {
        variables: {
          input: reset
            ? { reset: true }
            : {
                fields: c.fieldMap.filter((e) => fields[e.field] && fields[e.field] !== e.defaultCrmField).map((e) => ({ field: e.field, crmField: fields[e.field] })),
                stages: Object.entries(stages).filter(([, st]) => st).map(([crmValue, stage]) => ({ crmValue, stage })),
              },
        },
      });
      notify({ title: 'Field map saved', body: reset ? `Back to ${c.crmLabel}'s defaults.` : 'Questions now read these fields.', intent: 'success' });
      onDone();
    } catch (err) {
      notify({ title: 'Failed to save the field map', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  return (
    <>
      <div className={s.grid}>
        {c.fieldMap.map((e) => (
          <Field key={e.field} label={e.label} size="small">
            <Select size="small" value={fields[e.field]} onChange={(_e, d) => setFields({ ...fields, [e.field]: d.value })}>
              {choicesFor(e).map((f) => (
                <option key={f.name} value={f.name}>
                  {f.label}
                  {f.name === e.defaultCrmField ? ' (default)' : f.suggestedFor.includes(e.field) ? ' (suggested)' : ''}
                </option>
              ))}
            </Select>
          </Field>
        ))}
      </div>
      <Text weight="semibold" size={200}>
        Which {c.crmLabel} stages mean what
      </Text>
      <div className={s.grid}>
        {stageValues.map((v) => (
          <Field key={v} label={lifecycleField?.options.find((o) => o.value.toLowerCase() === v)?.label ?? v} size="small">
            <Select size="small" value={stages[v] ?? ''} onChange={(_e, d) => setStages({ ...stages, [v]: d.value })}>
              {STAGES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        ))}
      </div>
      <div className={s.actions}>
        <Button size="small" appearance="primary" onClick={() => submit(false)} disabled={saving}>
          {saving ? 'Saving...' : 'Save field map'}
        </Button>
        <Button size="small" onClick={() => submit(true)} disabled={saving}>
          Use {c.crmLabel}&apos;s defaults
        </Button>
        <Button size="small" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
      </div>
    </>
  );
}
