// The main assistant screen (/): header with the "{n} AI segments for you" link and the user menu;
// left, the query history, how the selected question was understood and its conversation; right,
// the customer results. The selected query is in the URL (?query=<id>).
import { Link as FluentLink, makeStyles, tokens } from '@fluentui/react-components';
import { Sparkle16Filled } from '@fluentui/react-icons';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { graphql, loadQuery, usePreloadedQuery, useQueryLoader, useSubscription, type PreloadedQuery } from 'react-relay';
import { Link, useLoaderData, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router-dom';
import type { MainPageQuery } from '../__generated__/MainPageQuery.graphql';
import type { MainPageStoredResultsSubscription } from '../__generated__/MainPageStoredResultsSubscription.graphql';
import type { RerunQueryMutation$variables } from '../__generated__/RerunQueryMutation.graphql';
import type { RunQueryMutation$variables } from '../__generated__/RunQueryMutation.graphql';
import { ChatPanel, type PendingClarification } from '../components/ChatPanel';
import type { ClarificationAnswer } from '../components/ClarificationCard';
import { HistoryPanel } from '../components/HistoryPanel';
import { LoadingScreen } from '../components/LoadingScreen';
import { PageHeader } from '../components/PageHeader';
import { ResultsPanel } from '../components/ResultsPanel';
import { UnderstoodPanel } from '../components/UnderstoodPanel';
import { UserMenu } from '../components/UserMenu';
import type { toSegmentInput } from '../components/segment-chips';
import { mutate } from '../lib/mutate';
import { failureNotice, notUnderstoodNotice, outcomeNotice } from '../lib/query-outcome';
import { useNotify } from '../lib/toasts';
import { useRerunQueryMutation } from '../mutations/RerunQueryMutation';
import { historyConnectionId, useRunQueryMutation } from '../mutations/RunQueryMutation';
import { getEnvironment } from '../relay/environment';
import { requireSignedIn } from './auth-check';
import { useShell } from './SignedInLayout';

type RerunQueryInput = RerunQueryMutation$variables['input'];
type RunQueryInput = RunQueryMutation$variables['input'];

const MAIN_PAGE_QUERY = graphql`
  query MainPageQuery($queryId: ID!, $hasQuery: Boolean!) {
    queryHistory(first: 50) @connection(key: "MainPage_queryHistory") {
      edges {
        node {
          id
          ...HistoryItem_query
        }
      }
    }
    selected: customerQuery(id: $queryId) @include(if: $hasQuery) {
      id
      naturalLanguage
      updatedAt
      resultsState
      ...ChatPanel_query
      ...UnderstoodPanel_query
      ...ResultsPanel_query
    }
    ...UnderstoodPanel_fields
    ...ChatPanel_fields
  }
`;

/** The screen is on display: selecting a query (?query=) reads the store, which every run and re-run keeps current. */
let mounted = false;

/** The query once the rest of its customers are stored (or the CRM failed meanwhile): into the store. */
const STORED_RESULTS = graphql`
  subscription MainPageStoredResultsSubscription($id: ID!) {
    customerQueryUpdated(id: $id) {
      id
      updatedAt
      resultsState
      resultCount
      hasError
      ...HistoryItem_query
      ...ChatPanel_query
      ...UnderstoodPanel_query
      ...ResultsPanel_query
    }
  }
`;

/**
 * Listens while a query's customers are being stored. The server answers at once when they already are,
 * so a subscription that was lost (the websocket was down) is simply made again a little later.
 */
function StoredResults({ id }: { id: string }) {
  const [attempt, setAttempt] = useState(0);
  const config = useMemo(
    () => ({ subscription: STORED_RESULTS, variables: { id }, onError: () => setTimeout(() => setAttempt((n) => n + 1), 3000) }),
    // a new attempt is a new subscription
    [id, attempt],
  );
  useSubscription<MainPageStoredResultsSubscription>(config);
  return null;
}

export async function mainPageLoader({ request }: LoaderFunctionArgs) {
  // Loaders of nested routes run in parallel with the frame's: check the session here too.
  await requireSignedIn();
  const id = new URL(request.url).searchParams.get('query');
  // Entering the screen reads the server (questions may have been asked elsewhere); a query selected on
  // it, or just run (its payload carried it), is shown from the store, fetched only when it is not there.
  return loadQuery<MainPageQuery>(getEnvironment(), MAIN_PAGE_QUERY, { queryId: id ?? '', hasQuery: Boolean(id) }, { fetchPolicy: mounted ? 'store-or-network' : 'store-and-network' });
}

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh' },
  body: { display: 'grid', gridTemplateColumns: 'minmax(300px, 36%) minmax(0, 1fr)', flexGrow: 1, minHeight: 0 },
  left: {
    display: 'flex',
    flexDirection: 'column',
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    minHeight: 0,
    overflowY: 'auto',
  },
  right: { minHeight: 0, overflowY: 'auto' },
  segmentsLink: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
});

