// The CRM Integration modal (spec §2, §4, §5, §8), for whichever CRM the user registered with: connection
// status, connect by OAuth (the browser goes to /api/auth/<crm>/authorize) or by the CRM's token method
// (the fields the server describes: a private-app token, a token with the org's instance URL, ...),
// switching method (with a warning: the new connection replaces the current one), disconnecting, and
// the connection's field map (which CRM field holds lifetime value, which values mean "customer").
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
  Select,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { CrmIntegrationDialog_connection$key } from '../__generated__/CrmIntegrationDialog_connection.graphql';
import { CRM_DISCONNECTED, CRM_DISCONNECT_FAILED, CRM_TOKEN_FAILED, CRM_TOKEN_REQUIRED, CRM_TOKEN_SAVED } from '../../../client/messages.js';
import { messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useDisconnectCrmMutation } from '../mutations/DisconnectCrmMutation';
import { useSaveCrmTokenMutation } from '../mutations/SaveCrmTokenMutation';
import { ContactImportPanel } from './ContactImportPanel';
import { CrmFieldMapEditor } from './CrmFieldMapEditor';

/** Where the browser starts a CRM's OAuth flow (the spec's path for HubSpot). */
export const oauthStartPath = (crmType: string, region?: string) => `/api/auth/${encodeURIComponent(crmType)}/authorize${region ? `?region=${encodeURIComponent(region)}` : ''}`;

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  scopes: { color: tokens.colorNeutralForeground3 },
  // the file's mapping and first rows need room
  wide: { maxWidth: 'min(960px, calc(100vw - 32px))', width: '100%' },
});

