// Impact Formulas sub-tab (spec §2, §5, §8): category filter, the table of formulas, "Create Formula"
// (the server checks the formula as the admin types: validateImpactFormula, 300 ms after the last
// keystroke, stale answers ignored) and delete with confirmation.
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
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { graphql, useFragment, useRelayEnvironment } from 'react-relay';
import { fetchQuery, type Subscription } from 'relay-runtime';
import type { FormulasPanel_formulas$key } from '../../../__generated__/FormulasPanel_formulas.graphql';
import type { FormulasPanelValidateQuery } from '../../../__generated__/FormulasPanelValidateQuery.graphql';
import { fieldErrors, messageOf } from '../../../lib/errors';
import { mutate } from '../../../lib/mutate';
import { useNotify } from '../../../lib/toasts';
import { useCreateImpactScoreFormulaMutation } from '../../../mutations/CreateImpactScoreFormulaMutation';
import { useDeleteImpactScoreFormulaMutation } from '../../../mutations/DeleteImpactScoreFormulaMutation';
import {
  ALL,
  ActiveBadge,
  CategoryFilter,
  CategorySelect,
  ContentPanel,
  CreateDialog,
  DeleteButton,
  fieldProps,
  useConfirmedDelete,
  useCreateDialog,
  useStyles,
  type CategoryOption,
  type FormErrors,
} from './shared';

const VALIDATE = graphql`
  query FormulasPanelValidateQuery($formula: String!) {
    validateImpactFormula(formula: $formula) {
      valid
      message
      variables
      availableVariables
    }
  }
`;

/** Spec §2; replaced by the server's list once it has answered. */
const DEFAULT_VARIABLES = ['customerCount', 'revenuePerCustomer', 'engagementRate', 'conversionRate', 'churnRisk', 'marketingCost'];
const EXAMPLE = 'customerCount * 0.3 + revenuePerCustomer * 0.7';
const CHECK_DELAY_MS = 300;

const useFormulaStyles = makeStyles({
  input: { fontFamily: tokens.fontFamilyMonospace },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  help: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
});

