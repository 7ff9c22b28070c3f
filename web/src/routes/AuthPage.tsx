// The authentication screen (/auth, /login, /register): title, tagline, Login and Register tabs.
// Texts, busy labels, validation messages and toasts are the spec's (§2, §5, §8).
import {
  Button,
  Field,
  Input,
  Link,
  Tab,
  TabList,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { graphql, loadQuery } from 'react-relay';
import { useLocation, useNavigate } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import type { AuthPageQuery } from '../__generated__/AuthPageQuery.graphql';
import { accountSuspended, LOGIN_FAILED, LOGIN_SUCCESS } from '../../../client/messages.js';
import { codeOf, messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { crmModalFlag } from '../lib/storage';
import { useNotify } from '../lib/toasts';
import { useLoginMutation } from '../mutations/LoginMutation';
import { getEnvironment, resetEnvironment } from '../relay/environment';
import { requireSignedOut } from './auth-check';

export const AUTH_PAGE_QUERY = graphql`
  query AuthPageQuery {
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
  }
`;

/** Signed-in users leave; the registration options are fetched while the screen loads. */
export async function authPageLoader() {
  await requireSignedOut();
  return loadQuery<AuthPageQuery>(getEnvironment(), AUTH_PAGE_QUERY, {});
}

export const TAGLINE = 'AI Generated Audiences and Natural Language Customer Segmentation';

export const useAuthStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: tokens.spacingHorizontalXL,
    backgroundImage: `linear-gradient(160deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground2} 60%)`,
  },
  column: { width: '100%', maxWidth: '440px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  header: { textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalXS },
  card: {
    padding: tokens.spacingHorizontalXL,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, marginTop: tokens.spacingVerticalM },
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: tokens.spacingHorizontalM },
  input: { width: '100%', minWidth: 0 },
});

export function AuthPage() {
  const s = useAuthStyles();
  const [tab, setTab] = useState<'login' | 'register'>('login');
  // "Forgot password?" replaces the login form (with the e-mail typed there) until "Back to sign in".
  const [forgot, setForgot] = useState<{ email: string } | null>(null);
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
          <TabList selectedValue={tab} onTabSelect={(_e, d) => setTab(d.value as 'login' | 'register')} aria-label="Sign in or create an account">
            <Tab value="login">Login</Tab>
            <Tab value="register">Register</Tab>
          </TabList>
          {tab === 'login' && forgot ? (
            <Suspense fallback={<LoadingScreen />}>
              <ForgotPasswordForm initialEmail={forgot.email} onBack={() => setForgot(null)} />
            </Suspense>
          ) : tab === 'login' ? (
            <LoginForm onForgot={(email) => setForgot({ email })} />
          ) : (
            <Suspense fallback={<LoadingScreen />}>
              <RegisterForm />
            </Suspense>
          )}
        </section>
      </div>
    </main>
  );
}

// The Register tab's selectors are loaded when it is opened (the sign-in screen's first load stays small).
const RegisterForm = lazy(() => import('./RegisterForm').then((m) => ({ default: m.RegisterForm })));
const ForgotPasswordForm = lazy(() => import('./ForgotPasswordForm').then((m) => ({ default: m.ForgotPasswordForm })));

/** After sign-in: drop whatever was cached while signed out and the CRM modal flag, then go home. */
export function useEnterApp() {
  const navigate = useNavigate();
  return () => {
    crmModalFlag.clear();
    resetEnvironment();
    navigate('/', { replace: true });
  };
}

function LoginForm({ onForgot }: { onForgot: (email: string) => void }) {
  const s = useAuthStyles();
  const notify = useNotify();
  const enter = useEnterApp();
  const [commit, busy] = useLoginMutation();
  // After a password reset, the account's e-mail comes along (ResetPasswordPage).
  const { state } = useLocation();
  const [email, setEmail] = useState(() => (state as { email?: string } | null)?.email ?? '');
  const [password, setPassword] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      await mutate(commit, { variables: { input: { email, password } } });
      notify({ ...LOGIN_SUCCESS, intent: 'success' });
      enter();
    } catch (err) {
      if (codeOf(err) === 'ACCOUNT_SUSPENDED') {
        notify({ ...accountSuspended(messageOf(err, '')), intent: 'error', timeout: 10_000 });
      } else {
        notify({ title: LOGIN_FAILED, body: messageOf(err, 'Invalid credentials'), intent: 'error' });
      }
    }
  }

  return (
    <form className={s.form} onSubmit={submit} aria-label="Login">
      <Field label="Email" required>
        <Input type="email" autoComplete="email" value={email} onChange={(_e, d) => setEmail(d.value)} required />
      </Field>
      <Field label="Password" required>
        <Input type="password" autoComplete="current-password" value={password} onChange={(_e, d) => setPassword(d.value)} required />
      </Field>
      <Button appearance="primary" type="submit" disabled={busy}>
        {busy ? 'Signing in...' : 'Sign In'}
      </Button>
      <Link as="button" type="button" onClick={() => onForgot(email)}>
        Forgot password?
      </Link>
    </form>
  );
}