type Method = 'oauth' | 'pat' | 'file';
const METHOD_LABEL: Record<string, string> = { oauth: 'OAuth', pat: 'API token', file: 'an imported file' };
const FILE_METHOD_LABEL = 'Import a contacts file';

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
        crmLabel
        supported
        message
        revoked
        oauthAvailable
        tokenMethodLabel
        tokenMethodHelp
        tokenMethodFields {
          name
          label
          placeholder
          secret
          required
          options {
            value
            label
          }
        }
        ...CrmFieldMapEditor_connection
        ...ContactImportPanel_connection
      }
    `,
    key,
  );
  const current = (c.connected ? c.tokenType : null) as Method | null;
  // "Other" (and any CRM without a connector) connects through a contacts file only.
  const firstMethod: Method = !c.supported ? 'file' : c.oauthAvailable ? 'oauth' : 'pat';
  const [method, setMethod] = useState<Method>(current ?? firstMethod);
  const [values, setValues] = useState<Record<string, string>>({});
  const [saveToken, saving] = useSaveCrmTokenMutation();
  const [disconnect, disconnecting] = useDisconnectCrmMutation();
  const regionField = c.tokenMethodFields.find((f) => f.name === 'region');

  useEffect(() => {
    if (open) {
      setMethod(current ?? firstMethod);
      setValues(regionField?.options[0] ? { region: regionField.options[0].value } : {});
    }
  }, [open, current, firstMethod]);

  const switching = current !== null && method !== current;
  const imported = useCallback(() => onOpenChange(false), [onOpenChange]);

  async function submitToken(e: FormEvent) {
    e.preventDefault();
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]));
    if (!trimmed.token) {
      notify({ ...CRM_TOKEN_REQUIRED, intent: 'warning' });
      return;
    }
    const missing = c.tokenMethodFields.find((f) => f.required && !trimmed[f.name]);
    if (missing) {
      notify({ title: `${missing.label} required`, body: `Please enter the ${missing.label.toLowerCase()}.`, intent: 'warning' });
      return;
    }
    try {
      await mutate(saveToken, { variables: { input: { token: trimmed.token, instanceUrl: trimmed.instanceUrl || null, region: trimmed.region || null } } });
      notify({ ...CRM_TOKEN_SAVED, intent: 'success' });
      onOpenChange(false);
    } catch (err) {
      notify({ title: CRM_TOKEN_FAILED, body: messageOf(err, 'Please try again'), intent: 'error' });
    }
  }

  async function doDisconnect() {
    try {
      await mutate(disconnect, { variables: {} });
      notify({ ...CRM_DISCONNECTED, intent: 'success' });
    } catch {
      notify({ ...CRM_DISCONNECT_FAILED, intent: 'error' });
    }
  }

  return (
    <Dialog open={open} onOpenChange={(_e, d) => onOpenChange(d.open)}>
      <DialogSurface aria-describedby="crm-status" className={method === 'file' ? s.wide : undefined}>
        <DialogBody>
          <DialogTitle>CRM Integration</DialogTitle>
          <DialogContent className={s.body}>
            <div className={s.status} id="crm-status">
              <Text weight="semibold">Status:</Text>
              {c.supported && (
                <Badge color="informative" appearance="outline">
                  {c.crmLabel}
                </Badge>
              )}
              {c.connected ? (
                <Badge color="success" appearance="tint">
                  Connected via {METHOD_LABEL[current ?? 'pat']}
                </Badge>
              ) : (
                <Badge color="warning" appearance="tint">
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
                <MessageBarBody>{c.crmLabel} revoked access for this app. Connect again to keep using your data.</MessageBarBody>
              </MessageBar>
            )}
            {!c.supported ? (
              <>
                {!c.connected && (
                  <MessageBar intent="info">
                    <MessageBarBody>{c.message}</MessageBarBody>
                  </MessageBar>
                )}
                <ContactImportPanel connection={c} onImported={imported} />
              </>
            ) : (
              <>
                <Field label="Connection method">
                  <RadioGroup value={method} onChange={(_e, d) => setMethod(d.value as Method)} layout="horizontal">
                    {c.oauthAvailable && <Radio value="oauth" label={`OAuth (sign in to ${c.crmLabel})`} />}
                    <Radio value="pat" label={c.tokenMethodLabel ?? 'API token'} />
                    <Radio value="file" label={FILE_METHOD_LABEL} />
                  </RadioGroup>
                </Field>
                {switching && (
                  <MessageBar intent="warning">
                    <MessageBarBody>
                      You are connected via {METHOD_LABEL[current!]}.{' '}
                      {method === 'file'
                        ? `Importing a contacts file replaces the current connection.`
                        : `Connecting via ${METHOD_LABEL[method]} replaces the current connection${current === 'file' ? ' and removes your imported contacts' : ''}.`}
                    </MessageBarBody>
                  </MessageBar>
                )}
                {method === 'file' ? (
                  <ContactImportPanel connection={c} onImported={imported} />
                ) : method === 'oauth' ? (
                  <>
                    <Text>You will be sent to {c.crmLabel} to approve read access to your contacts, then brought back here.</Text>
                    {regionField && <RegionSelect field={regionField} value={values.region ?? ''} onChange={(v) => setValues({ ...values, region: v })} />}
                  </>
                ) : (
                  <form className={s.form} onSubmit={submitToken} id="crm-token-form">
                    {c.tokenMethodFields.map((f) =>
                      f.name === 'region' ? (
                        <RegionSelect key={f.name} field={f} value={values.region ?? ''} onChange={(v) => setValues({ ...values, region: v })} />
                      ) : (
                        <Field key={f.name} label={f.label} hint={f.name === 'token' ? (c.tokenMethodHelp ?? undefined) : undefined}>
                          <Input
                            type={f.secret ? 'password' : 'text'}
                            value={values[f.name] ?? ''}
                            onChange={(_e, d) => setValues({ ...values, [f.name]: d.value })}
                            placeholder={f.placeholder ?? undefined}
                            autoComplete="off"
                          />
                        </Field>
                      ),
                    )}
                  </form>
                )}
                {c.connected && current !== 'file' && method !== 'file' && (
                  <Suspense fallback={<Text>Loading {c.crmLabel}&apos;s fields...</Text>}>
                    <CrmFieldMapEditor connection={c} />
                  </Suspense>
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
              <Button appearance="primary" onClick={() => window.location.assign(oauthStartPath(c.crmType, values.region))}>
                {switching || !c.connected ? `Connect with ${c.crmLabel}` : `Reconnect with ${c.crmLabel}`}
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

function RegionSelect({ field, value, onChange }: { field: { label: string; options: readonly { value: string; label: string }[] }; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={field.label}>
      <Select value={value} onChange={(_e, d) => onChange(d.value)}>
        {field.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}
