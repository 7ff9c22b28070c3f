import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ShieldError24Regular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router-dom';

const useStyles = makeStyles({
  root: { minHeight: '70vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: tokens.spacingVerticalL, textAlign: 'center' },
  icon: { color: tokens.colorPaletteRedForeground1, fontSize: '48px' },
});

/** What a signed-in user who is not an administrator sees at /admin (spec §2). */
export function AccessDenied() {
  const s = useStyles();
  const navigate = useNavigate();
  return (
    <section className={s.root} aria-labelledby="access-denied">
      <ShieldError24Regular className={s.icon} aria-hidden />
      <Text as="h1" size={800} weight="semibold" id="access-denied">
        Access Denied
      </Text>
      <Text>You need administrator privileges to access this page.</Text>
      <Button appearance="primary" onClick={() => navigate('/')}>
        Back to Home
      </Button>
    </section>
  );
}
