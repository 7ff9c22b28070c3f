// The Pricing tab of the Admin console (spec §2, §5, §8): the "Create New Pricing Tier" form and the
// "Existing Pricing Tiers" table, whose rows can be edited inline. The edit checks of spec §5 run
// before anything is sent (tier-validation.ts); the list is read again after each change.
import {
  Badge,
  Button,
  Card,
  CardHeader,
  Field,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
  type InputProps,
} from '@fluentui/react-components';
import { Edit20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import { graphql, useLazyLoadQuery } from 'react-relay';
import type { PricingTabTiersQuery, PricingTabTiersQuery$data } from '../../__generated__/PricingTabTiersQuery.graphql';
import { fieldErrors, messageOf } from '../../lib/errors';
import { mutate } from '../../lib/mutate';
import { useNotify } from '../../lib/toasts';
import { useCreatePricingTierMutation } from '../../mutations/CreatePricingTierMutation';
import { useUpdatePricingTierMutation } from '../../mutations/UpdatePricingTierMutation';
import {
  tierCreateErrors,
  tierCreateInput,
  tierEditError,
  tierEditValues,
  type TierCreateDraft,
  type TierEditDraft,
  type TierField,
} from './tier-validation';

/** What the tab shows of a tier; the create and update payloads select the same, so rows update by id. */
export const TIER_FIELDS = graphql`
  fragment PricingTab_tier on PricingTier {
    id
    name
    displayName
    chatQueryLimit
    smartSegmentLimit
    priceMonthly
    priceYearly
    isActive
  }
`;

const QUERY = graphql`
  query PricingTabTiersQuery {
    pricingTiers {
      ...PricingTab_tier @relay(mask: false)
    }
  }
`;

type Tier = PricingTabTiersQuery$data['pricingTiers'][number];

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  formActions: { display: 'flex', justifyContent: 'flex-end', marginTop: tokens.spacingVerticalM },
  tableWrap: { overflowX: 'auto', minWidth: 0 },
  table: { minWidth: '760px' },
  nameCol: { width: '22%' },
  limitsCol: { width: '26%' },
  pricingCol: { width: '24%' },
  statusCol: { width: '11%' },
  actionsCol: { width: '17%' },
  cell: { paddingTop: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalS, verticalAlign: 'middle' },
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  cellInput: { width: '100%', minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalL, textAlign: 'center' },
});

