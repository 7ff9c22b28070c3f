// The Segments screen (/segments, spec §2, §5, §8): "Segments", an input "Describe your segment..."
// with Add, the "Saved" list with its count, delete with confirmation, "No segments yet".
import {
  Badge,
  Button,
  Card,
  Field,
  Input,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Delete20Regular, Play20Regular } from '@fluentui/react-icons';
import { Suspense, useState, type FormEvent } from 'react';
import { graphql, loadQuery, useFragment, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import { useLoaderData, useNavigate } from 'react-router-dom';
import type { SavedSegmentItem_segment$key } from '../__generated__/SavedSegmentItem_segment.graphql';
import type { SegmentsPageQuery } from '../__generated__/SegmentsPageQuery.graphql';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingScreen } from '../components/LoadingScreen';
import { PageHeader } from '../components/PageHeader';
import { UserMenu } from '../components/UserMenu';
import { messageOf } from '../lib/errors';
import { formatCount, relativeTime } from '../lib/format';
import { mutate } from '../lib/mutate';
import { failureNotice, outcomeNotice } from '../lib/query-outcome';
import { useNotify } from '../lib/toasts';
import { useCreateSavedSegmentMutation } from '../mutations/CreateSavedSegmentMutation';
import { useDeleteSavedSegmentMutation } from '../mutations/DeleteSavedSegmentMutation';
import { useRunSavedSegmentMutation } from '../mutations/RunSavedSegmentMutation';
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
  itemText: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
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
  const connections = [data.savedSegments.__id];

  async function add(e: FormEvent) {
    e.preventDefault();
    const text = description.trim();
    if (!text) return;
    try {
      await mutate(create, {
        variables: { input: { description: text }, connections },
        updater: (store) => {
          const c = store.get(data.savedSegments.__id);
          if (c) c.setValue(((c.getValue('totalCount') as number) ?? 0) + 1, 'totalCount');
        },
      });
      setDescription('');
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
          <Button appearance="primary" type="submit" disabled={!description.trim() || creating}>
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
        description
        createdAt
        latestResult {
          customerCount
          hasError
          processedAt
        }
      }
    `,
    key,
  );
  const [confirming, setConfirming] = useState(false);
  const [remove, removing] = useDeleteSavedSegmentMutation();
  const [run, running] = useRunSavedSegmentMutation();

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
      notify({ title: 'Segment deleted', body: segment.description, intent: 'success' });
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

  const latest = segment.latestResult;
  return (
    <li>
      <Card className={s.item} orientation="horizontal">
        <div className={s.itemText}>
          <Text weight="semibold">{segment.description}</Text>
          <Text size={200} className={s.muted}>
            Saved {relativeTime(segment.createdAt)}
            {latest && !latest.hasError ? ` · ${formatCount(latest.customerCount)} customers (${relativeTime(latest.processedAt)})` : ''}
          </Text>
        </div>
        <Tooltip content="Run as a query" relationship="label" showDelay={700} hideDelay={300}>
          <Button appearance="subtle" icon={<Play20Regular />} onClick={doRun} disabled={running} />
        </Tooltip>
        <Tooltip content="Delete segment" relationship="label" showDelay={700} hideDelay={300}>
          <Button appearance="subtle" icon={<Delete20Regular />} onClick={() => setConfirming(true)} disabled={removing} />
        </Tooltip>
      </Card>
      <ConfirmDialog open={confirming} title="Delete segment" confirmLabel="Delete" danger onConfirm={doDelete} onCancel={() => setConfirming(false)}>
        Are you sure you want to delete this segment?
      </ConfirmDialog>
    </li>
  );
}

