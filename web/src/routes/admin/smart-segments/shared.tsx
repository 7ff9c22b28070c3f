// Pieces shared by the three sub-tabs of the admin Smart Segments tab: styles, the category filter,
// status badges, the panel frame, the create dialog and delete with confirmation.
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Select,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { messageOf } from '../../../lib/errors';
import { useNotify } from '../../../lib/toasts';

export interface CategoryOption {
  readonly id: string;
  readonly displayName: string;
}

/** The filter's value for "All Categories" (select items never have an empty value, spec §5). */
export const ALL = 'all';

export const useStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  toolbar: { display: 'flex', alignItems: 'flex-end', justifyContent: 'space-between', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  filter: { minWidth: '200px', maxWidth: '320px' },
  tableWrap: { overflowX: 'auto', width: '100%', maxWidth: '100%' },
  pending: { opacity: 0.6 },
  table: { minWidth: '640px' },
  cell: { overflowWrap: 'break-word' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  narrow: { width: '96px' },
  actions: { width: '72px' },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalXL, textAlign: 'center', margin: 0 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  surface: { maxWidth: 'min(560px, calc(100vw - 32px))' },
});

export function CategoryFilter(props: { categories: readonly CategoryOption[]; value: string; onChange: (value: string) => void }) {
  const s = useStyles();
  return (
    <Field label="Category" className={s.filter}>
      <Select value={props.value} onChange={(_e, d) => props.onChange(d.value)}>
        <option value={ALL}>All Categories</option>
        {props.categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.displayName}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** The required category select of the create dialogs. */
export function CategorySelect(props: { categories: readonly CategoryOption[]; value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <Field label="Category" required validationMessage={props.error} validationState={props.error ? 'error' : 'none'}>
      <Select value={props.value} onChange={(_e, d) => props.onChange(d.value)}>
        <option value="" disabled>
          Select a category
        </option>
        {props.categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.displayName}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <Badge appearance="tint" color={active ? 'success' : 'subtle'}>
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}

export function LockBadge({ locked }: { locked: boolean }) {
  return (
    <Badge appearance="tint" color={locked ? 'warning' : 'brand'}>
      {locked ? 'Locked' : 'Free'}
    </Badge>
  );
}

export function DeleteButton(props: { label: string; onClick: () => void; disabled?: boolean }) {
  return <Button appearance="subtle" icon={<Delete20Regular />} aria-label={props.label} onClick={props.onClick} disabled={props.disabled} />;
}

/** A modal create form: title, fields, Cancel and the submit button ("Create" / "Creating..."). */
export function CreateDialog(props: {
  open: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const s = useStyles();
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!props.busy) props.onSubmit();
  }
  return (
    <Dialog open={props.open} onOpenChange={(_e, d) => !d.open && !props.busy && props.onClose()}>
      <DialogSurface className={s.surface}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{props.title}</DialogTitle>
            <DialogContent className={s.form}>{props.children}</DialogContent>
            <DialogActions>
              <Button onClick={props.onClose} disabled={props.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={props.busy}>
                {props.busy ? 'Creating...' : 'Create'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** Field errors of a create form: those of the client's checks, else the server's (fieldErrors()). */
export type FormErrors = Partial<Record<string, string>>;

export const fieldProps = (errors: FormErrors, key: string) =>
  errors[key] ? { validationMessage: errors[key], validationState: 'error' as const } : {};

/** Parses the sort order input: a whole number, 0 when blank; null when not a whole number. */
export function parseSortOrder(text: string): number | null {
  if (!text.trim()) return 0;
  const n = Number(text);
  return Number.isInteger(n) ? n : null;
}

/**
 * A sub-tab's frame: the toolbar (a heading or the category filter, and the create button), then the
 * table, or the empty text when there are no rows; dimmed while a new filter's rows load.
 */
export function ContentPanel(props: {
  start: ReactNode;
  createLabel: string;
  onCreate: () => void;
  pending?: boolean;
  /** The empty state's text, shown instead of the table when there are no rows. */
  empty: string;
  hasRows: boolean;
  table: ReactNode;
  children?: ReactNode;
}) {
  const s = useStyles();
  return (
    <div className={s.panel}>
      <div className={s.toolbar}>
        {props.start}
        <Button appearance="primary" icon={<Add20Regular />} onClick={props.onCreate}>
          {props.createLabel}
        </Button>
      </div>
      <div className={mergeClasses(s.tableWrap, props.pending && s.pending)} aria-busy={props.pending}>
        {props.hasRows ? props.table : <p className={s.empty}>{props.empty}</p>}
      </div>
      {props.children}
    </div>
  );
}

/** Open state of a create dialog; each opening starts a fresh form (a new key). */
export function useCreateDialog() {
  const [state, setState] = useState({ open: false, key: 0 });
  return {
    open: state.open,
    key: state.key,
    start: () => setState((st) => ({ open: true, key: st.key + 1 })),
    close: () => setState((st) => ({ ...st, open: false })),
  };
}

/**
 * Delete with the spec's confirmation (§5), then "{Entity} deleted" or "Failed to delete {entity}"
 * with the server's reason (e.g. a category that still has presets), then the lists reload.
 */
export function useConfirmedDelete(opts: {
  entity: 'category' | 'preset' | 'formula';
  question: string;
  remove: (id: string) => Promise<unknown>;
  onDeleted: (id: string) => void | Promise<void>;
}) {
  const notify = useNotify();
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  const Entity = opts.entity[0]!.toUpperCase() + opts.entity.slice(1);
  async function confirmed() {
    const t = target;
    setTarget(null);
    if (!t) return;
    try {
      await opts.remove(t.id);
      notify({ title: `${Entity} deleted`, body: t.name, intent: 'success' });
      await opts.onDeleted(t.id);
    } catch (err) {
      notify({ title: `Failed to delete ${opts.entity}`, body: messageOf(err, '') || undefined, intent: 'error' });
    }
  }
  const dialog = (
    <ConfirmDialog open={target !== null} title={`Delete ${opts.entity}`} confirmLabel="Delete" danger onConfirm={confirmed} onCancel={() => setTarget(null)}>
      {opts.question}
    </ConfirmDialog>
  );
  return { ask: setTarget, dialog };
}
