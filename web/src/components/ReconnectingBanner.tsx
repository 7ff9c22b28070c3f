// Shown while the live connection that was up is down (server restarting, network lost): the screen
// stays as it was, data keeps coming by polling, and the banner goes once the websocket is back.
import { MessageBar, MessageBarBody, MessageBarTitle, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useLiveConnection } from '../lib/connection-state';

const useStyles = makeStyles({
  bar: { position: 'sticky', top: 0, zIndex: 10, borderRadius: 0, gap: tokens.spacingHorizontalS },
});

export function ReconnectingBanner() {
  const s = useStyles();
  const live = useLiveConnection();
  // Before the first connection "not live" only means "not connected yet": nothing to report.
  const [wasLive, setWasLive] = useState(live);
  useEffect(() => {
    if (live) setWasLive(true);
  }, [live]);
  if (live || !wasLive) return null;
  return (
    <MessageBar className={s.bar} intent="warning" icon={<Spinner size="extra-tiny" aria-label="Reconnecting" />} aria-live="polite">
      <MessageBarBody>
        <MessageBarTitle>Reconnecting...</MessageBarTitle>
        The connection to the server was lost. Live updates are paused; usage and segments are refreshed every few seconds until it is back.
      </MessageBarBody>
    </MessageBar>
  );
}
