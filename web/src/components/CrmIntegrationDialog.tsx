// The CRM Integration modal (spec §2, §4, §5, §8): connection status, connect by OAuth (the browser
// goes to /api/auth/hubspot/authorize) or by a private-app token, switching method (with a warning:
// the new connection replaces the current one) and disconnecting.
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
  Input,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useState, type FormEvent } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { CrmIntegrationDialog_connection$key } from '../__generated__/CrmIntegrationDialog_connection.graphql';
import { messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useDisconnectCrmMutation } from '../mutations/DisconnectCrmMutation';
import { useSaveCrmTokenMutation } from '../mutations/SaveCrmTokenMutation';

export const OAUTH_START_PATH = '/api/auth/hubspot/authorize';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  scopes: { color: tokens.colorNeutralForeground3 },
});

type Method = 'oauth' | 'pat';
const METHOD_LABEL: Record<Method, string> = { oauth: 'OAuth', pat: 'API token' };

export function CrmIntegrationDialog({ open, onOpenChange, connection: key }: { open: boolean; onOpenChange: (open: boolean) => void; connection: CrmIntegrationDialog_connection$key }) {
  const s = useStyles();
  const notify = useNotify();
  const c = useFragment(
    graphql`
      fragment CrmIntegrationDialog_connection on CrmConnection {
        connected
        tokenType
        scopes
        crmType
        supported
        message
        revoked
      }
    `,
    key,
  );
  const current = (c.connected ? c.tokenType : null) as Method | null;
  const [method, setMethod] = useState<Method>(current ?? 'oauth');
  const [token, setToken] = useState('');
  const [saveToken, saving] = useSaveCrmTokenMutation();
  const [disconnect, disconnecting] = useDisconnectCrmMutation();

  useEffect(() => {
    if (open) {
      setMethod(current ?? 'oauth');
      setToken('');
    }
  }, [open, current]);

  const switching = current !== null && method !== current;

  async function submitToken(e: FormEvent) {
    e.preventDefault();
    const trimmed = token.trim();
    if (!trimmed) {
      notify({ title: 'Token required', body: 'Please enter your CRM API token.', intent: 'warning' });
      return;
    }
    try {
      await mutate(saveToken, { variables: { input: { token: trimmed } } });
      notify({ title: 'CRM Token saved', body: 'Your CRM is connected.', intent: 'success' });
      onOpenChange(false);
    } catch (err) {
      notify({ title: 'Failed to save token', body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  async function doDisconnect() {
    try {
      await mutate(disconnect, { variables: {} });
      notify({ title: 'Disconnected', body: 'Your CRM is no longer connected.', intent: 'success' });
    } catch {
      notify({ title: 'Disconnect Error', body: 'Failed to disconnect', intent: 'error' });
    }
  }

  return (
    <Dialog open={open} onOpenChange={(_e, d) => onOpenChange(d.open)}>
      <DialogSurface aria-describedby="crm-status">
        <DialogBody>
          <DialogTitle>CRM Integration</DialogTitle>
          <DialogContent className={s.body}>
            <div className={s.status} id="crm-status">
              <Text weight="semibold">Status:</Text>
              {c.connected ? (
                <Badge color="success" appearance="tint">
                  Connected via {METHOD_LABEL[current ?? 'pat']}
                </Badge>
              ) : (
                <Badge color="subtle" appearance="outline">
                  Not connected
                </Badge>
              )}
              {c.connected && c.scopes.length > 0 && (
                <Text size={200} className={s.scopes}>
                  Scopes: {c.scopes.join(', ')}
                </Text>
              )}
            </div>
            {c.revoked && !c.connected && (
              <MessageBar intent="warning">
                <MessageBarBody>The CRM revoked access for this app. Connect again to keep using your data.</MessageBarBody>
              </MessageBar>
            )}
            {!c.supported ? (
              <MessageBar intent="info">
                <MessageBarBody>{c.message}</MessageBarBody>
              </MessageBar>
            ) : (
              <>
                <Field label="Connection method">
                  <RadioGroup value={method} onChange={(_e, d) => setMethod(d.value as Method)} layout="horizontal">
                    <Radio value="oauth" label="OAuth (sign in to HubSpot)" />
                    <Radio value="pat" label="API token (private app)" />
                  </RadioGroup>
                </Field>
                {switching && (
                  <MessageBar intent="warning">
                    <MessageBarBody>
                      You are connected via {METHOD_LABEL[current!]}. Connecting via {METHOD_LABEL[method]} replaces the current connection.
                    </MessageBarBody>
                  </MessageBar>
                )}
                {method === 'oauth' ? (
                  <Text>You will be sent to HubSpot to approve read access to your contacts, then brought back here.</Text>
                ) : (
                  <form className={s.form} onSubmit={submitToken} id="crm-token-form">
                    <Field label="Private app access token" hint="Create one in HubSpot under Settings › Integrations › Private apps.">
                      <Input type="password" value={token} onChange={(_e, d) => setToken(d.value)} placeholder="pat-na1-…" autoComplete="off" />
                    </Field>
                  </form>
                )}
              </>
            )}
          </DialogContent>
          <DialogActions>
            {c.connected && (
              <Button onClick={doDisconnect} disabled={disconnecting}>
                {disconnecting ? 'Disconnecting...' : 'Disconnect'}
              </Button>
            )}
            <Button onClick={() => onOpenChange(false)}>Close</Button>
            {c.supported && method === 'oauth' && (
              <Button appearance="primary" onClick={() => window.location.assign(OAUTH_START_PATH)}>
                {switching || !c.connected ? 'Connect with HubSpot' : 'Reconnect with HubSpot'}
              </Button>
            )}
            {c.supported && method === 'pat' && (
              <Button appearance="primary" type="submit" form="crm-token-form" disabled={saving}>
                {saving ? 'Saving...' : 'Save token'}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
