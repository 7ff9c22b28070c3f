// One preset of the Smart Segments grid (spec §2, §4, §8): its category icon, name and criteria, and
// today's generated segment — "Not generated today", the error state, or the customer count with the
// impact score (1 decimal). Free categories unlock with "View Customers", locked ones after a
// confirmation; once unlocked, "Download Customer List" and "Open Customers" (the segment's customers
// in the app's results table, /smart-segments/:id). A star toggles the favourite.
import {
  Badge,
  Button,
  Card,
  CardFooter,
  CardHeader,
  ProgressBar,
  Spinner,
  Text,
  ToggleButton,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowClockwise20Regular,
  ArrowDownload20Regular,
  Broom20Regular,
  ErrorCircle20Regular,
  Gift20Regular,
  LockClosed20Regular,
  MoneyHand20Regular,
  Open20Regular,
  People20Regular,
  Sparkle20Regular,
  Star20Filled,
  Star20Regular,
  type FluentIcon,
} from '@fluentui/react-icons';
import { ConfirmDialog } from './ConfirmDialog';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import { useNavigate } from 'react-router-dom';
import type { SmartSegmentCard_daily$key } from '../__generated__/SmartSegmentCard_daily.graphql';
import type { SmartSegmentCard_preset$key } from '../__generated__/SmartSegmentCard_preset.graphql';
import { downloadComplete, segmentUnlocked, unlockLimitReached } from '../../../client/messages.js';
import { downloadSmartSegment, type DownloadProgress } from '../lib/download-smart-segment';
import { codeOf, detailsOf } from '../lib/errors';
import { formatCount } from '../lib/format';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useAddFavoritePresetMutation, useRemoveFavoritePresetMutation } from '../mutations/FavoritePresetMutations';
import { useUnlockSmartSegmentMutation } from '../mutations/UnlockSmartSegmentMutation';

/** Category icons by category name (spec §2); other categories get the generic sparkle. */
const CATEGORY_ICONS: Record<string, FluentIcon> = {
  free: Gift20Regular,
  favorites: Star20Regular,
  'added-revenue': MoneyHand20Regular,
  'operational-hygiene': Broom20Regular,
  reactivation: ArrowClockwise20Regular,
};
export const categoryIcon = (name: string): FluentIcon => CATEGORY_ICONS[name] ?? Sparkle20Regular;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, height: '100%', boxSizing: 'border-box' },
  icon: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '36px',
    height: '36px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    flexShrink: 0,
  },
  description: { color: tokens.colorNeutralForeground2, flexGrow: 1 },
  figures: { display: 'flex', gap: tokens.spacingHorizontalXL, alignItems: 'baseline', flexWrap: 'wrap' },
  figure: { display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { display: 'flex', gap: tokens.spacingHorizontalS, color: tokens.colorPaletteRedForeground1, alignItems: 'flex-start' },
  footer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginTop: 'auto', flexWrap: 'wrap' },
  progress: { flexGrow: 1, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
});

