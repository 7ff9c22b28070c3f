// Categories sub-tab (spec §2, §5, §8): the table of every category, "Create Category" and delete
// with confirmation. A category that still has presets is refused (CONFLICT): the server says why.
import {
  Checkbox,
  Field,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  mergeClasses,
} from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { CategoriesPanel_categories$key } from '../../../__generated__/CategoriesPanel_categories.graphql';
import { fieldErrors, messageOf } from '../../../lib/errors';
import { mutate } from '../../../lib/mutate';
import { useNotify } from '../../../lib/toasts';
import { useCreateSmartSegmentCategoryMutation } from '../../../mutations/CreateSmartSegmentCategoryMutation';
import { useDeleteSmartSegmentCategoryMutation } from '../../../mutations/DeleteSmartSegmentCategoryMutation';
import { ActiveBadge, ContentPanel, CreateDialog, DeleteButton, LockBadge, fieldProps, parseSortOrder, useConfirmedDelete, useCreateDialog, useStyles, type FormErrors } from './shared';

export function CategoriesPanel(props: {
  categories: CategoriesPanel_categories$key;
  onDeleted: (id: string) => void;
}) {
  const s = useStyles();
  const categories = useFragment(
    graphql`
      fragment CategoriesPanel_categories on SmartSegmentCategory @relay(plural: true) {
        id
        name
        displayName
        description
        isActive
        isLocked
        sortOrder
      }
    `,
    props.categories,
  );
  const create = useCreateDialog();
  const [remove, removing] = useDeleteSmartSegmentCategoryMutation();
  const del = useConfirmedDelete({
    entity: 'category',
    question: 'Are you sure you want to delete this category? This action cannot be undone.',
    remove: (id) => mutate(remove, { variables: { input: { id } } }),
    // the payload took it (and its formulas) out of the lists in the store
    onDeleted: (id) => props.onDeleted(id),
  });

  const table = (
    <Table aria-label="Categories" size="small" className={s.table}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Name</TableHeaderCell>
          <TableHeaderCell>Display Name</TableHeaderCell>
          <TableHeaderCell>Description</TableHeaderCell>
          <TableHeaderCell>Status</TableHeaderCell>
          <TableHeaderCell className={s.narrow}>Sort Order</TableHeaderCell>
          <TableHeaderCell className={s.actions}>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {categories.map((c) => (
          <TableRow key={c.id}>
            <TableCell className={s.mono}>{c.name}</TableCell>
            <TableCell className={s.cell}>{c.displayName}</TableCell>
            <TableCell className={mergeClasses(s.cell, !c.description && s.muted)}>{c.description || '-'}</TableCell>
            <TableCell>
              <div className={s.badges}>
                <ActiveBadge active={c.isActive} />
                <LockBadge locked={c.isLocked} />
              </div>
            </TableCell>
            <TableCell>{c.sortOrder}</TableCell>
            <TableCell>
              <DeleteButton label={`Delete category ${c.name}`} disabled={removing} onClick={() => del.ask({ id: c.id, name: c.displayName })} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  return (
    <ContentPanel
      start={
        <Text as="h3" size={400} weight="semibold">
          Categories
        </Text>
      }
      createLabel="Create Category"
      onCreate={create.start}
      empty="No categories found. Create your first category to get started."
      hasRows={categories.length > 0}
      table={table}
    >
      <CreateCategoryDialog key={create.key} open={create.open} onClose={create.close} />
      {del.dialog}
    </ContentPanel>
  );
}

function CreateCategoryDialog(props: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const [create, busy] = useCreateSmartSegmentCategoryMutation();
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const [sortOrder, setSortOrder] = useState('0');
  const [isLocked, setIsLocked] = useState(true);
  const [errors, setErrors] = useState<FormErrors>({});
  const clear = (key: string) => setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));

  async function submit() {
    const order = parseSortOrder(sortOrder);
    const found: FormErrors = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!displayName.trim()) found.displayName = 'Display name is required';
    if (order === null) found.sortOrder = 'Sort order must be a whole number';
    setErrors(found);
    if (Object.keys(found).length > 0 || order === null) return;
    try {
      const r = await mutate(create, {
        variables: {
          input: {
            name: name.trim(),
            displayName: displayName.trim(),
            description: description.trim() || null,
            isLocked,
            sortOrder: order,
            isActive: true,
          },
        },
      });
      notify({ title: 'Category created', body: r.createSmartSegmentCategory.category?.displayName ?? displayName.trim(), intent: 'success' });
      props.onClose();
    } catch (err) {
      setErrors(fieldErrors(err));
      notify({ title: 'Failed to create category', body: messageOf(err, '') || undefined, intent: 'error' });
    }
  }

  return (
    <CreateDialog open={props.open} title="Create Category" busy={busy} onClose={props.onClose} onSubmit={submit}>
      <Field label="Name" required hint="Lowercase slug, e.g. added-revenue" {...fieldProps(errors, 'name')}>
        <Input
          value={name}
          maxLength={50}
          placeholder="added-revenue"
          onChange={(_e, d) => {
            setName(d.value);
            clear('name');
          }}
        />
      </Field>
      <Field label="Display Name" required {...fieldProps(errors, 'displayName')}>
        <Input
          value={displayName}
          maxLength={100}
          placeholder="Added Revenue"
          onChange={(_e, d) => {
            setDisplayName(d.value);
            clear('displayName');
          }}
        />
      </Field>
      <Field label="Description" {...fieldProps(errors, 'description')}>
        <Input
          value={description}
          maxLength={500}
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
      <Field {...fieldProps(errors, 'isLocked')}>
        <Checkbox label="Locked (Premium)" checked={isLocked} onChange={(_e, d) => setIsLocked(d.checked === true)} />
      </Field>
    </CreateDialog>
  );
}
