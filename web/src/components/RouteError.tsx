// Error boundaries. A screen's failure shows in place of the screen; an uncaught error anywhere
// shows the spec's global error screen: "Something went wrong" with "Refresh Page".
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useRouteError } from 'react-router-dom';
import { GraphQLClientError } from '../../../client/errors.js';

const useStyles = makeStyles({
  global: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXXL,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  local: {
    margin: tokens.spacingHorizontalXXL,
    maxWidth: '720px',
    padding: tokens.spacingHorizontalL,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorStatusDangerBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorStatusDangerBorder1}`,
  },
});

export function RouteError({ global = false }: { global?: boolean }) {
  const error = useRouteError();
  const s = useStyles();
  // The server's own words when it refused something; a generic sentence for everything else
  // (a failed download of the screen's code, a bug), whose details are of no use to the user.
  const detail = error instanceof GraphQLClientError && !error.isServerProblem ? error.message : undefined;
  if (global) {
    return (
      <main className={s.global}>
        <Text as="h1" size={800} weight="semibold">
          Something went wrong
        </Text>
        <Text>An unexpected error occurred. Refreshing the page usually helps.</Text>
        <Button appearance="primary" onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
      </main>
    );
  }
  return (
    <div className={s.local} role="alert">
      <Text weight="semibold">Something went wrong</Text>
      <Text>{detail ?? 'This screen could not be loaded. Check your connection, then refresh the page.'}</Text>
      <Button onClick={() => window.location.reload()}>Refresh Page</Button>
    </div>
  );
}
