// The Users tab of the Admin console (spec §2, §5, §8): every user with CRM, industry, tier and
// limits, today's usage and status; ban (a reason, then a confirmation naming the user and the
// reason) and unban (a confirmation). Searchable by name or email and paged, so it stays usable with
// thousands of users.
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
  SearchBox,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useDeferredValue, useEffect, useState, type FormEvent } from 'react';
import { graphql, useFragment, useLazyLoadQuery, usePaginationFragment } from 'react-relay';
import type { UsersTabQuery } from '../../__generated__/UsersTabQuery.graphql';
import type { UsersTab_query$key } from '../../__generated__/UsersTab_query.graphql';
import type { UsersTabRow_user$key } from '../../__generated__/UsersTabRow_user.graphql';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { messageOf } from '../../lib/errors';
import { formatCount, formatDate } from '../../lib/format';
import { mutate } from '../../lib/mutate';
import { useNotify } from '../../lib/toasts';
import { useBanUserMutation, useUnbanUserMutation } from '../../mutations/BanUserMutations';
import { useSendPasswordResetMutation } from '../../mutations/PasswordResetMutations';
import { banConfirm, unbanConfirm, userBanned, userUnbanned } from '../../../../client/messages.js';

const PAGE_SIZE = 25;

const QUERY = graphql`
  query UsersTabQuery($count: Int!, $search: String) {
    registrationOptions {
      crmTypes {
        value
        label
      }
      industries {
        value
        label
      }
    }
    ...UsersTab_query @arguments(count: $count, search: $search)
  }
`;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  search: { width: '320px', maxWidth: '100%' },
  muted: { color: tokens.colorNeutralForeground3 },
  scroll: { overflowX: 'auto', backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium },
  table: { minWidth: '980px' },
  cell: { display: 'flex', flexDirection: 'column', gap: '2px', paddingTop: tokens.spacingVerticalXS, paddingBottom: tokens.spacingVerticalXS },
  // An e-mail is never broken mid-word: it ends in an ellipsis, whole in its tooltip.
  email: { maxWidth: '260px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalXXL, textAlign: 'center' },
  more: { alignSelf: 'center' },
  resetButton: { marginLeft: tokens.spacingHorizontalS, whiteSpace: 'nowrap', flexShrink: 0 },
});

/** "25 users", "1 user matches \"ada\"". */
function countText(n: number, search: string): string {
  const users = `${formatCount(n)} ${n === 1 ? 'user' : 'users'}`;
  return search ? `${users} ${n === 1 ? 'matches' : 'match'} "${search}"` : users;
}

type Labels = { crm: Map<string, string>; industry: Map<string, string> };

export default function UsersTab() {
  const s = useStyles();
  const [search, setSearch] = useState('');
  // Typing stays responsive: the table follows the deferred value, searched on the server.
  const deferred = useDeferredValue(search.trim());
  const data = useLazyLoadQuery<UsersTabQuery>(QUERY, { count: PAGE_SIZE, search: null }, { fetchPolicy: 'store-and-network' });
  const labels: Labels = {
    crm: new Map(data.registrationOptions.crmTypes.map((o) => [o.value, o.label])),
    industry: new Map(data.registrationOptions.industries.map((o) => [o.value, o.label])),
  };
  return (
    <div className={s.root}>
      <div className={s.toolbar}>
        <SearchBox
          className={s.search}
          placeholder="Search by name or email"
          aria-label="Search users"
          value={search}
          onChange={(_e, d) => setSearch(d.value)}
        />
      </div>
      <UsersTable query={data} search={deferred} labels={labels} />
    </div>
  );
}

