// Database maintenance over GraphQL (admin only): cleanup statistics, cleanup run, daily maintenance.
import { builder } from '../builder.js';
import { cleanupStats, parseRetentionDays, runCleanup, runDailyMaintenance } from '../services/maintenance.js';

export const CleanupStats = builder.simpleObject('CleanupStats', {
  fields: (t) => ({
    totalRecords: t.int(),
    retentionDays: t.int(),
    oldRecords: t.int({ description: 'Usage records dated before today minus retentionDays (in the usage time zone)' }),
    wouldDelete: t.int(),
    oldestRecordDate: t.field({ type: 'Date', nullable: true }),
  }),
});

export const CleanupResult = builder.simpleObject('RunCleanupPayload', {
  fields: (t) => ({
    message: t.string(),
    deletedCount: t.int(),
    retentionDays: t.int(),
  }),
});

export const MaintenanceTaskResult = builder.simpleObject('MaintenanceTaskResult', {
  fields: (t) => ({ name: t.string(), count: t.int() }),
});

export const MaintenanceSummary = builder.simpleObject('RunDailyMaintenancePayload', {
  fields: (t) => ({
    message: t.string(),
    retentionDays: t.int(),
    usageRecordsDeleted: t.int(),
    expiredSessionsDeleted: t.int(),
    loginAttemptsDeleted: t.int(),
    oauthStatesDeleted: t.int(),
    dailySegmentsDeleted: t.int(),
    tasks: t.field({ type: [MaintenanceTaskResult] }),
  }),
});

builder.queryField('cleanupStats', (t) =>
  t.field({
    type: CleanupStats,
    authScopes: { admin: true },
    description: 'Usage-record cleanup statistics; retentionDays defaults to 90 and must be 1 to 365',
    args: { retentionDays: t.arg.int({ required: false }) },
    resolve: (_r, { retentionDays }, ctx) => cleanupStats(ctx.deps, parseRetentionDays(retentionDays)),
  }),
);

const RunCleanupInput = builder.inputType('RunCleanupInput', {
  fields: (t) => ({ retentionDays: t.int({ required: false, description: '1 to 365; defaults to 90' }) }),
});

builder.mutationField('runCleanup', (t) =>
  t.field({
    type: CleanupResult,
    authScopes: { admin: true },
    args: { input: t.arg({ type: RunCleanupInput, required: false }) },
    resolve: (_r, { input }, ctx) => runCleanup(ctx.deps, parseRetentionDays(input?.retentionDays), { actor: ctx.user! }),
  }),
);

builder.mutationField('runDailyMaintenance', (t) =>
  t.field({
    type: MaintenanceSummary,
    authScopes: { admin: true },
    resolve: (_r, _a, ctx) => runDailyMaintenance(ctx.deps, { actor: ctx.user! }),
  }),
);
