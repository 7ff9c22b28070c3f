// The Admin console's Smart Segments tab (spec §2, §5, §7, §8): "Retrieve Segments" (with the live
// progress of the run from `generationProgress`) and "Clear Segments" (the first user of the users
// list, after a confirmation), then the Categories, Presets and Impact Formulas sub-tabs. After each
// change the tab's query is read again from the server (filtered lists included).
import { Button, Field, ProgressBar, Tab, TabList, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowSync20Regular, Eraser20Regular } from '@fluentui/react-icons';
import { useMemo, useState, useTransition } from 'react';
import { graphql, useLazyLoadQuery } from 'react-relay';
import type { SmartSegmentsTabQuery, SmartSegmentsTabQuery$variables } from '../../__generated__/SmartSegmentsTabQuery.graphql';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { messageOf } from '../../lib/errors';
import { mutate } from '../../lib/mutate';
import { useNotify } from '../../lib/toasts';
import { useClearSmartSegmentsMutation } from '../../mutations/ClearSmartSegmentsMutation';
import { useGenerateSmartSegmentsMutation } from '../../mutations/GenerateSmartSegmentsMutation';
import { CategoriesPanel } from './smart-segments/CategoriesPanel';
import { FormulasPanel } from './smart-segments/FormulasPanel';
import { PresetsPanel } from './smart-segments/PresetsPanel';
import { ALL } from './smart-segments/shared';
import { useGenerationRun } from './smart-segments/useGenerationRun';
import { NO_USER_TO_CLEAR, segmentsCleared, segmentsGenerated } from '../../../../client/messages.js';

const QUERY = graphql`
  query SmartSegmentsTabQuery($presetCategoryId: ID, $formulaCategoryId: ID) {
    adminSmartSegmentCategories {
      id
      displayName
      ...CategoriesPanel_categories
    }
    adminSmartSegmentPresets(categoryId: $presetCategoryId) {
      ...PresetsPanel_presets
    }
    adminImpactScoreFormulas(categoryId: $formulaCategoryId) {
      ...FormulasPanel_formulas
    }
    adminUsers(first: 1) {
      edges {
        node {
          id
          firstName
          lastName
          email
        }
      }
    }
  }
`;

const SUB_TABS = [
  { value: 'categories', label: 'Categories' },
  { value: 'presets', label: 'Presets' },
  { value: 'formulas', label: 'Impact Formulas' },
] as const;
type SubTab = (typeof SUB_TABS)[number]['value'];

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  headerText: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  progress: { flexBasis: '100%', maxWidth: '560px' },
  subTabs: { flexWrap: 'wrap' },
});

const nullIfAll = (v: string) => (v === ALL ? null : v);

export default function SmartSegmentsTab() {
  const s = useStyles();
  const notify = useNotify();
  const [presetFilter, setPresetFilter] = useState(ALL);
  const [formulaFilter, setFormulaFilter] = useState(ALL);
  const [pending, startTransition] = useTransition();
  const variables = useMemo<SmartSegmentsTabQuery$variables>(
    () => ({ presetCategoryId: nullIfAll(presetFilter), formulaCategoryId: nullIfAll(formulaFilter) }),
    [presetFilter, formulaFilter],
  );
  const data = useLazyLoadQuery<SmartSegmentsTabQuery>(QUERY, variables, { fetchPolicy: 'store-and-network' });
  const [subTab, setSubTab] = useState<SubTab>('categories');

  const categories = data.adminSmartSegmentCategories;
  const categoryOptions = useMemo(() => categories.map((c) => ({ id: c.id, displayName: c.displayName })), [categories]);

  // Filters change in a transition: the current table stays (dimmed) while the new list loads.
  const filterPresets = (v: string) => startTransition(() => setPresetFilter(v));
  const filterFormulas = (v: string) => startTransition(() => setFormulaFilter(v));
  const onCategoryDeleted = (id: string) =>
    startTransition(() => {
      setPresetFilter((f) => (f === id ? ALL : f));
      setFormulaFilter((f) => (f === id ? ALL : f));
    });

  return (
    <div className={s.root}>
      <div className={s.header}>
        <div className={s.headerText}>
          <Text as="h2" size={500} weight="semibold">
            Smart Segments
          </Text>
          <Text size={200} className={s.muted}>
            Categories, presets and impact score formulas of the daily segment ideas.
          </Text>
        </div>
        <GenerationControls firstUser={data.adminUsers.edges[0]?.node ?? null} notify={notify} />
      </div>
      <TabList size="small" className={s.subTabs} selectedValue={subTab} onTabSelect={(_e, d) => setSubTab(d.value as SubTab)} aria-label="Smart segment content">
        {SUB_TABS.map((t) => (
          <Tab key={t.value} value={t.value} id={`smart-segments-tab-${t.value}`} aria-controls="smart-segments-panel">
            {t.label}
          </Tab>
        ))}
      </TabList>
      <div id="smart-segments-panel" role="tabpanel" aria-labelledby={`smart-segments-tab-${subTab}`}>
        {subTab === 'categories' && <CategoriesPanel categories={categories} onDeleted={onCategoryDeleted} />}
        {subTab === 'presets' && (
          <PresetsPanel
            presets={data.adminSmartSegmentPresets}
            categories={categoryOptions}
            filter={presetFilter}
            onFilter={filterPresets}
            pending={pending}
          />
        )}
        {subTab === 'formulas' && (
          <FormulasPanel
            formulas={data.adminImpactScoreFormulas}
            categories={categoryOptions}
            filter={formulaFilter}
            onFilter={filterFormulas}
            pending={pending}
          />
        )}
      </div>
    </div>
  );
}