function UsersTable({ query, search, labels }: { query: UsersTab_query$key; search: string; labels: Labels }) {
  const s = useStyles();
  const { data, loadNext, hasNext, isLoadingNext, refetch } = usePaginationFragment(
    graphql`
      fragment UsersTab_query on Query
      @refetchable(queryName: "UsersTabPaginationQuery")
      @argumentDefinitions(count: { type: "Int!" }, cursor: { type: "String" }, search: { type: "String" }) {
        adminUsers(first: $count, after: $cursor, search: $search) @connection(key: "UsersTab_adminUsers", filters: ["search"]) {
          totalCount
          edges {
            node {
              id
              ...UsersTabRow_user
            }
          }
        }
      }
    `,
    query,
  );
  const [searched, setSearched] = useState('');
  useEffect(() => {
    if (search === searched) return;
    setSearched(search);
    refetch({ search: search || null }, { fetchPolicy: 'store-and-network' });
  }, [search, searched, refetch]);

  const users = data.adminUsers;
  return (
    <>
      <Text className={s.muted} aria-live="polite">
        {countText(users.totalCount, search)}
      </Text>
      {users.edges.length === 0 ? (
        <Text as="p" className={s.empty}>
          No users found
        </Text>
      ) : (
        <div className={s.scroll}>
          <Table className={s.table} aria-label="Users" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>User</TableHeaderCell>
                <TableHeaderCell>Email</TableHeaderCell>
                <TableHeaderCell>CRM</TableHeaderCell>
                <TableHeaderCell>Industry</TableHeaderCell>
                <TableHeaderCell>Tier</TableHeaderCell>
                <TableHeaderCell>Today&apos;s Usage</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Actions</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.edges.map((e) => (
                <UserRow key={e.node.id} user={e.node} labels={labels} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {hasNext && (
        <Button className={s.more} onClick={() => loadNext(PAGE_SIZE)} disabled={isLoadingNext}>
          {isLoadingNext ? 'Loading...' : `Show more (${formatCount(users.totalCount - users.edges.length)} left)`}
        </Button>
      )}
    </>
  );
}

function UserRow({ user: key, labels }: { user: UsersTabRow_user$key; labels: Labels }) {
  const s = useStyles();
  const notify = useNotify();
  const user = useFragment(
    graphql`
      fragment UsersTabRow_user on User {
        id
        userId
        firstName
        lastName
        email
        crmType
        industry
        tierName
        chatQueryLimit
        smartSegmentLimit
        todaysUsage {
          chatQueriesUsed
          smartSegmentsUsed
        }
        isBanned
        bannedAt
        banReason
      }
    `,
    key,
  );
  const [ban, banning] = useBanUserMutation();
  const [unban, unbanning] = useUnbanUserMutation();
  const [sendReset, sendingReset] = useSendPasswordResetMutation();
  // Ban: the reason first (spec: "a reason is asked for by a prompt"), then the confirmation.
  const [step, setStep] = useState<'idle' | 'reason' | 'confirm-ban' | 'confirm-unban' | 'confirm-reset'>('idle');
  const [reason, setReason] = useState('');
  const name = `${user.firstName} ${user.lastName}`.trim();

  async function doBan() {
    setStep('idle');
    try {
      await mutate(ban, { variables: { input: { userId: user.id, reason: reason.trim() } } });
      notify({ ...userBanned(), intent: 'success' });
    } catch (err) {
      notify({ title: 'Error banning user', body: messageOf(err, 'Failed to ban user'), intent: 'error' });
    }
  }

  async function doUnban() {
    setStep('idle');
    try {
      await mutate(unban, { variables: { input: { userId: user.id } } });
      notify({ ...userUnbanned(name), intent: 'success' });
    } catch (err) {
      notify({ title: 'Error unbanning user', body: messageOf(err, 'Failed to unban user'), intent: 'error' });
    }
  }

  async function doSendReset() {
    setStep('idle');
    try {
      await mutate(sendReset, { variables: { input: { userId: user.id } } });
      notify({ title: 'Reset link sent', body: `${user.email} can set a new password with the link in the email.`, intent: 'success' });
    } catch (err) {
      notify({ title: 'Error sending the reset link', body: messageOf(err, 'Failed to send the reset link'), intent: 'error' });
    }
  }

  function submitReason(e: FormEvent) {
    e.preventDefault();
    // An empty reason stops the action, as a cancelled prompt does.
    if (!reason.trim()) return setStep('idle');
    setStep('confirm-ban');
  }

  return (
    <TableRow>
      <TableCell>
        <div className={s.cell}>
          <Text weight="semibold">{name}</Text>
          <Text size={200} className={s.muted} title={user.userId}>
            {user.userId.slice(0, 8)}...
          </Text>
        </div>
      </TableCell>
      <TableCell className={s.email} title={user.email}>{user.email}</TableCell>
      <TableCell>{labels.crm.get(user.crmType) ?? user.crmType}</TableCell>
      <TableCell>{labels.industry.get(user.industry) ?? user.industry}</TableCell>
      <TableCell>
        {user.tierName ? (
          <div className={s.cell}>
            <Text>{user.tierName}</Text>
            <Text size={200} className={s.muted}>
              {user.chatQueryLimit}/{user.smartSegmentLimit} limits
            </Text>
          </div>
        ) : (
          <Badge appearance="outline" color="informative">
            No Tier
          </Badge>
        )}
      </TableCell>
      <TableCell>
        <div className={s.cell}>
          <Text size={200}>
            Queries: {user.todaysUsage.chatQueriesUsed}/{user.chatQueryLimit}
          </Text>
          <Text size={200}>
            Segments: {user.todaysUsage.smartSegmentsUsed}/{user.smartSegmentLimit}
          </Text>
        </div>
      </TableCell>
      <TableCell>
        {user.isBanned ? (
          <div className={s.cell}>
            <Badge appearance="filled" color="danger">
              Banned
            </Badge>
            <Text size={200} className={s.muted}>
              {formatDate(user.bannedAt)}
            </Text>
            {user.banReason && <Text size={200}>Reason: {user.banReason}</Text>}
          </div>
        ) : (
          <Badge appearance="filled" color="success">
            Active
          </Badge>
        )}
      </TableCell>
      <TableCell>
        {user.isBanned ? (
          <Button size="small" onClick={() => setStep('confirm-unban')} disabled={unbanning} aria-label={`Unban ${name}`}>
            Unban
          </Button>
        ) : (
          <Button
            size="small"
            appearance="primary"
            onClick={() => {
              setReason('');
              setStep('reason');
            }}
            disabled={banning}
            aria-label={`Ban ${name}`}
          >
            Ban
          </Button>
        )}
        <Button size="small" className={s.resetButton} onClick={() => setStep('confirm-reset')} disabled={sendingReset} aria-label={`Send ${name} a password reset link`}>
          Reset password
        </Button>
        <ConfirmDialog open={step === 'confirm-reset'} title="Send a password reset link" confirmLabel="Send link" onConfirm={doSendReset} onCancel={() => setStep('idle')}>
          {`${name} (${user.email}) gets an email with a link to choose a new password. It works once and expires; the current password keeps working until then.`}
        </ConfirmDialog>
        <Dialog open={step === 'reason'} onOpenChange={(_e, d) => !d.open && setStep('idle')}>
          <DialogSurface>
            <form onSubmit={submitReason}>
              <DialogBody>
                <DialogTitle>Ban {name}</DialogTitle>
                <DialogContent>
                  <Field label="Reason for the ban" hint="The user is signed out at once; at sign-in they see that the account is suspended, with this reason.">
                    <Textarea value={reason} onChange={(_e, d) => setReason(d.value)} maxLength={500} autoFocus />
                  </Field>
                </DialogContent>
                <DialogActions>
                  <Button onClick={() => setStep('idle')}>Cancel</Button>
                  <Button appearance="primary" type="submit" disabled={!reason.trim()}>
                    Continue
                  </Button>
                </DialogActions>
              </DialogBody>
            </form>
          </DialogSurface>
        </Dialog>
        <ConfirmDialog open={step === 'confirm-ban'} title="Ban user" confirmLabel="Ban" danger onConfirm={doBan} onCancel={() => setStep('idle')}>
          <Text as="p" block>
            {banConfirm(name)}
          </Text>
          <Text as="p" block>
            Reason: {reason.trim()}
          </Text>
        </ConfirmDialog>
        <ConfirmDialog open={step === 'confirm-unban'} title="Unban user" confirmLabel="Unban" onConfirm={doUnban} onCancel={() => setStep('idle')}>
          {unbanConfirm(name)}
        </ConfirmDialog>
      </TableCell>
    </TableRow>
  );
}
