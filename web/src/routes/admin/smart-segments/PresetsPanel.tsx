// Presets sub-tab (spec §2, §5, §8): category filter, the table of presets, "Create Preset" (the
// description is the natural-language criteria) and delete with confirmation.
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
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { PresetsPanel_presets$key } from '../../../__generated__/PresetsPanel_presets.graphql';
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

  async function submit() {
    const order = parseSortOrder(sortOrder);
    const found: FormErrors = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!categoryId) found.categoryId = 'Category is required';
    if (!description.trim()) found.description = 'Description is required';
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
        {...fieldProps(errors, 'description')}
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