export default function PricingTab() {
  const s = useStyles();
  const data = useLazyLoadQuery<PricingTabTiersQuery>(QUERY, {}, { fetchPolicy: 'store-and-network' });
  const [editingId, setEditingId] = useState<string | null>(null);
  const tiers = data.pricingTiers;

  return (
    <div className={s.root}>
      <CreateTierCard />
      <Card className={s.card}>
        <CardHeader
          header={
            <Text as="h2" size={500} weight="semibold" id="pricing-tiers-heading">
              Existing Pricing Tiers
            </Text>
          }
        />
        {tiers.length === 0 ? (
          <Text as="p" className={s.empty}>
            No pricing tiers found
          </Text>
        ) : (
          <div className={s.tableWrap}>
            <Table aria-label="Existing Pricing Tiers" className={s.table}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell className={s.nameCol}>Name</TableHeaderCell>
                  <TableHeaderCell className={s.limitsCol}>Limits</TableHeaderCell>
                  <TableHeaderCell className={s.pricingCol}>Pricing</TableHeaderCell>
                  <TableHeaderCell className={s.statusCol}>Status</TableHeaderCell>
                  <TableHeaderCell className={s.actionsCol}>Actions</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {tiers.map((tier) => (
                  <TierRow
                    key={tier.id}
                    tier={tier}
                    editing={editingId === tier.id}
                    onEdit={() => setEditingId(tier.id)}
                    onDone={() => setEditingId(null)}
                  />
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </Card>
    </div>
  );
}

const EMPTY_DRAFT: TierCreateDraft = { name: '', displayName: '', chatQueryLimit: '', smartSegmentLimit: '', priceMonthly: '', priceYearly: '' };

const CREATE_FIELDS: { field: TierField; label: string; type: InputProps['type']; step?: string; placeholder?: string }[] = [
  { field: 'name', label: 'Name', type: 'text', placeholder: 'free, pro, enterprise' },
  { field: 'displayName', label: 'Display Name', type: 'text' },
  { field: 'chatQueryLimit', label: 'Chat Query Limit (Daily)', type: 'number', step: '1' },
  { field: 'smartSegmentLimit', label: 'Smart Segment Limit (Daily)', type: 'number', step: '1' },
  { field: 'priceMonthly', label: 'Monthly Price ($)', type: 'number', step: '0.01' },
  { field: 'priceYearly', label: 'Yearly Price ($)', type: 'number', step: '0.01' },
];

/** A created tier joins the table through its payload (CreatePricingTierMutation's updater). */
function CreateTierCard() {
  const s = useStyles();
  const notify = useNotify();
  const [create, creating] = useCreatePricingTierMutation();
  const [draft, setDraft] = useState<TierCreateDraft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<Partial<Record<TierField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const focusFirstError = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus());

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (creating) return;
    const problems = tierCreateErrors(draft);
    setErrors(problems);
    if (Object.keys(problems).length) {
      focusFirstError();
      return;
    }
    try {
      await mutate(create, { variables: { input: tierCreateInput(draft) } });
      notify({ title: 'Pricing tier created successfully', body: draft.displayName.trim(), intent: 'success' });
      setDraft(EMPTY_DRAFT);
      setErrors({});
    } catch (err) {
      const message = messageOf(err, '');
      notify({ title: 'Failed to create pricing tier', body: message || undefined, intent: 'error' });
      const known = Object.fromEntries(Object.entries(fieldErrors(err)).filter(([k]) => k in EMPTY_DRAFT)) as Partial<Record<TierField, string>>;
      setErrors(known);
      if (Object.keys(known).length) focusFirstError();
    }
  }

  const change = (field: TierField, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  return (
    <Card className={s.card}>
      <CardHeader
        header={
          <Text as="h2" size={500} weight="semibold">
            Create New Pricing Tier
          </Text>
        }
      />
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Create New Pricing Tier">
        <div className={s.grid}>
          {CREATE_FIELDS.map(({ field, label, type, step, placeholder }) => (
            <Field key={field} label={label} required validationMessage={errors[field]} validationState={errors[field] ? 'error' : 'none'}>
              <Input
                name={field}
                type={type}
                min={type === 'number' ? 0 : undefined}
                step={step}
                placeholder={placeholder}
                value={draft[field]}
                onChange={(_e, d) => change(field, d.value)}
                maxLength={type === 'text' ? (field === 'name' ? 50 : 100) : undefined}
              />
            </Field>
          ))}
        </div>
        <div className={s.formActions}>
          <Button appearance="primary" type="submit" disabled={creating}>
            {creating ? 'Creating...' : 'Create Tier'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

const draftOf = (t: Tier): TierEditDraft => ({
  displayName: t.displayName,
  chatQueryLimit: String(t.chatQueryLimit),
  smartSegmentLimit: String(t.smartSegmentLimit),
  priceMonthly: t.priceMonthly,
  priceYearly: t.priceYearly,
});

/** A saved tier's payload carries the tier: the row follows the store. */
function TierRow({ tier, editing, onEdit, onDone }: { tier: Tier; editing: boolean; onEdit: () => void; onDone: () => void }) {
  const s = useStyles();
  const notify = useNotify();
  const [update, saving] = useUpdatePricingTierMutation();
  const [draft, setDraft] = useState<TierEditDraft>(() => draftOf(tier));
  const editButton = useRef<HTMLButtonElement>(null);
  const displayInput = useRef<HTMLInputElement>(null);
  const focusEdit = useRef(false);
  const wasEditing = useRef(editing);

  // Focus follows the edit: into the first input when it starts, back to Edit after Save or Cancel.
  useEffect(() => {
    if (editing && !wasEditing.current) displayInput.current?.focus();
    if (!editing && focusEdit.current) editButton.current?.focus();
    focusEdit.current = false;
    wasEditing.current = editing;
  }, [editing]);

  function startEdit() {
    setDraft(draftOf(tier));
    onEdit();
  }

  function finish() {
    focusEdit.current = true;
    onDone();
  }

  async function save() {
    if (saving) return;
    const problem = tierEditError(draft);
    if (problem) {
      notify({ title: 'Invalid Input', body: problem, intent: 'error' });
      return;
    }
    try {
      await mutate(update, { variables: { input: { id: tier.id, ...tierEditValues(draft) } } });
      notify({ title: 'Pricing tier updated successfully', body: tierEditValues(draft).displayName, intent: 'success' });
      finish();
    } catch (err) {
      notify({ title: 'Update Failed', body: messageOf(err, 'Failed to update pricing tier'), intent: 'error' });
    }
  }

  const input = (field: keyof TierEditDraft, label: string, extra: Partial<InputProps> & { ref?: Ref<HTMLInputElement> } = {}) => (
    <Input
      className={s.cellInput}
      size="small"
      aria-label={`${label} of ${tier.name}`}
      value={draft[field]}
      onChange={(_e, d) => setDraft((x) => ({ ...x, [field]: d.value }))}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void save();
        else if (e.key === 'Escape') finish();
      }}
      {...extra}
    />
  );
  const number = (step: string, before?: string, after?: string): Partial<InputProps> => ({
    type: 'number',
    min: 0,
    step,
    contentBefore: before ? <Text size={200}>{before}</Text> : undefined,
    contentAfter: after ? (
      <Text size={200} className={s.muted}>
        {after}
      </Text>
    ) : undefined,
  });

  return (
    <TableRow>
      <TableCell className={s.cell}>
        <div className={s.stack}>
          {editing ? input('displayName', 'Display name', { maxLength: 100, ref: displayInput }) : <Text weight="semibold">{tier.displayName}</Text>}
          <Text size={200} className={s.muted}>
            {tier.name}
          </Text>
        </div>
      </TableCell>
      <TableCell className={s.cell}>
        {editing ? (
          <div className={s.stack}>
            {input('chatQueryLimit', 'Chat query limit', number('1', undefined, 'chat/day'))}
            {input('smartSegmentLimit', 'Smart segment limit', number('1', undefined, 'segments/day'))}
          </div>
        ) : (
          `${tier.chatQueryLimit} chat / ${tier.smartSegmentLimit} segments per day`
        )}
      </TableCell>
      <TableCell className={s.cell}>
        {editing ? (
          <div className={s.stack}>
            {input('priceMonthly', 'Monthly price', number('0.01', '$', '/mo'))}
            {input('priceYearly', 'Yearly price', number('0.01', '$', '/yr'))}
          </div>
        ) : (
          `$${tier.priceMonthly}/mo · $${tier.priceYearly}/yr`
        )}
      </TableCell>
      <TableCell className={s.cell}>
        <Badge appearance="tint" color={tier.isActive ? 'success' : 'subtle'}>
          {tier.isActive ? 'Active' : 'Inactive'}
        </Badge>
      </TableCell>
      <TableCell className={s.cell}>
        {editing ? (
          <div className={s.actions}>
            <Button appearance="primary" size="small" onClick={save} disabled={saving}>
              {saving ? 'Saving...' : 'Save'}
            </Button>
            <Button size="small" onClick={finish} disabled={saving}>
              Cancel
            </Button>
          </div>
        ) : (
          <Button ref={editButton} size="small" icon={<Edit20Regular />} onClick={startEdit} aria-label={`Edit ${tier.name}`}>
            Edit
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
