// The Segments screen (/segments, spec §2, §5, §8): "Segments", an input "Describe your segment..."
// with Add, the "Saved" list with its count, delete with confirmation, "No segments yet". Each saved
// segment shows its latest customer count and when it was counted (a new one is counted when added;
// Count now counts it again), runs
// with one click (Run: the answer opens on the assistant screen), and is renamed or its description
// edited in a dialog (Edit; the server checks the description as it would run, errors on the field).
import {
  Badge,
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Text,
  Textarea,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwise20Regular, Delete20Regular, Edit20Regular, Play20Regular } from '@fluentui/react-icons';
import { Suspense, useState, type FormEvent } from 'react';
import { graphql, loadQuery, useFragment, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import { useLoaderData, useNavigate } from 'react-router-dom';
import type { SavedSegmentItem_segment$key } from '../__generated__/SavedSegmentItem_segment.graphql';
import type { SegmentsPageQuery } from '../__generated__/SegmentsPageQuery.graphql';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingScreen } from '../components/LoadingScreen';
import { PageHeader } from '../components/PageHeader';
import { UserMenu } from '../components/UserMenu';
import { fieldErrors, messageOf } from '../lib/errors';
import { formatCount, formatDate, relativeTime } from '../lib/format';
import { mutate } from '../lib/mutate';
import { failureNotice, outcomeNotice } from '../lib/query-outcome';
import { useNotify } from '../lib/toasts';
import { useCreateSavedSegmentMutation } from '../mutations/CreateSavedSegmentMutation';
import { useDeleteSavedSegmentMutation } from '../mutations/DeleteSavedSegmentMutation';
import { useProcessSavedSegmentMutation } from '../mutations/ProcessSavedSegmentMutation';
import { useRunSavedSegmentMutation } from '../mutations/RunSavedSegmentMutation';
import { useUpdateSavedSegmentMutation } from '../mutations/UpdateSavedSegmentMutation';
import { getEnvironment } from '../relay/environment';
import { requireSignedIn } from './auth-check';
import { useShell } from './SignedInLayout';

/** The saved-segments list in the store (other screens add to it). */
export const SAVED_SEGMENTS_CONNECTION_KEY = 'SegmentsPage_savedSegments';

const QUERY = graphql`
  query SegmentsPageQuery {
    savedSegments(first: 100) @connection(key: "SegmentsPage_savedSegments") {
      __id
      totalCount
      edges {
        node {
          id
          ...SavedSegmentItem_segment
        }
      }
    }
  }
`;

export async function loader() {
  await requireSignedIn();
  return loadQuery<SegmentsPageQuery>(getEnvironment(), QUERY, {}, { fetchPolicy: 'store-and-network' });
}

const useStyles = makeStyles({
  content: { maxWidth: '880px', width: '100%', margin: '0 auto', padding: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  add: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end' },
  grow: { flexGrow: 1 },
  savedHead: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, padding: tokens.spacingHorizontalM },
  itemText: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  wrap: { overflowWrap: 'anywhere' },
  itemActions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexShrink: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  failed: { color: tokens.colorPaletteRedForeground1 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalL, textAlign: 'center' },
});

export function SegmentsPage() {
  const [ref] = useQueryLoader<SegmentsPageQuery>(QUERY, useLoaderData() as PreloadedQuery<SegmentsPageQuery>);
  return ref ? (
    <Suspense fallback={<LoadingScreen />}>
      <Segments queryRef={ref} />
    </Suspense>
  ) : (
    <LoadingScreen />
  );
}

