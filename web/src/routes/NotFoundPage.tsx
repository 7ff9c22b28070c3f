import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';

const useStyles = makeStyles({
  root: { minHeight: '70vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: tokens.spacingVerticalL, textAlign: 'center' },
  code: { color: tokens.colorBrandForeground1 },
});

/** Unknown paths of signed-in users (spec §2). */
export function NotFoundPage() {
  const s = useStyles();
  const navigate = useNavigate();
  return (
    <section className={s.root}>
      <Text as="h1" size={800} weight="bold">
        <span className={s.code}>404</span> Page Not Found
      </Text>
      <Text>The page you are looking for does not exist.</Text>
      <Button appearance="primary" onClick={() => navigate('/')}>
        Back to the assistant
      </Button>
    </section>
  );
}
