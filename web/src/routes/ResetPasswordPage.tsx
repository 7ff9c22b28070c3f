// /reset-password#token=…: the page a reset link opens (api/services/password-reset.ts). The token is
// in the fragment (never sent to a server with the page request) and is taken out of the address bar
// at once; the new password is checked by the server's policy, field by field. Afterwards every
// session of the account has ended: the user signs in again with the new password.
import { Button, Field, Input, Link, Text } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { fieldErrors, messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useResetPasswordMutation } from '../mutations/PasswordResetMutations';
import { resetEnvironment } from '../relay/environment';
import { markSignedOut } from './auth-check';
import { TAGLINE, useAuthStyles } from './AuthPage';

/** The token of the link, read once; the fragment is removed from the address bar and the history. */
function takeToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  return token;
}

export function ResetPasswordPage() {
  const s = useAuthStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const [token] = useState(takeToken);
  const [commit, busy] = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      const r = await mutate(commit, { variables: { input: { token, newPassword: password, confirmPassword: confirm } } });
      notify({ title: 'Password changed', body: 'Sign in with your new password.', intent: 'success' });
      markSignedOut();
      resetEnvironment();
      navigate('/auth', { replace: true, state: { email: r.resetPassword.email } });
    } catch (err) {
      const fields = fieldErrors(err);
      if (Object.keys(fields).length && !fields.token) setErrors(fields);
      else setErrors({ token: messageOf(err, 'This password reset link is invalid, already used or expired. Ask for a new one.') });
    }
  }

  return (
    <main className={s.page}>
      <div className={s.column}>
        <header className={s.header}>
          <Text as="h1" size={800} weight="bold">
            CRM Assistant
          </Text>
          <Text size={400}>{TAGLINE}</Text>
        </header>
        <section className={s.card}>
          <form className={s.form} onSubmit={submit} aria-label="Choose a new password">
            <Text as="h2" size={500} weight="semibold">
              Choose a new password
            </Text>
            {!token || errors.token ? (
              <Text role="alert">{errors.token ?? 'This link is incomplete: open the whole link from the email, or ask for a new one.'}</Text>
            ) : null}
            <Field label="New password" required validationMessage={errors.newPassword} hint="At least 8 characters, not a common password">
              <Input type="password" autoComplete="new-password" value={password} onChange={(_e, d) => setPassword(d.value)} required disabled={!token} />
            </Field>
            <Field label="Confirm new password" required validationMessage={errors.confirmPassword}>
              <Input type="password" autoComplete="new-password" value={confirm} onChange={(_e, d) => setConfirm(d.value)} required disabled={!token} />
            </Field>
            <Button appearance="primary" type="submit" disabled={busy || !token}>
              {busy ? 'Saving...' : 'Set new password'}
            </Button>
            <Link as="a" href="/auth" onClick={(e) => { e.preventDefault(); navigate('/auth'); }}>
              Back to sign in (ask for a new link there)
            </Link>
          </form>
        </section>
      </div>
    </main>
  );
}