export function SmartSegmentCard(props: {
  preset: SmartSegmentCard_preset$key;
  daily: SmartSegmentCard_daily$key | null;
  /** The id of the note saying why unlocking is closed (the daily limit is reached), or null when it is open. */
  unlockClosedBy?: string | null;
}) {
  const s = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const preset = useFragment(
    graphql`
      fragment SmartSegmentCard_preset on SmartSegmentPreset {
        id
        presetId
        name
        description
        isFavorite
        category {
          name
          displayName
          isLocked
        }
      }
    `,
    props.preset,
  );
  const daily = useFragment(
    graphql`
      fragment SmartSegmentCard_daily on DailySegment {
        id
        segmentId
        date
        customerCount
        impactScore
        hasError
        errorMessage
        isUnlocked
      }
    `,
    props.daily,
  );
  const [unlock, unlocking] = useUnlockSmartSegmentMutation();
  const [addFavorite, adding] = useAddFavoritePresetMutation();
  const [removeFavorite, removing] = useRemoveFavoritePresetMutation();
  const [confirming, setConfirming] = useState(false);
  const [download, setDownload] = useState<DownloadProgress | null>(null);
  const Icon = categoryIcon(preset.category.name);
  const titleId = `preset-${preset.presetId}`;

  async function doUnlock() {
    if (!daily) return;
    setConfirming(false);
    try {
      await mutate(unlock, { variables: { input: { id: daily.id } } });
      notify({ ...segmentUnlocked(preset.name), intent: 'success' });
    } catch (err) {
      if (codeOf(err) === 'QUOTA_EXCEEDED') notify({ ...unlockLimitReached(detailsOf(err)), intent: 'warning' });
      else notify({ title: 'Failed to unlock', body: 'Please try again.', intent: 'error' });
    }
  }

  async function toggleFavorite() {
    const input = { presetId: preset.id };
    const on = !preset.isFavorite;
    try {
      if (on) await mutate(addFavorite, { variables: { input }, optimisticResponse: { addFavoritePreset: { preset: { id: preset.id, isFavorite: true } } } });
      else await mutate(removeFavorite, { variables: { input }, optimisticResponse: { removeFavoritePreset: { preset: { id: preset.id, isFavorite: false } } } });
      notify({ title: on ? 'Added to favorites' : 'Removed from favorites', body: preset.name, intent: 'success' });
    } catch {
      notify({ title: on ? 'Failed to favorite' : 'Failed to remove', body: 'Please try again.', intent: 'error' });
    }
  }

  async function doDownload() {
    if (!daily) return;
    try {
      const total = await downloadSmartSegment(daily, setDownload);
      notify({ ...downloadComplete(total), intent: 'success' });
    } catch {
      notify({ title: 'Download Failed', body: 'Please try again.', intent: 'error' });
    } finally {
      setDownload(null);
    }
  }

  const favoriteLabel = preset.isFavorite ? 'Remove from favorites' : 'Add to favorites';
  return (
    <Card className={s.card} role="article" aria-labelledby={titleId}>
      <CardHeader
        image={
          <span className={s.icon} aria-hidden>
            <Icon />
          </span>
        }
        header={
          <Text weight="semibold" id={titleId}>
            {preset.name}
          </Text>
        }
        description={
          <Text size={200} className={s.muted}>
            {preset.category.displayName}
            {preset.category.isLocked ? ' · Premium' : ''}
          </Text>
        }
        action={
          <Tooltip content={favoriteLabel} relationship="label" showDelay={500} hideDelay={200}>
            <ToggleButton
              appearance="transparent"
              checked={preset.isFavorite}
              icon={preset.isFavorite ? <Star20Filled primaryFill={tokens.colorPaletteMarigoldForeground1} /> : <Star20Regular />}
              onClick={toggleFavorite}
              disabled={adding || removing}
            />
          </Tooltip>
        }
      />
      <Text size={300} className={s.description}>
        {preset.description}
      </Text>
      {!daily ? (
        <Text className={s.muted}>Not generated today</Text>
      ) : daily.hasError ? (
        <div className={s.error} role="status">
          <ErrorCircle20Regular aria-hidden />
          <Text>{daily.errorMessage || 'This segment could not be generated today.'}</Text>
        </div>
      ) : (
        <div className={s.figures}>
          <div className={s.figure}>
            <Text size={600} weight="semibold">
              {formatCount(daily.customerCount)}
            </Text>
            <Text size={200} className={s.muted}>
              customers
            </Text>
          </div>
          <div className={s.figure}>
            <Text size={600} weight="semibold">
              {Number(daily.impactScore).toFixed(1)}
            </Text>
            <Text size={200} className={s.muted}>
              impact score
            </Text>
          </div>
          {daily.isUnlocked && (
            <Badge appearance="tint" color="success">
              Unlocked
            </Badge>
          )}
        </div>
      )}
      {daily && !daily.hasError && (
        <CardFooter className={s.footer}>
          {download ? (
            <div className={s.progress} role="status" aria-live="polite">
              {download.phase === 'fetching' ? (
                <Spinner size="tiny" label="Fetching customers from the CRM..." />
              ) : (
                <>
                  <Text size={200}>
                    Downloaded {formatCount(download.done)} of {formatCount(download.total)} customers...
                  </Text>
                  <ProgressBar value={download.total ? download.done / download.total : 0} aria-label="Download progress" />
                </>
              )}
            </div>
          ) : daily.isUnlocked ? (
            <>
              <Button appearance="primary" icon={<ArrowDownload20Regular />} onClick={doDownload}>
                Download Customer List
              </Button>
              <Button icon={<Open20Regular />} onClick={() => navigate(`/smart-segments/${daily.segmentId}`)}>
                Open Customers
              </Button>
            </>
          ) : preset.category.isLocked ? (
            <Button
              appearance="primary"
              icon={<LockClosed20Regular />}
              onClick={() => setConfirming(true)}
              disabled={unlocking}
              // closed at the limit but still focusable, so that the reason is read with it
              disabledFocusable={Boolean(props.unlockClosedBy)}
              aria-describedby={props.unlockClosedBy ?? undefined}
            >
              Unlock Segment
            </Button>
          ) : (
            <Button
              appearance="primary"
              icon={<People20Regular />}
              onClick={doUnlock}
              disabled={unlocking}
              disabledFocusable={Boolean(props.unlockClosedBy)}
              aria-describedby={props.unlockClosedBy ?? undefined}
            >
              View Customers
            </Button>
          )}
        </CardFooter>
      )}
      <ConfirmDialog open={confirming} title="Unlock segment" confirmLabel="Unlock" onConfirm={doUnlock} onCancel={() => setConfirming(false)}>
        Unlock &ldquo;{preset.name}&rdquo; ({daily ? formatCount(daily.customerCount) : 0} customers)? This uses one of your daily smart segment unlocks.
      </ConfirmDialog>
    </Card>
  );
}
