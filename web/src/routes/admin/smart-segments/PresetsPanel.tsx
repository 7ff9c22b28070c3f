// Presets sub-tab (spec §2, §5, §8): category filter, the table of presets, "Create Preset" (the
// description is the natural-language criteria, read by the server's question parser as the admin types:
// checkPresetDescription, 300 ms after the last keystroke, stale answers ignored — what was understood, or
// why the daily generation could not run it, which creating the preset refuses) and delete with confirmation.
import {
  Field,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Textarea,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { graphql, useFragment, useRelayEnvironment } from 'react-relay';
import { fetchQuery, type Subscription } from 'relay-runtime';
import type { PresetsPanel_presets$key } from '../../../__generated__/PresetsPanel_presets.graphql';
import type { PresetsPanelCheckQuery } from '../../../__generated__/PresetsPanelCheckQuery.graphql';
import { fieldErrors, messageOf } from '../../../lib/errors';
import { mutate } from '../../../lib/mutate';
import { useNotify } from '../../../lib/toasts';
import { useCreateSmartSegmentPresetMutation } from '../../../mutations/CreateSmartSegmentPresetMutation';
import { useDeleteSmartSegmentPresetMutation } from '../../../mutations/DeleteSmartSegmentPresetMutation';
import {
  ALL,
  ActiveBadge,
  CategoryFilter,
  CategorySelect,
  ContentPanel,
  CreateDialog,
  DeleteButton,
  fieldProps,
  parseSortOrder,
  useConfirmedDelete,
  useCreateDialog,
  useStyles,
  type CategoryOption,
  type FormErrors,
} from './shared';

const CRITERIA_MAX = 500;
const CHECK_DELAY_MS = 300;

const CHECK = graphql`
  query PresetsPanelCheckQuery($description: String!) {
    checkPresetDescription(description: $description) {
      valid
      message
      understood
      notes
    }
  }
`;

interface DescriptionCheck {
  /** The (trimmed) description this answer is about. */
  description: string;
  valid: boolean;
  message: string | null | undefined;
  understood: string | null | undefined;
  notes: readonly string[];
}

/** The parser's reading of the criteria, 300 ms after the last change; answers about older text are dropped. */
function useDescriptionCheck(description: string): DescriptionCheck | null {
  const environment = useRelayEnvironment();
  const [check, setCheck] = useState<DescriptionCheck | null>(null);
  const text = description.trim();
  useEffect(() => {
    if (!text) return;
    let subscription: Subscription | null = null;
    const timer = setTimeout(() => {
      subscription = fetchQuery<PresetsPanelCheckQuery>(environment, CHECK, { description: text }, { fetchPolicy: 'network-only' }).subscribe({
        next: (data) => setCheck({ description: text, ...data.checkPresetDescription }),
        error: () => {},
      });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      subscription?.unsubscribe();
    };
  }, [environment, text]);
  return check && check.description === text ? check : null;
}

export function PresetsPanel(props: {
  presets: PresetsPanel_presets$key;
  categories: readonly CategoryOption[];
  filter: string;
  onFilter: (value: string) => void;
  pending: boolean;
}) {
  const s = useStyles();
  const presets = useFragment(
    graphql`
      fragment PresetsPanel_presets on SmartSegmentPreset @relay(plural: true) {
        id
        name
        description
        isActive
        sortOrder
        category {
          id
          displayName
        }
      }
    `,
    props.presets,
  );
  const create = useCreateDialog();
  const [remove, removing] = useDeleteSmartSegmentPresetMutation();
  const del = useConfirmedDelete({
    entity: 'preset',
    question: 'Are you sure you want to delete this preset?',
    remove: (id) => mutate(remove, { variables: { input: { id } } }),
    onDeleted: () => {}, // the payload took it out of the lists in the store
  });

  const table = (
    <Table aria-label="Presets" size="small" className={s.table}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Name</TableHeaderCell>
          <TableHeaderCell>Category</TableHeaderCell>
          <TableHeaderCell>Description</TableHeaderCell>
          <TableHeaderCell className={s.narrow}>Status</TableHeaderCell>
          <TableHeaderCell className={s.narrow}>Sort Order</TableHeaderCell>
          <TableHeaderCell className={s.actions}>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {presets.map((p) => (
          <TableRow key={p.id}>
            <TableCell className={s.cell}>{p.name}</TableCell>
            <TableCell className={s.cell}>{p.category.displayName}</TableCell>
            <TableCell className={s.cell}>{p.description}</TableCell>
            <TableCell>
              <ActiveBadge active={p.isActive} />
            </TableCell>
            <TableCell>{p.sortOrder}</TableCell>
            <TableCell>
              <DeleteButton label={`Delete preset ${p.name}`} disabled={removing} onClick={() => del.ask({ id: p.id, name: p.name })} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  return (
    <ContentPanel
      start={<CategoryFilter categories={props.categories} value={props.filter} onChange={props.onFilter} />}
      createLabel="Create Preset"
      onCreate={create.start}
      pending={props.pending}
      empty="No presets found. Create your first preset to get started."
      hasRows={presets.length > 0}
      table={table}
    >
      <CreatePresetDialog
        key={create.key}
        open={create.open}
        categories={props.categories}
        initialCategory={props.filter === ALL ? '' : props.filter}
        onClose={create.close}
      />
      {del.dialog}
    </ContentPanel>
  );
}

function CreatePresetDialog(props: {
  open: boolean;
  categories: readonly CategoryOption[];
  initialCategory: string;
  onClose: () => void;
}) {
  const notify = useNotify();
  const [create, busy] = useCreateSmartSegmentPresetMutation();
  const [name, setName] = useState('');
  const [categoryId, setCategoryId] = useState(props.initialCategory);
  const [description, setDescription] = useState('');
  const [sortOrder, setSortOrder] = useState('0');
  const [errors, setErrors] = useState<FormErrors>({});
  const clear = (key: string) => setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  const check = useDescriptionCheck(description);

  async function submit() {
    const order = parseSortOrder(sortOrder);
    const found: FormErrors = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!categoryId) found.categoryId = 'Category is required';
    if (!description.trim()) found.description = 'Description is required';
    else if (check && !check.valid) found.description = check.message || 'The description cannot be run';
    if (order === null) found.sortOrder = 'Sort order must be a whole number';
    setErrors(found);
    if (Object.keys(found).length > 0 || order === null) return;
    try {
      const r = await mutate(create, {
        variables: { input: { name: name.trim(), categoryId, description: description.trim(), sortOrder: order, isActive: true } },
      });
      notify({ title: 'Preset created', body: r.createSmartSegmentPreset.preset?.name ?? name.trim(), intent: 'success' });
      props.onClose();
    } catch (err) {
      setErrors(fieldErrors(err));
      notify({ title: 'Failed to create preset', body: messageOf(err, '') || undefined, intent: 'error' });
    }
  }

  // The description field: a submit/server error first, else the parser's reading (what it understood, or why
  // it cannot run, with what it understood of it).
  const descriptionValidation = errors.description
    ? { validationState: 'error' as const, validationMessage: errors.description }
    : check
      ? check.valid
        ? { validationState: 'success' as const, validationMessage: [`Understood: ${check.understood ?? 'every contact'}.`, ...check.notes].join(' ') }
        : { validationState: 'error' as const, validationMessage: [check.message, check.understood ? `Understood so far: ${check.understood}.` : null].filter(Boolean).join(' ') }
      : {};

  return (
    <CreateDialog open={props.open} title="Create Preset" busy={busy} onClose={props.onClose} onSubmit={submit}>
      <Field label="Name" required {...fieldProps(errors, 'name')}>
        <Input
          value={name}
          maxLength={200}
          onChange={(_e, d) => {
            setName(d.value);
            clear('name');
          }}
        />
      </Field>
      <CategorySelect
        categories={props.categories}
        value={categoryId}
        error={errors.categoryId}
        onChange={(v) => {
          setCategoryId(v);
          clear('categoryId');
        }}
      />
      <Field
        label="Description"
        required
        hint={`The customers this segment finds, in plain language (${description.length}/${CRITERIA_MAX})`}
        {...descriptionValidation}
      >
        <Textarea
          value={description}
          maxLength={CRITERIA_MAX}
          resize="vertical"
          placeholder="High-value customers with recent activity"
          onChange={(_e, d) => {
            setDescription(d.value);
            clear('description');
          }}
        />
      </Field>
      <Field label="Sort Order" {...fieldProps(errors, 'sortOrder')}>
        <Input
          type="number"
          step={1}
          value={sortOrder}
          onChange={(_e, d) => {
            setSortOrder(d.value);
            clear('sortOrder');
          }}
        />
      </Field>
    </CreateDialog>
  );
}
