// Presets sub-tab (spec §2, §5, §8): category filter, the table of presets, "Create Preset" (the
// description is the natural-language criteria) and delete with confirmation.
import {
  Button,
  Field,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Textarea,
  mergeClasses,
} from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { PresetsPanel_presets$key } from '../../../__generated__/PresetsPanel_presets.graphql';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
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
  CreateDialog,
  DeleteButton,
  fieldProps,
  parseSortOrder,
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
  onChanged: () => Promise<void>;
}) {
  const s = useStyles();
  const notify = useNotify();
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
  const [creating, setCreating] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [confirm, setConfirm] = useState<{ id: string; name: string } | null>(null);
  const [remove, removing] = useDeleteSmartSegmentPresetMutation();

  async function doDelete() {
    const target = confirm;
    setConfirm(null);
    if (!target) return;
    try {
      await mutate(remove, { variables: { input: { id: target.id } } });
      notify({ title: 'Preset deleted', body: target.name, intent: 'success' });
      await props.onChanged();
    } catch (err) {
      notify({ title: 'Failed to delete preset', body: messageOf(err, '') || undefined, intent: 'error' });
    }
  }

  return (
    <div className={s.panel}>
      <div className={s.toolbar}>
        <CategoryFilter categories={props.categories} value={props.filter} onChange={props.onFilter} />
        <Button
          appearance="primary"
          icon={<Add20Regular />}
          onClick={() => {
            setFormKey((k) => k + 1);
            setCreating(true);
          }}
        >
          Create Preset
        </Button>
      </div>
      <div className={mergeClasses(s.tableWrap, props.pending && s.pending)} aria-busy={props.pending}>
        {presets.length === 0 ? (
          <p className={s.empty}>No presets found. Create your first preset to get started.</p>
        ) : (
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
                    <DeleteButton label={`Delete preset ${p.name}`} disabled={removing} onClick={() => setConfirm({ id: p.id, name: p.name })} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
      <CreatePresetDialog
        key={formKey}
        open={creating}
        categories={props.categories}
        initialCategory={props.filter === ALL ? '' : props.filter}
        onClose={() => setCreating(false)}
        onCreated={props.onChanged}
      />
      <ConfirmDialog open={confirm !== null} title="Delete preset" confirmLabel="Delete" onConfirm={doDelete} onCancel={() => setConfirm(null)}>
        Are you sure you want to delete this preset?
      </ConfirmDialog>
    </div>
  );
}

function CreatePresetDialog(props: {
  open: boolean;
  categories: readonly CategoryOption[];
  initialCategory: string;
  onClose: () => void;
  onCreated: () => Promise<void>;
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
      await props.onCreated();
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
