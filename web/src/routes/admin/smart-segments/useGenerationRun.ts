// The Smart Segments tab's view of generation runs: live progress of any run (this one, another
// administrator's, the scheduled one) from `generationProgress`, and the end of a run this screen
// queued on the job workers — announced by its last event, or read every 5 s while the websocket
// is down (events sent meanwhile are gone).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { graphql, useRelayEnvironment, useSubscription } from 'react-relay';
import { fetchQuery, type GraphQLSubscriptionConfig } from 'relay-runtime';
import { runFollower } from '../../../../../client/generation-progress.js';
import type { useGenerationRunProgressSubscription } from '../../../__generated__/useGenerationRunProgressSubscription.graphql';
import type { useGenerationRunQuery } from '../../../__generated__/useGenerationRunQuery.graphql';
import { useLiveConnection } from '../../../lib/connection-state';

const PROGRESS_SUBSCRIPTION = graphql`
  subscription useGenerationRunProgressSubscription {
    generationProgress {
      ...useGenerationRun_progress @relay(mask: false)
    }
  }
`;

const RUN_QUERY = graphql`
  query useGenerationRunQuery($id: ID!) {
    generationRun(id: $id) {
      ...useGenerationRun_progress @relay(mask: false)
    }
  }
`;

// The fields both operations above read (spread unmasked).
const _progressFields = graphql`
  fragment useGenerationRun_progress on GenerationProgress {
    runId
    users
    completedUsers
    totalSegments
    successCount
    failedCount
    done
  }
`;

export type Progress = useGenerationRunProgressSubscription['response']['generationProgress'];

const POLL_MS = 5000;

export function useGenerationRun(onRunEnd: (last: Progress) => void) {
  const environment = useRelayEnvironment();
  const live = useLiveConnection();
  const follower = useMemo(() => runFollower<Progress>(), []);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [followed, setFollowed] = useState<string | null>(null);
  const onEnd = useRef(onRunEnd);
  onEnd.current = onRunEnd;

  const show = useCallback((next: Progress) => setProgress(follower.seen(next)), [follower]);
  const follow = useCallback(
    (runId: string) => {
      setFollowed(runId);
      void follower.follow(runId).then((last) => {
        setFollowed(null);
        onEnd.current(last);
      });
    },
    [follower],
  );

  const config = useMemo<GraphQLSubscriptionConfig<useGenerationRunProgressSubscription>>(
    () => ({ subscription: PROGRESS_SUBSCRIPTION, variables: {}, onNext: (r) => r && show(r.generationProgress), onError: () => {} }),
    [show],
  );
  useSubscription(config);

  useEffect(() => {
    if (!followed || live) return;
    const read = () =>
      fetchQuery<useGenerationRunQuery>(environment, RUN_QUERY, { id: followed }, { fetchPolicy: 'network-only' })
        .toPromise()
        .then((d) => d?.generationRun && show(d.generationRun))
        .catch(() => {}); // the next read tries again
    const timer = setInterval(read, POLL_MS);
    return () => clearInterval(timer);
  }, [followed, live, environment, show]);

  return {
    progress,
    /** A run of this screen is still going on the job workers. */
    following: followed !== null,
    follow,
    clear: useCallback(() => {
      follower.clear();
      setProgress(null);
    }, [follower]),
  };
}