export function FormulasPanel(props: {
  formulas: FormulasPanel_formulas$key;
  categories: readonly CategoryOption[];
  filter: string;
  onFilter: (value: string) => void;
  pending: boolean;
}) {
  const s = useStyles();
  const formulas = useFragment(
    graphql`
      fragment FormulasPanel_formulas on ImpactScoreFormula @relay(plural: true) {
        id
        name
        formula
        isActive
        category {
          id
          displayName
        }
      }
    `,
    props.formulas,
  );
  const create = useCreateDialog();
  const [remove, removing] = useDeleteImpactScoreFormulaMutation();
  const del = useConfirmedDelete({
    entity: 'formula',
    question: 'Are you sure you want to delete this formula?',
    remove: (id) => mutate(remove, { variables: { input: { id } } }),
    onDeleted: () => {}, // the payload took it out of the lists in the store
  });

  const table = (
    <Table aria-label="Impact formulas" size="small" className={s.table}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Name</TableHeaderCell>
          <TableHeaderCell>Category</TableHeaderCell>
          <TableHeaderCell>Formula</TableHeaderCell>
          <TableHeaderCell className={s.narrow}>Status</TableHeaderCell>
          <TableHeaderCell className={s.actions}>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {formulas.map((f) => (
          <TableRow key={f.id}>
            <TableCell className={s.cell}>{f.name}</TableCell>
            <TableCell className={s.cell}>{f.category.displayName}</TableCell>
            <TableCell className={s.mono}>{f.formula}</TableCell>
            <TableCell>
              <ActiveBadge active={f.isActive} />
            </TableCell>
            <TableCell>
              <DeleteButton label={`Delete formula ${f.name}`} disabled={removing} onClick={() => del.ask({ id: f.id, name: f.name })} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  return (
    <ContentPanel
      start={<CategoryFilter categories={props.categories} value={props.filter} onChange={props.onFilter} />}
      createLabel="Create Formula"
      onCreate={create.start}
      pending={props.pending}
      empty="No formulas found. Create your first formula to get started."
      hasRows={formulas.length > 0}
      table={table}
    >
      <CreateFormulaDialog
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

interface FormulaCheck {
  /** The (trimmed) formula this answer is about. */
  formula: string;
  valid: boolean;
  message: string | null | undefined;
  variables: readonly string[];
}

/** The server's verdict on the formula, 300 ms after the last change; answers about older text are dropped. */
function useFormulaCheck(formula: string) {
  const environment = useRelayEnvironment();
  const [check, setCheck] = useState<FormulaCheck | null>(null);
  const [available, setAvailable] = useState<readonly string[]>(DEFAULT_VARIABLES);
  const text = formula.trim();
  useEffect(() => {
    if (!text) return;
    let subscription: Subscription | null = null;
    const timer = setTimeout(() => {
      subscription = fetchQuery<FormulasPanelValidateQuery>(environment, VALIDATE, { formula: text }, { fetchPolicy: 'network-only' }).subscribe({
        next: (data) => {
          const r = data.validateImpactFormula;
          setCheck({ formula: text, valid: r.valid, message: r.message, variables: r.variables });
          if (r.availableVariables.length > 0) setAvailable(r.availableVariables);
        },
        error: () => {},
      });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      subscription?.unsubscribe();
    };
  }, [environment, text]);
  // Only an answer about the text now in the field counts.
  return { check: check && check.formula === text ? check : null, available };
}

function CreateFormulaDialog(props: {
  open: boolean;
  categories: readonly CategoryOption[];
  initialCategory: string;
  onClose: () => void;
}) {
  const f = useFormulaStyles();
  const notify = useNotify();
  const [create, busy] = useCreateImpactScoreFormulaMutation();
  const [name, setName] = useState('');
  const [categoryId, setCategoryId] = useState(props.initialCategory);
  const [description, setDescription] = useState('');
  const [formula, setFormula] = useState('');
  const [isActive, setIsActive] = useState(false);
  const [errors, setErrors] = useState<FormErrors>({});
  const clear = (key: string) => setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  const { check, available } = useFormulaCheck(formula);

  async function submit() {
    const found: FormErrors = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!categoryId) found.categoryId = 'Category is required';
    if (!formula.trim()) found.formula = 'Formula is required';
    else if (check && !check.valid) found.formula = check.message || 'Invalid formula';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const r = await mutate(create, {
        variables: { input: { name: name.trim(), categoryId, description: description.trim() || null, formula: formula.trim(), isActive } },
      });
      notify({ title: 'Formula created', body: r.createImpactScoreFormula.formula?.name ?? name.trim(), intent: 'success' });
      props.onClose();
    } catch (err) {
      setErrors(fieldErrors(err));
      notify({ title: 'Failed to create formula', body: messageOf(err, '') || undefined, intent: 'error' });
    }
  }

  // The formula field: a submit/server error first, else the live check (error or "Uses: ...").
  const formulaValidation = errors.formula
    ? { validationState: 'error' as const, validationMessage: errors.formula }
    : check
      ? check.valid
        ? { validationState: 'success' as const, validationMessage: `Uses: ${check.variables.length ? check.variables.join(', ') : 'no variables'}` }
        : { validationState: 'error' as const, validationMessage: check.message || 'Invalid formula' }
      : {};

  return (
    <CreateDialog open={props.open} title="Create Formula" busy={busy} onClose={props.onClose} onSubmit={submit}>
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
      <Field
        label="Formula"
        required
        {...formulaValidation}
        hint={
          <span className={f.help}>
            <span>
              Available variables: <span className={f.code}>{available.join(', ')}</span>
            </span>
            <span>
              Example: <span className={f.code}>{EXAMPLE}</span>
            </span>
          </span>
        }
      >
        <Input
          className={f.input}
          value={formula}
          placeholder={EXAMPLE}
          spellCheck={false}
          autoComplete="off"
          onChange={(_e, d) => {
            setFormula(d.value);
            clear('formula');
          }}
        />
      </Field>
      <Field {...fieldProps(errors, 'isActive')}>
        <Checkbox label="Set as active formula for this category" checked={isActive} onChange={(_e, d) => setIsActive(d.checked === true)} />
      </Field>
    </CreateDialog>
  );
}
