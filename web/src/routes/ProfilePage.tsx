// Profile (/profile): name and email, change password, and the personal access tokens the CLI
// created (`crm login`), each with revoke.
import {
  Button,
  Card,
  CardHeader,
  Field,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Suspense, useState, type FormEvent } from 'react';
import { graphql, loadQuery, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router-dom';
import type { ProfilePageQuery } from '../__generated__/ProfilePageQuery.graphql';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingScreen } from '../components/LoadingScreen';
import { PageHeader } from '../components/PageHeader';
import { UserMenu } from '../components/UserMenu';
import { fieldErrors, messageOf } from '../lib/errors';
import { formatDate, relativeTime } from '../lib/format';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useChangePasswordMutation } from '../mutations/ChangePasswordMutation';
import { useRevokePersonalAccessTokenMutation } from '../mutations/RevokePersonalAccessTokenMutation';
import { getEnvironment } from '../relay/environment';
import { requireSignedIn } from './auth-check';
import { useShell } from './SignedInLayout';

const QUERY = graphql`
  query ProfilePageQuery {
    viewer {
      id
      firstName
      lastName
      email
      tierName
    }
    personalAccessTokens(first: 50) @connection(key: "ProfilePage_personalAccessTokens") {
      __id
      edges {
        node {
          id
          name
          prefix
          createdAt
          lastUsedAt
        }
      }
    }
  }
`;

export async function loader() {
  await requireSignedIn();
  return loadQuery<ProfilePageQuery>(getEnvironment(), QUERY, {}, { fetchPolicy: 'store-and-network' });
}

const useStyles = makeStyles({
  content: { maxWidth: '880px', width: '100%', margin: '0 auto', padding: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: { padding: tokens.spacingHorizontalL },
  details: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '420px' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  srOnly: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
});

export function ProfilePage() {
  const [ref] = useQueryLoader<ProfilePageQuery>(QUERY, useLoaderData() as PreloadedQuery<ProfilePageQuery>);
  return ref ? (
    <Suspense fallback={<LoadingScreen />}>
      <Profile queryRef={ref} />
    </Suspense>
  ) : (
    <LoadingScreen />
  );
}

function Profile({ queryRef }: { queryRef: PreloadedQuery<ProfilePageQuery> }) {
  const s = useStyles();
  const shell = useShell();
  const data = usePreloadedQuery<ProfilePageQuery>(QUERY, queryRef);
  const viewer = data.viewer;
  if (!viewer) return <LoadingScreen />;
  return (
    <>
      <PageHeader title="Profile" menu={<UserMenu viewer={shell.data.viewer!} connection={shell.data.crmConnection} onOpenCrm={shell.openCrm} />} />
      <div className={s.content}>
        <Card className={s.card} role="region" aria-label="Your account">
          <CardHeader header={<Text as="h2" size={500} weight="semibold">Your account</Text>} />
          <div className={s.details}>
            <Text className={s.muted}>Name</Text>
            <Text>{`${viewer.firstName} ${viewer.lastName}`}</Text>
            <Text className={s.muted}>Email</Text>
            <Text>{viewer.email}</Text>
            <Text className={s.muted}>Plan</Text>
            <Text>{viewer.tierName ?? 'No Tier'}</Text>
          </div>
        </Card>
        <ChangePasswordCard />
        <TokensCard tokens={data.personalAccessTokens} />
      </div>
    </>
  );
}

function ChangePasswordCard() {
  const s = useStyles();
  const notify = useNotify();
  const [commit, busy] = useChangePasswordMutation();
  const [v, setV] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof v) => (value: string) => {
    setV((o) => ({ ...o, [k]: value }));
    setErrors((o) => ({ ...o, [k]: '' }));
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!v.confirmPassword) return setErrors({ confirmPassword: 'Please confirm your password' });
    if (v.newPassword !== v.confirmPassword) return setErrors({ confirmPassword: "Passwords don't match" });
    try {
      await mutate(commit, { variables: { input: v } });
      setV({ currentPassword: '', newPassword: '', confirmPassword: '' });
      notify({ title: 'Password changed', body: 'Your other sessions were signed out.', intent: 'success' });
    } catch (err) {
      setErrors(fieldErrors(err));
      notify({ title: 'Password not changed', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }
  const f = (k: keyof typeof v) => ({ validationState: errors[k] ? ('error' as const) : ('none' as const), validationMessage: errors[k] || undefined });
  return (
    <Card className={s.card}>
      <CardHeader header={<Text as="h2" size={500} weight="semibold">Change password</Text>} />
      <form className={s.form} onSubmit={submit}>
        <Field label="Current password" required {...f('currentPassword')}>
          <Input type="password" autoComplete="current-password" value={v.currentPassword} onChange={(_e, d) => set('currentPassword')(d.value)} required />
        </Field>
        <Field label="New password" required hint="At least 8 characters" {...f('newPassword')}>
          <Input type="password" autoComplete="new-password" value={v.newPassword} onChange={(_e, d) => set('newPassword')(d.value)} required />
        </Field>
        <Field label="Confirm new password" required {...f('confirmPassword')}>
          <Input type="password" autoComplete="new-password" value={v.confirmPassword} onChange={(_e, d) => set('confirmPassword')(d.value)} />
        </Field>
        <Button type="submit" appearance="primary" disabled={busy} style={{ alignSelf: 'flex-start' }}>
          {busy ? 'Saving...' : 'Change password'}
        </Button>
      </form>
    </Card>
  );
}

function TokensCard({ tokens: connection }: { tokens: ProfilePageQuery['response']['personalAccessTokens'] }) {
  const s = useStyles();
  const notify = useNotify();
  const [revoke] = useRevokePersonalAccessTokenMutation();
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  async function doRevoke() {
    if (!target) return;
    const t = target;
    setTarget(null);
    try {
      await mutate(revoke, { variables: { id: t.id, connections: [connection.__id] } });
      notify({ title: 'Token revoked', body: `"${t.name}" can no longer be used.`, intent: 'success' });
    } catch (err) {
      notify({ title: 'Token not revoked', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }
  return (
    <Card className={s.card}>
      <CardHeader
        header={<Text as="h2" size={500} weight="semibold">Personal access tokens</Text>}
        description={<Text className={s.muted}>Created when you sign in with the command-line tool (`crm login`). Revoke a token you no longer use.</Text>}
      />
      {connection.edges.length === 0 ? (
        <Text className={s.muted}>No tokens yet.</Text>
      ) : (
        <Table aria-label="Personal access tokens" size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Token</TableHeaderCell>
              <TableHeaderCell>Created</TableHeaderCell>
              <TableHeaderCell>Last used</TableHeaderCell>
              <TableHeaderCell>
                <span className={s.srOnly}>Actions</span>
              </TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {connection.edges.map(({ node: t }) => (
              <TableRow key={t.id}>
                <TableCell>{t.name}</TableCell>
                <TableCell className={s.mono}>{t.prefix}…</TableCell>
                <TableCell>{formatDate(t.createdAt)}</TableCell>
                <TableCell>{t.lastUsedAt ? relativeTime(t.lastUsedAt) : 'Never'}</TableCell>
                <TableCell>
                  <Button size="small" onClick={() => setTarget({ id: t.id, name: t.name })}>
                    Revoke
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog open={target !== null} title="Revoke token" confirmLabel="Revoke" danger onConfirm={doRevoke} onCancel={() => setTarget(null)}>
        Revoke &quot;{target?.name}&quot;? Anything using it stops working at once.
      </ConfirmDialog>
    </Card>
  );
}