interface FirstUser {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
}

/** "Retrieve Segments" with live progress, and "Clear Segments" for the first user of the users list. */
function GenerationControls({ firstUser, notify }: { firstUser: FirstUser | null; notify: ReturnType<typeof useNotify> }) {
  const s = useStyles();
  const [generate, generating] = useGenerateSmartSegmentsMutation();
  const [clearSegments, clearing] = useClearSmartSegmentsMutation();
  // A run queued on the job workers ends with its last progress event: then the spec's toast.
  const run = useGenerationRun((last) => notify({ ...segmentsGenerated(last.successCount, last.users), intent: 'success' }));
  const progress = run.progress;
  // The user named in the confirmation stays set while the dialog closes (no flicker).
  const [clearTarget, setClearTarget] = useState<FirstUser | null>(null);
  const [confirmingClear, setConfirmingClear] = useState(false);

  async function retrieve() {
    run.clear();
    try {
      const r = await mutate(generate, { variables: {} });
      run.follow(r.generateSmartSegments.stats.runId); // the job workers generate; progress and the end come as events
      return;
    } catch (err) {
      notify({ title: 'Generation Failed', body: messageOf(err, 'Failed to generate smart segments'), intent: 'error' });
    }
    run.clear();
  }

  function askClear() {
    if (!firstUser) {
      notify({ title: NO_USER_TO_CLEAR, intent: 'warning' });
      return;
    }
    setClearTarget(firstUser);
    setConfirmingClear(true);
  }

  async function doClear() {
    const user = clearTarget;
    setConfirmingClear(false);
    if (!user) return;
    try {
      const r = await mutate(clearSegments, { variables: { input: { userId: user.id } } });
      notify({ ...segmentsCleared(r.clearSmartSegments.deletedCount), intent: 'success' });
    } catch (err) {
      notify({ title: 'Clear Failed', body: messageOf(err, 'Failed to clear smart segments'), intent: 'error' });
    }
  }

  const busy = generating || run.following;
  const running = busy || (progress !== null && !progress.done);
  const fraction = progress && progress.users > 0 ? Math.min(1, progress.completedUsers / progress.users) : undefined;
  return (
    <>
      <div className={s.buttons}>
        <Button appearance="primary" icon={<ArrowSync20Regular />} onClick={retrieve} disabled={busy}>
          {busy ? 'Generating...' : 'Retrieve Segments'}
        </Button>
        <Button icon={<Eraser20Regular />} onClick={askClear} disabled={clearing}>
          {clearing ? 'Clearing...' : 'Clear Segments'}
        </Button>
      </div>
      {running && (
        <Field
          className={s.progress}
          label="Generation progress"
          validationState="none"
          validationMessage={
            progress ? `${progress.completedUsers} of ${progress.users} ${progress.users === 1 ? 'user' : 'users'}, ${progress.totalSegments} ${progress.totalSegments === 1 ? 'segment' : 'segments'}` : 'Starting...'
          }
        >
          <ProgressBar value={fraction} thickness="large" />
        </Field>
      )}
      <ConfirmDialog
        open={confirmingClear}
        title="Clear segments"
        confirmLabel="Clear"
        danger
        onConfirm={doClear}
        onCancel={() => setConfirmingClear(false)}
      >
        {clearTarget
          ? `Clear today's generated smart segments of ${clearTarget.firstName} ${clearTarget.lastName} (${clearTarget.email})? This cannot be undone.`
          : null}
      </ConfirmDialog>
    </>
  );
}
