// Edits one condition chip: operator and value, with an editor fit for the field's kind (text, money,
// date, lifecycle stage, region, email domain, yes/no).
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  Option,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { operatorLabel, withOperator, type Chip, type ChipDate, type ChipValue, type FieldInfo } from './segment-chips';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
});

const UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;

export function ChipEditor(props: { chip: Chip | null; info: FieldInfo | undefined; onSave: (chip: Chip) => void; onClose: () => void }) {
  const s = useStyles();
  const [draft, setDraft] = useState<Chip | null>(props.chip);
  useEffect(() => {
    setDraft(props.chip);
  }, [props.chip]);
  if (!draft || !props.info) return null;
  const info = props.info;
  const set = (patch: Partial<Chip>) => setDraft({ ...draft, ...patch, label: undefined });
  const kind = info.kind;
  const op = draft.operator;
  const valid = isComplete(draft, kind);

  return (
    <Dialog open={Boolean(props.chip)} onOpenChange={(_e, d) => !d.open && props.onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{info.label}</DialogTitle>
          <DialogContent className={s.body}>
            {info.operators.length > 1 && (
              <Field label="Condition">
                <Dropdown
                  value={operatorLabel(op, kind)}
                  selectedOptions={[op]}
                  onOptionSelect={(_e, d) => d.optionValue && setDraft({ ...withOperator(draft, d.optionValue, info), label: undefined })}
                >
                  {info.operators.map((o) => (
                    <Option key={o} value={o}>
                      {operatorLabel(o, kind)}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            )}
            {(op === 'in' || op === 'not_in') && <ListEditor info={info} values={draft.values ?? []} onChange={(values) => set({ values })} />}
            {op === 'between' && (
              <div className={s.row}>
                <ValueEditor label="From" info={info} value={draft.from} onChange={(from) => set({ from })} />
                <ValueEditor label="To" info={info} value={draft.to} onChange={(to) => set({ to })} />
              </div>
            )}
            {!['in', 'not_in', 'between', 'is_set', 'is_not_set'].includes(op) && (
              <ValueEditor label="Value" info={info} value={draft.value} onChange={(value) => set({ value })} />
            )}
            {kind !== 'boolean' && (
              <Checkbox label="Exclude customers who match (not)" checked={draft.negated} onChange={(_e, d) => set({ negated: Boolean(d.checked) })} />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={props.onClose}>Cancel</Button>
            <Button appearance="primary" disabled={!valid} onClick={() => props.onSave(draft)}>
              Done
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** What is wrong with an amount of money (amounts are never negative), or null. */
function moneyProblem(n: number, kind: string): string | null {
  if (kind !== 'money') return null;
  if (!Number.isFinite(n)) return 'Enter an amount in USD';
  return n < 0 ? 'An amount cannot be negative' : null;
}

function isComplete(c: Chip, kind: string): boolean {
  const filled = (v: ChipValue | null | undefined) =>
    Boolean(v && ((typeof v.text === 'string' && v.text.trim()) || (typeof v.number === 'number' && moneyProblem(v.number, kind) === null) || typeof v.boolean === 'boolean' || v.date));
  if (c.operator === 'is_set' || c.operator === 'is_not_set') return true;
  if (c.operator === 'in' || c.operator === 'not_in') return (c.values ?? []).length > 0;
  if (c.operator === 'between') return filled(c.from) && filled(c.to);
  return kind === 'boolean' ? typeof c.value?.boolean === 'boolean' : filled(c.value);
}

function ListEditor({ info, values, onChange }: { info: FieldInfo; values: readonly string[]; onChange: (v: string[]) => void }) {
  if (info.options?.length) {
    return (
      <Field label="Values">
        <Dropdown multiselect value={values.join(', ')} selectedOptions={[...values]} onOptionSelect={(_e, d) => onChange(d.selectedOptions)}>
          {info.options.map((o) => (
            <Option key={o}>{o}</Option>
          ))}
        </Dropdown>
      </Field>
    );
  }
  return (
    <Field label="Values" hint="Separate values with commas">
      <Input
        value={values.join(', ')}
        onChange={(_e, d) =>
          onChange(
            d.value
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean),
          )
        }
      />
    </Field>
  );
}

function ValueEditor({ label, info, value, onChange }: { label: string; info: FieldInfo; value: ChipValue | null | undefined; onChange: (v: ChipValue) => void }) {
  const s = useStyles();
  switch (info.kind) {
    case 'money':
      return (
        <Field
          label={`${label} (USD)`}
          validationState={typeof value?.number === 'number' && moneyProblem(value.number, 'money') ? 'error' : 'none'}
          validationMessage={typeof value?.number === 'number' ? (moneyProblem(value.number, 'money') ?? undefined) : undefined}
        >
          <Input
            type="number"
            min={0}
            value={typeof value?.number === 'number' ? String(value.number) : ''}
            onChange={(_e, d) => onChange({ number: d.value === '' ? null : Number(d.value) })}
          />
        </Field>
      );
    case 'boolean':
      return (
        <Field label={label}>
          <Dropdown value={value?.boolean === false ? 'No' : 'Yes'} selectedOptions={[value?.boolean === false ? 'no' : 'yes']} onOptionSelect={(_e, d) => onChange({ boolean: d.optionValue === 'yes' })}>
            <Option value="yes">Yes</Option>
            <Option value="no">No</Option>
          </Dropdown>
        </Field>
      );
    case 'date':
      return <DateEditor label={label} value={value?.date ?? null} onChange={(date) => onChange({ date })} />;
    default:
      if (info.options?.length) {
        return (
          <Field label={label}>
            <Dropdown value={value?.text ?? ''} selectedOptions={value?.text ? [value.text] : []} onOptionSelect={(_e, d) => onChange({ text: d.optionValue ?? '' })}>
              {info.options.map((o) => (
                <Option key={o}>{o}</Option>
              ))}
            </Dropdown>
          </Field>
        );
      }
      return (
        <div className={s.row}>
          <Field label={label}>
            <Input value={value?.text ?? ''} onChange={(_e, d) => onChange({ text: d.value })} />
          </Field>
        </div>
      );
  }
}

function DateEditor({ label, value, onChange }: { label: string; value: ChipDate | null; onChange: (d: ChipDate) => void }) {
  const s = useStyles();
  const kind = value?.kind === 'absolute' ? 'absolute' : value?.kind === 'anchor' ? 'anchor' : 'relative';
  return (
    <div className={s.row}>
      <Field label={label}>
        <Dropdown
          value={kind === 'absolute' ? 'A date' : kind === 'anchor' ? 'Start of a period' : 'Time ago'}
          selectedOptions={[kind]}
          onOptionSelect={(_e, d) => {
            if (d.optionValue === 'absolute') onChange({ kind: 'absolute', date: new Date().toISOString().slice(0, 10) });
            else if (d.optionValue === 'anchor') onChange({ kind: 'anchor', unit: 'month', offset: 0 });
            else onChange({ kind: 'relative', amount: 30, unit: 'day', direction: 'past' });
          }}
        >
          <Option value="relative">Time ago</Option>
          <Option value="absolute">A date</Option>
          <Option value="anchor">Start of a period</Option>
        </Dropdown>
      </Field>
      {kind === 'absolute' && (
        <Field label="Date">
          <Input type="date" value={value?.date ?? ''} onChange={(_e, d) => onChange({ kind: 'absolute', date: d.value })} />
        </Field>
      )}
      {kind === 'relative' && (
        <>
          <Field label="Amount">
            <Input type="number" min={0} value={String(value?.amount ?? 30)} onChange={(_e, d) => onChange({ ...(value as ChipDate), kind: 'relative', amount: Math.max(0, Math.round(Number(d.value) || 0)), direction: value?.direction ?? 'past' })} />
          </Field>
          <Field label="Unit">
            <Dropdown value={`${value?.unit ?? 'day'}s ago`} selectedOptions={[value?.unit ?? 'day']} onOptionSelect={(_e, d) => onChange({ ...(value as ChipDate), kind: 'relative', unit: d.optionValue as ChipDate['unit'], direction: value?.direction ?? 'past' })}>
              {UNITS.map((u) => (
                <Option key={u} value={u}>{`${u}s ago`}</Option>
              ))}
            </Dropdown>
          </Field>
        </>
      )}
      {kind === 'anchor' && (
        <Field label="Period">
          <Dropdown
            value={`${value?.offset === -1 ? 'last' : 'this'} ${value?.unit ?? 'month'}`}
            selectedOptions={[`${value?.offset ?? 0}:${value?.unit ?? 'month'}`]}
            onOptionSelect={(_e, d) => {
              const [offset, unit] = (d.optionValue ?? '0:month').split(':');
              onChange({ kind: 'anchor', offset: Number(offset), unit: unit as ChipDate['unit'] });
            }}
          >
            {UNITS.flatMap((u) => [
              <Option key={`0:${u}`} value={`0:${u}`}>{`this ${u}`}</Option>,
              <Option key={`-1:${u}`} value={`-1:${u}`}>{`last ${u}`}</Option>,
            ])}
          </Dropdown>
        </Field>
      )}
    </div>
  );
}
