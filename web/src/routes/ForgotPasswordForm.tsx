// "Forgot password?" on the sign-in card: an e-mail address, then the server's answer (the same for
// every address, api/services/password-reset.ts) in a live region, and the way back to sign in.
import { Button, Field, Input, Link, Text } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { fieldErrors, messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useRequestPasswordResetMutation } from '../mutations/PasswordResetMutations';
import { useAuthStyles } from './AuthPage';

export function ForgotPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const s = useAuthStyles();
  const notify = useNotify();
  const [commit, busy] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await mutate(commit, { variables: { input: { email } } });
      setSent(r.requestPasswordReset.message);
    } catch (err) {
      const field = fieldErrors(err).email;
      if (field) setError(field);
      else notify({ title: 'Could not send the link', body: messageOf(err, 'Please try again.'), intent: 'error' });
    }
  }

  return (
    <form className={s.form} onSubmit={submit} aria-label="Reset your password">
      <Text as="h2" size={500} weight="semibold">
        Reset your password
      </Text>
      <Text>Enter the email of your account: we'll send you a link to choose a new password.</Text>
      <Field label="Email" required validationMessage={error}>
        <Input type="email" autoComplete="email" value={email} onChange={(_e, d) => setEmail(d.value)} required />
      </Field>
      <div role="status">{sent && <Text weight="semibold">{sent}</Text>}</div>
      <Button appearance="primary" type="submit" disabled={busy}>
        {busy ? 'Sending...' : sent ? 'Send again' : 'Send reset link'}
      </Button>
      <Link as="button" type="button" onClick={onBack}>
        Back to sign in
      </Link>
    </form>
  );
}
