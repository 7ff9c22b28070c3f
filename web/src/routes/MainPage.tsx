// The main assistant screen (/): header with the "{n} AI segments for you" link and the user menu;
// left, the query history, how the selected question was understood and its conversation; right,
// the customer results. The selected query is in the URL (?query=<id>).
import { Link as FluentLink, makeStyles, tokens } from '@fluentui/react-components';
import { Sparkle16Filled } from '@fluentui/react-icons';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { graphql, loadQuery, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import { Link, useLoaderData, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router-dom';
import type { MainPageQuery } from '../__generated__/MainPageQuery.graphql';
import type { RerunQueryMutation$variables } from '../__generated__/RerunQueryMutation.graphql';
import { ChatPanel } from '../components/ChatPanel';
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
import { useRunQueryMutation } from '../mutations/RunQueryMutation';
import { getEnvironment } from '../relay/environment';
import { requireSignedIn } from './auth-check';
import { useShell } from './SignedInLayout';

type RerunQueryInput = RerunQueryMutation$variables['input'];

const MAIN_PAGE_QUERY = graphql`
  query MainPageQuery($queryId: ID!, $hasQuery: Boolean!) {
    queryHistory(first: 50) {
      totalCount
      edges {
        node {
          id
          ...HistoryItem_query
        }
      }
    }
    selected: customerQuery(id: $queryId) @include(if: $hasQuery) {
      id
      ...ChatPanel_query
      ...UnderstoodPanel_query
      ...ResultsPanel_query
    }
    ...UnderstoodPanel_fields
  }
`;

export async function mainPageLoader({ request }: LoaderFunctionArgs) {
  // Loaders of nested routes run in parallel with the frame's: check the session here too.
  await requireSignedIn();
  const id = new URL(request.url).searchParams.get('query');
  return loadQuery<MainPageQuery>(getEnvironment(), MAIN_PAGE_QUERY, { queryId: id ?? '', hasQuery: Boolean(id) }, { fetchPolicy: 'store-and-network' });
}

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh' },
  body: { display: 'grid', gridTemplateColumns: 'minmax(320px, 40%) minmax(0, 1fr)', flexGrow: 1, minHeight: 0 },
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
  const [resultsVersion, setResultsVersion] = useState(0);
  const busy = running || rerunning;
  const history = data.queryHistory.edges.map((e) => e.node);
  const selectedId = params.get('query');

  // Nothing selected: show the newest question of the history.
  useEffect(() => {
    if (!selectedId && history[0]) navigate({ search: `?query=${encodeURIComponent(history[0].id)}` }, { replace: true });
  }, [selectedId, history, navigate]);

  const select = useCallback((id: string) => navigate({ search: `?query=${encodeURIComponent(id)}` }), [navigate]);

  async function ask(naturalLanguage: string) {
    try {
      const r = await mutate(runQuery, { variables: { input: { naturalLanguage } } });
      // nothing understood: nothing was run or charged, and the results on screen stay as they are
      if (r.runQuery.outcome === 'NOT_UNDERSTOOD' || !r.runQuery.query) {
        notify(notUnderstoodNotice(r.runQuery.message));
        return;
      }
      notify(outcomeNotice('run', r.runQuery));
      select(r.runQuery.query.id);
    } catch (err) {
      notify(failureNotice('run', err));
    }
  }

  async function rerun(queryId: string, segment?: ReturnType<typeof toSegmentInput>) {
    try {
      const r = await mutate(rerunQuery, { variables: { input: { queryId, ...(segment ? { segment: segment as RerunQueryInput['segment'] } : {}) } } });
      notify(outcomeNotice('rerun', r.rerunQuery));
      setResultsVersion((v) => v + 1);
      if (queryId !== selectedId) select(queryId);
    } catch (err) {
      notify(failureNotice('rerun', err));
    }
  }

  const todays = shell.data.dailySegments.totalCount;
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
          <HistoryPanel items={history} total={data.queryHistory.totalCount} selectedId={selectedId} busy={busy} onSelect={select} onRerun={(id) => rerun(id)} />
          {data.selected && <UnderstoodPanel query={data.selected} fields={data} busy={busy} onApply={(segment) => rerun(data.selected!.id, segment)} />}
          <ChatPanel query={data.selected ?? null} busy={busy} onAsk={ask} />
        </div>
        <div className={s.right}>
          <ResultsPanel query={data.selected ?? null} busy={busy} version={resultsVersion} />
        </div>
      </div>
    </div>
  );
}
