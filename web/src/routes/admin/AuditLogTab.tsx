// The Audit Log tab (beyond the spec): every administrative action, newest first, paged — who did
// what to which record, when, with the action's details.
import { Button, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import { actionText, detailEntries, words } from './audit-text';
import type { AuditLogTabQuery } from '../../__generated__/AuditLogTabQuery.graphql';
import type { AuditLogTab_query$key } from '../../__generated__/AuditLogTab_query.graphql';
import { formatCount, relativeTime } from '../../lib/format';

const PAGE_SIZE = 25;

const QUERY = graphql`
  query AuditLogTabQuery($count: Int!) {
    ...AuditLogTab_query @arguments(count: $count)
  }
`;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  scroll: { overflowX: 'auto', backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium },
  table: { minWidth: '880px' },
  cell: { display: 'flex', flexDirection: 'column', gap: '2px', paddingTop: tokens.spacingVerticalXS, paddingBottom: tokens.spacingVerticalXS },
  details: { margin: 0, display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: tokens.spacingHorizontalS, fontSize: tokens.fontSizeBase200 },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'break-word' },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalXXL, textAlign: 'center' },
  more: { alignSelf: 'center' },
});

const timeFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export default function AuditLogTab() {
  const data = useLazyLoadQuery<AuditLogTabQuery>(QUERY, { count: PAGE_SIZE }, { fetchPolicy: 'store-and-network' });
  return <AuditTable query={data} />;
}

function AuditTable({ query }: { query: AuditLogTab_query$key }) {
  const s = useStyles();
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(
    graphql`
      fragment AuditLogTab_query on Query
      @refetchable(queryName: "AuditLogTabPaginationQuery")
      @argumentDefinitions(count: { type: "Int!" }, cursor: { type: "String" }) {
        auditLog(first: $count, after: $cursor) @connection(key: "AuditLogTab_auditLog") {
          totalCount
          edges {
            node {
              id
              action
              actorEmail
              targetType
              targetId
              details
              createdAt
            }
          }
        }
      }
    `,
    query,
  );
  const log = data.auditLog;
  return (
    <div className={s.root}>
      <Text className={s.muted}>{formatCount(log.totalCount)} administrative actions, newest first</Text>
      {log.edges.length === 0 ? (
        <Text as="p" className={s.empty}>
          No administrative actions yet
        </Text>
      ) : (
        <div className={s.scroll}>
          <Table className={s.table} aria-label="Audit log" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>When</TableHeaderCell>
                <TableHeaderCell>Administrator</TableHeaderCell>
                <TableHeaderCell>Action</TableHeaderCell>
                <TableHeaderCell>Target</TableHeaderCell>
                <TableHeaderCell>Details</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {log.edges.map(({ node: e }) => (
                <TableRow key={e.id}>
                  <TableCell>
                    <div className={s.cell}>
                      <Text>{timeFmt.format(new Date(e.createdAt))}</Text>
                      <Text size={200} className={s.muted}>
                        {relativeTime(e.createdAt)}
                      </Text>
                    </div>
                  </TableCell>
                  <TableCell>{e.actorEmail ?? <Text className={s.muted}>deleted account</Text>}</TableCell>
                  <TableCell title={e.action}>{actionText(e.action)}</TableCell>
                  <TableCell>
                    <div className={s.cell}>
                      <Text>{e.targetType ? words(e.targetType) : '-'}</Text>
                      {e.targetId && (
                        <Text size={200} className={s.muted} title={e.targetId}>
                          {e.targetId.slice(0, 8)}...
                        </Text>
                      )}
                    </div>
                  </TableCell>
                  <TableCell>
                    {detailEntries(e.details).length ? (
                      <dl className={s.details}>
                        {detailEntries(e.details).map(([term, value]) => (
                          <div key={term} style={{ display: 'contents' }}>
                            <dt className={s.term}>{term}</dt>
                            <dd className={s.value}>{value}</dd>
                          </div>
                        ))}
                      </dl>
                    ) : (
                      '-'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {hasNext && (
        <Button className={s.more} onClick={() => loadNext(PAGE_SIZE)} disabled={isLoadingNext}>
          {isLoadingNext ? 'Loading...' : `Show more (${formatCount(log.totalCount - log.edges.length)} left)`}
        </Button>
      )}
    </div>
  );
}
