// A contact of the results, opened from its row: every field the product holds for it and a link
// to the record in the CRM (when the CRM has a page for it). A modal drawer: Escape or Close returns
// focus to the row's name that opened it.
import {
  Badge,
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  Link,
  OverlayDrawer,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Dismiss24Regular, Open16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { displayName, formatDate, formatMoney, relativeTime } from '../../lib/format';
import { stageLabel } from './stage';

export interface ContactDetails {
  id: string;
  firstName: string | null | undefined;
  lastName: string | null | undefined;
  email: string | null | undefined;
  company: string | null | undefined;
  lifecycleStage: string;
  lastPurchaseDate: string | null | undefined;
  lastPurchaseAmount: number | null | undefined;
  lifetimeValue: number | null | undefined;
  city: string | null | undefined;
  state: string | null | undefined;
  country: string | null | undefined;
  crmUrl?: string | null;
}

const useStyles = makeStyles({
  list: { display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'break-word' },
  crm: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, marginTop: tokens.spacingVerticalL },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function ContactDrawer({ contact, crmLabel, onClose }: { contact: ContactDetails | null; crmLabel: string; onClose: () => void }) {
  const s = useStyles();
  const c = contact;
  const rows: [string, ReactNode][] = c
    ? [
        ['First name', c.firstName || '-'],
        ['Last name', c.lastName || '-'],
        ['Email', c.email ? <Link href={`mailto:${c.email}`}>{c.email}</Link> : '-'],
        ['Company', c.company || '-'],
        ['Lifecycle stage', <Badge appearance="tint" key="stage">{stageLabel(c.lifecycleStage)}</Badge>],
        ['City', c.city || '-'],
        ['State', c.state || '-'],
        ['Country', c.country || '-'],
        ['Lifetime value', formatMoney(c.lifetimeValue)],
        ['Last purchase', c.lastPurchaseDate ? `${formatDate(c.lastPurchaseDate)} (${relativeTime(c.lastPurchaseDate)})` : 'Never'],
        ['Last purchase amount', formatMoney(c.lastPurchaseAmount)],
        [`${crmLabel} record id`, c.id],
      ]
    : [];
  return (
    <OverlayDrawer open={c !== null} position="end" size="small" onOpenChange={(_e, d) => !d.open && onClose()} aria-label={c ? `Contact ${displayName(c)}` : 'Contact'}>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label="Close" icon={<Dismiss24Regular />} onClick={onClose} />}>
          {c ? displayName(c) : ''}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        {c && (
          <>
            <dl className={s.list}>
              {rows.map(([term, value]) => (
                <div key={term} style={{ display: 'contents' }}>
                  <dt className={s.term}>{term}</dt>
                  <dd className={s.value}>{value}</dd>
                </div>
              ))}
            </dl>
            {c.crmUrl ? (
              <Link href={c.crmUrl} target="_blank" rel="noopener noreferrer" className={s.crm}>
                Open in {crmLabel}
                <Open16Regular aria-hidden />
              </Link>
            ) : (
              <Text as="p" className={s.muted}>
                {crmLabel} has no page to link to for this contact.
              </Text>
            )}
          </>
        )}
      </DrawerBody>
    </OverlayDrawer>
  );
}