export function MainPage() {
  const [ref] = useQueryLoader<MainPageQuery>(MAIN_PAGE_QUERY, useLoaderData() as PreloadedQuery<MainPageQuery>);
  useEffect(() => {
    mounted = true;
    return () => {
      mounted = false;
    };
  }, []);
  return ref ? (
    <Suspense fallback={<LoadingScreen />}>
      <Main queryRef={ref} />
    </Suspense>
  ) : (
    <LoadingScreen />
  );
}

function Main({ queryRef }: { queryRef: PreloadedQuery<MainPageQuery> }) {
  const s = useStyles();
  const data = usePreloadedQuery<MainPageQuery>(MAIN_PAGE_QUERY, queryRef);
  const shell = useShell();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [runQuery, running] = useRunQueryMutation();
  const [rerunQuery, rerunning] = useRerunQueryMutation();
  // a question the assistant asked about: shown in the chat until a choice runs it or another is asked
  const [pending, setPending] = useState<PendingClarification | null>(null);
  const busy = running || rerunning;
  const history = data.queryHistory.edges.map((e) => e.node);
  const selectedId = params.get('query');

  // Nothing selected: show the newest question of the history.
  useEffect(() => {
    if (!selectedId && history[0]) navigate({ search: `?query=${encodeURIComponent(history[0].id)}` }, { replace: true });
  }, [selectedId, history, navigate]);

  const select = useCallback((id: string) => navigate({ search: `?query=${encodeURIComponent(id)}` }), [navigate]);

  async function ask(naturalLanguage: string, answer?: ClarificationAnswer): Promise<boolean> {
    try {
      const input = { naturalLanguage, ...(answer ? ('segment' in answer ? { segment: answer.segment as RunQueryInput['segment'] } : answer) : {}) };
      const r = await mutate(runQuery, { variables: { input, connections: [historyConnectionId()] } });
      // understood only in part: nothing was run or charged; the chat asks, with the choices as buttons
      if (r.runQuery.outcome === 'CLARIFICATION' && r.runQuery.clarification) {
        setPending({ question: naturalLanguage, clarification: r.runQuery.clarification });
        return true;
      }
      // nothing understood: nothing was run or charged, and the results on screen stay as they are; the question
      // and the assistant's reply (what it can filter on) stay in the conversation, the toast only says so
      if (r.runQuery.outcome === 'NOT_UNDERSTOOD' || !r.runQuery.query) {
        setPending({ question: naturalLanguage, reply: r.runQuery.message });
        notify(notUnderstoodNotice());
        return true;
      }
      setPending(null);
      notify(outcomeNotice('run', r.runQuery));
      select(r.runQuery.query.id);
      return true;
    } catch (err) {
      notify(failureNotice('run', err));
      return false;
    }
  }

  async function rerun(queryId: string, segment?: ReturnType<typeof toSegmentInput>) {
    try {
      const r = await mutate(rerunQuery, { variables: { input: { queryId, ...(segment ? { segment: segment as RerunQueryInput['segment'] } : {}) } } });
      notify(outcomeNotice('rerun', r.rerunQuery));
      if (queryId !== selectedId) select(queryId);
    } catch (err) {
      notify(failureNotice('rerun', err));
    }
  }

  const todays = shell.data.dailySegmentsDay.count;
  return (
    <div className={s.page}>
      <PageHeader
        title="CRM Assistant"
        subtitle="Natural Language Customer Segmentation"
        extra={
          todays > 0 ? (
            <FluentLink as="span" inline>
              <Link to="/smart-segments" className={s.segmentsLink}>
                <Sparkle16Filled aria-hidden />
                {todays} AI segments for you
              </Link>
            </FluentLink>
          ) : null
        }
        menu={<UserMenu viewer={shell.data.viewer!} connection={shell.data.crmConnection} onOpenCrm={shell.openCrm} />}
      />
      <div className={s.body}>
        <div className={s.left}>
          <HistoryPanel items={history} total={history.length} selectedId={selectedId} busy={busy} onSelect={(id) => { setPending(null); select(id); }} onRerun={(id) => rerun(id)} />
          {data.selected && <UnderstoodPanel query={data.selected} fields={data} busy={busy} onApply={(segment) => void ask(data.selected!.naturalLanguage, { segment })} />}
          <ChatPanel query={data.selected ?? null} fields={data} busy={busy} onAsk={(q) => ask(q)} pending={pending} onAnswer={(q, a) => ask(q, a)} crmLabel={shell.data.crmConnection.crmLabel} usage={shell.data.usage} vocabularyKey={shell.data.crmConnection.hasToken ? `${shell.data.crmConnection.id}:${shell.data.crmConnection.crmLabel}` : null} />
        </div>
        {data.selected?.resultsState === 'LOADING' && <StoredResults id={data.selected.id} />}
        <div className={s.right}>
          {/* a run of the query (updatedAt) starts the table afresh: its first page came with the run's payload */}
          <ResultsPanel key={data.selected ? `${data.selected.id}:${data.selected.updatedAt}` : 'none'} query={data.selected ?? null} busy={busy} />
        </div>
      </div>
    </div>
  );
}