function Segments({ queryRef }: { queryRef: PreloadedQuery<SegmentsPageQuery> }) {
  const s = useStyles();
  const shell = useShell();
  const notify = useNotify();
  const data = usePreloadedQuery<SegmentsPageQuery>(QUERY, queryRef);
  const [description, setDescription] = useState('');
  const [create, creating] = useCreateSavedSegmentMutation();
  const [count, counting] = useProcessSavedSegmentMutation();
  const connections = [data.savedSegments.__id];

  async function add(e: FormEvent) {
    e.preventDefault();
    const text = description.trim();
    if (!text) return;
    try {
      const r = await mutate(create, {
        variables: { input: { description: text }, connections },
        updater: (store) => {
          const c = store.get(data.savedSegments.__id);
          if (c) c.setValue(((c.getValue('totalCount') as number) ?? 0) + 1, 'totalCount');
        },
      });
      setDescription('');
      // A new segment is counted at once, so it shows its customers (or why they cannot be counted).
      const created = r.createSavedSegment.savedSegment;
      if (created) await mutate(count, { variables: { input: { id: created.id } } }).catch(() => undefined);
      notify({ title: 'Segment created', body: text, intent: 'success' });
    } catch (err) {
      notify({ title: 'Error creating segment', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  return (
    <>
      <PageHeader title="Segments" menu={<UserMenu viewer={shell.data.viewer!} connection={shell.data.crmConnection} onOpenCrm={shell.openCrm} />} />
      <div className={s.content}>
        <form className={s.add} onSubmit={add}>
          <Field label="New segment" className={s.grow}>
            <Input placeholder="Describe your segment..." value={description} onChange={(_e, d) => setDescription(d.value)} maxLength={500} />
          </Field>
          <Button appearance="primary" type="submit" disabled={!description.trim() || creating || counting}>
            Add
          </Button>
        </form>
        <section aria-labelledby="saved-heading">
          <div className={s.savedHead}>
            <Text as="h2" size={500} weight="semibold" id="saved-heading">
              Saved
            </Text>
            <Badge appearance="tint" aria-label={`${data.savedSegments.totalCount} saved segments`}>
              {data.savedSegments.totalCount}
            </Badge>
          </div>
          {data.savedSegments.edges.length === 0 ? (
            <Text as="p" className={s.empty}>
              No segments yet
            </Text>
          ) : (
            <ul className={s.list}>
              {data.savedSegments.edges.map((e) => (
                <SavedSegmentItem key={e.node.id} segment={e.node} connectionId={data.savedSegments.__id} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function SavedSegmentItem({ segment: key, connectionId }: { segment: SavedSegmentItem_segment$key; connectionId: string }) {
  const s = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const segment = useFragment(
    graphql`
      fragment SavedSegmentItem_segment on SavedSegment {
        id
        name
        description
        createdAt
        latestResult {
          customerCount
          hasError
          errorMessage
          processedAt
        }
      }
    `,
    key,
  );
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [remove, removing] = useDeleteSavedSegmentMutation();
  const [run, running] = useRunSavedSegmentMutation();
  const [count, counting] = useProcessSavedSegmentMutation();
  const title = segment.name ?? segment.description;

  async function doDelete() {
    setConfirming(false);
    try {
      await mutate(remove, {
        variables: { input: { id: segment.id }, connections: [connectionId] },
        updater: (store) => {
          const c = store.get(connectionId);
          if (c) c.setValue(Math.max(0, ((c.getValue('totalCount') as number) ?? 1) - 1), 'totalCount');
        },
      });
      notify({ title: 'Segment deleted', body: title, intent: 'success' });
    } catch (err) {
      notify({ title: 'Error deleting segment', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  async function doRun() {
    try {
      const r = await mutate(run, { variables: { input: { id: segment.id } } });
      notify(outcomeNotice('run', r.runSavedSegment));
      // a saved segment always runs (it is a segment, not a question), so it always has a stored query
      if (r.runSavedSegment.query) navigate(`/?query=${encodeURIComponent(r.runSavedSegment.query.id)}`);
    } catch (err) {
      notify(failureNotice('run', err));
    }
  }

  async function doCount() {
    try {
      await mutate(count, { variables: { input: { id: segment.id } } });
    } catch (err) {
      notify({ title: 'Error counting segment', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  const latest = segment.latestResult;
  return (
    <li>
      <Card className={s.item} orientation="horizontal">
        <div className={s.itemText}>
          <Text weight="semibold" className={s.wrap}>
            {title}
          </Text>
          {segment.name && (
            <Text size={200} className={s.wrap}>
              {segment.description}
            </Text>
          )}
          <Text size={200} className={s.muted}>
            {!latest ? (
              'Not counted yet'
            ) : latest.hasError ? (
              <span className={s.failed}>Could not be counted: {latest.errorMessage ?? 'unknown error'}</span>
            ) : (
              <span title={`Counted ${formatDate(latest.processedAt)}`}>
                {formatCount(latest.customerCount)} {latest.customerCount === 1 ? 'customer' : 'customers'} · counted {relativeTime(latest.processedAt)}
              </span>
            )}
            {` · saved ${relativeTime(segment.createdAt)}`}
          </Text>
        </div>
        <div className={s.itemActions}>
          <Tooltip content="Ask this segment on the assistant screen (uses one query)" relationship="description" showDelay={700} hideDelay={300}>
            <Button icon={<Play20Regular />} onClick={doRun} disabled={running}>
              {running ? 'Running...' : 'Run'}
            </Button>
          </Tooltip>
          <Tooltip content="Count now" relationship="label" showDelay={700} hideDelay={300}>
            <Button appearance="subtle" icon={<ArrowClockwise20Regular />} onClick={doCount} disabled={counting} />
          </Tooltip>
          <Tooltip content="Rename or edit segment" relationship="label" showDelay={700} hideDelay={300}>
            <Button appearance="subtle" icon={<Edit20Regular />} onClick={() => setEditing(true)} />
          </Tooltip>
          <Tooltip content="Delete segment" relationship="label" showDelay={700} hideDelay={300}>
            <Button appearance="subtle" icon={<Delete20Regular />} onClick={() => setConfirming(true)} disabled={removing} />
          </Tooltip>
        </div>
      </Card>
      <ConfirmDialog open={confirming} title="Delete segment" confirmLabel="Delete" danger onConfirm={doDelete} onCancel={() => setConfirming(false)}>
        Are you sure you want to delete this segment?
      </ConfirmDialog>
      {editing && <EditSegmentDialog id={segment.id} name={segment.name ?? null} description={segment.description} onClose={() => setEditing(false)} />}
    </li>
  );
}

/** Rename and edit: the name (blank shows the description) and the description, checked by the server. */
function EditSegmentDialog(props: { id: string; name: string | null; description: string; onClose: () => void }) {
  const s = useStyles();
  const notify = useNotify();
  const [name, setName] = useState(props.name ?? '');
  const [description, setDescription] = useState(props.description);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [update, saving] = useUpdateSavedSegmentMutation();
  const fieldProps = (key: string) => (errors[key] ? { validationMessage: errors[key], validationState: 'error' as const } : {});

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const text = description.trim();
    if (!text) {
      setErrors({ description: 'Please describe the segment' });
      return;
    }
    const changes = {
      ...(name.trim() !== (props.name ?? '') ? { name: name.trim() } : {}),
      ...(text !== props.description ? { description: text } : {}),
    };
    if (!Object.keys(changes).length) return props.onClose();
    try {
      await mutate(update, { variables: { input: { id: props.id, ...changes } } });
      notify({ title: 'Segment updated', body: name.trim() || text, intent: 'success' });
      props.onClose();
    } catch (err) {
      const found = fieldErrors(err);
      setErrors(found);
      if (!Object.keys(found).length) notify({ title: 'Error updating segment', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  return (
    <Dialog open onOpenChange={(_e, d) => !d.open && !saving && props.onClose()}>
      <DialogSurface>
        <form onSubmit={save} noValidate>
          <DialogBody>
            <DialogTitle>Edit segment</DialogTitle>
            <DialogContent className={s.form}>
              <Field label="Name" hint="Leave empty to show the description" {...fieldProps('name')}>
                <Input
                  value={name}
                  maxLength={100}
                  placeholder={props.description}
                  onChange={(_e, d) => {
                    setName(d.value);
                    setErrors(({ name: _n, ...rest }) => rest);
                  }}
                />
              </Field>
              <Field label="Description" required hint="What the segment asks; it is counted again when it changes" {...fieldProps('description')}>
                <Textarea
                  value={description}
                  maxLength={500}
                  resize="vertical"
                  onChange={(_e, d) => {
                    setDescription(d.value);
                    setErrors(({ description: _d, ...rest }) => rest);
                  }}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button onClick={props.onClose} disabled={saving}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={saving}>
                {saving ? 'Saving...' : 'Save'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
