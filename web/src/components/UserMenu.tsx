// The user menu (spec §2): avatar with initials, name and email; the CRM status line; Profile, CRM
// Integration, Billing, Pay (sandbox) and Logout (clears cached data and the CRM-modal flag, then
// goes to /auth).
import {
  Avatar,
  Button,
  Menu,
  MenuDivider,
  MenuGroupHeader,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Text,
  makeStyles,
  tokens,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { Cart20Regular, Link20Regular, Payment20Regular, Person20Regular, SignOut20Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import { useNavigate } from 'react-router-dom';
import type { UserMenu_connection$key } from '../__generated__/UserMenu_connection.graphql';
import type { UserMenu_viewer$key } from '../__generated__/UserMenu_viewer.graphql';
import { useCheckout } from '../hooks/useCheckout';
import { mutate } from '../lib/mutate';
import { crmModalFlag } from '../lib/storage';
import { useNotify } from '../lib/toasts';
import { useLogoutMutation } from '../mutations/LogoutMutation';
import { expectSignOut, resetAfterSignedInScreens } from '../relay/environment';
import { markSignedOut } from '../routes/auth-check';

const useStyles = makeStyles({
  visuallyHidden: { position: 'absolute', width: '1px', height: '1px', margin: '-1px', padding: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 },
  trigger: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, maxWidth: '280px' },
  who: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', minWidth: 0, textAlign: 'left' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '200px' },
  email: { color: tokens.colorNeutralForeground3 },
  connected: { color: tokens.colorPaletteGreenForeground1 },
  notConnected: { color: tokens.colorNeutralForeground3 },
});

export function UserMenu(props: {
  viewer: UserMenu_viewer$key;
  connection: UserMenu_connection$key;
  onOpenCrm: () => void;
  /** The Smart Segments screen's menu has a Billing item without an action (spec §2). */
  billingAction?: boolean;
}) {
  const s = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const { start: checkout } = useCheckout();
  const [logout] = useLogoutMutation();
  const viewer = useFragment(
    graphql`
      fragment UserMenu_viewer on User {
        firstName
        lastName
        email
      }
    `,
    props.viewer,
  );
  const connection = useFragment(
    graphql`
      fragment UserMenu_connection on CrmConnection {
        connected
      }
    `,
    props.connection,
  );
  const name = `${viewer.firstName} ${viewer.lastName}`.trim();
  // A dialog opened from the menu (CRM Integration) returns focus here when it closes.
  const restoreFocusTarget = useRestoreFocusTarget();

  async function signOut() {
    expectSignOut(true);
    try {
      await mutate(logout, { variables: {} });
      crmModalFlag.clear();
      markSignedOut();
      // The cache is dropped once the signed-in screens are gone (they would refetch signed out).
      resetAfterSignedInScreens();
      await navigate('/auth', { replace: true });
    } catch {
      expectSignOut(false);
      notify({ title: 'Logout failed', body: 'Please try again.', intent: 'error' });
    }
  }

  return (
    <Menu positioning="below-end" hasIcons>
      <MenuTrigger disableButtonEnhancement>
        {/* The name is the visible text, then "User menu" (WCAG 2.5.3, axe label-content-name-mismatch:
            a voice user says what they see). The avatar repeats the name: hidden from assistive technology. */}
        <Button appearance="subtle" className={s.trigger} {...restoreFocusTarget}>
          <Avatar name={name} color="brand" size={32} aria-hidden />
          <span className={s.who}>
            <Text weight="semibold" size={300} className={s.ellipsis}>
              {name}
            </Text>
            <Text size={200} className={`${s.ellipsis} ${s.email}`}>
              {viewer.email}
            </Text>
          </span>
          <span className={s.visuallyHidden}>, User menu</span>
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuGroupHeader className={connection.connected ? s.connected : s.notConnected}>
            {connection.connected ? 'Connected to CRM' : 'Not connected to CRM'}
          </MenuGroupHeader>
          <MenuDivider />
          <MenuItem icon={<Person20Regular />} onClick={() => navigate('/profile')}>
            Profile
          </MenuItem>
          <MenuItem icon={<Link20Regular />} onClick={props.onOpenCrm}>
            CRM Integration
          </MenuItem>
          <MenuItem icon={<Payment20Regular />} onClick={props.billingAction === false ? undefined : checkout}>
            Billing
          </MenuItem>
          <MenuItem icon={<Cart20Regular />} onClick={checkout}>
            Pay (sandbox)
          </MenuItem>
          <MenuDivider />
          <MenuItem icon={<SignOut20Regular />} onClick={signOut}>
            Logout
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
