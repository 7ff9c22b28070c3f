// The authorization matrix, written down once: who may call every GraphQL root field, every
// subscription, every Node type through node(id), and every REST route. tests/api/authorization.test.ts
// derives the operations from schema.graphql and the app's route table and fails when one is missing
// here, so a new field or route cannot ship without a decision about who may use it.
//
// Access classes and what each role gets:
//   public   — everyone; never an auth error.
//   signedIn — anonymous and banned: UNAUTHENTICATED / 401; other user, owner, admin: allowed.
//   owner    — as signedIn, but on the owner's object: another user and the admin get NOT_FOUND / 404
//              (or null), exactly as for an id that does not exist.
//   admin    — anonymous and banned: UNAUTHENTICATED / 401; other user and owner: FORBIDDEN / 403.
//   signed   — authenticated by its own signature (the Paddle webhook): 401 for every role unsigned.
// "allowed" means: no UNAUTHENTICATED, FORBIDDEN, NOT_FOUND or internal error.

export type Access = 'public' | 'signedIn' | 'owner' | 'admin' | 'signed';
export const ROLES = ['anonymous', 'banned', 'other', 'owner', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface Fixtures {
  ownerEmail: string;
  password: string;
  adminEmail: string;
  adminPassword: string;
  query: { id: string; gid: string };
  savedSegment: { id: string; gid: string };
  /** A second saved segment for the REST routes (the GraphQL entries delete the first). */
  savedSegmentRest: { id: string; gid: string };
  daily: { id: string; gid: string };
  unlockedDaily: { id: string; gid: string };
  accessToken: { gid: string };
  preset: { id: string; gid: string };
  category: { id: string; gid: string };
  tier: { id: string; gid: string };
  victim: { id: string; gid: string };
  /** Uploaded contacts files of the owner: one to preview and import, one to discard. */
  contactImport: { id: string; gid: string };
  contactImportDiscard: { id: string; gid: string };
  /** Throwaway content that the admin deletes: one set for GraphQL, one for REST. */
  spare: Spare;
  spareRest: Spare;
}

export interface Spare {
  categoryId: string;
  categoryGid: string;
  presetId: string;
  presetGid: string;
  formulaId: string;
  formulaGid: string;
}

export interface GraphQLEntry {
  access: Access;
  document: string;
  variables?: (f: Fixtures) => Record<string, unknown>;
  /** Run with a new session of the role (the operation ends or changes its own credential). */
  freshSession?: boolean;
}

const unique = () => `m${Math.random().toString(36).slice(2, 10)}@example.com`;

export const GRAPHQL: Record<'Query' | 'Mutation' | 'Subscription', Record<string, GraphQLEntry>> = {
  Query: {
    authStatus: { access: 'public', document: '{ authStatus { authenticated } }' },
    registrationOptions: { access: 'public', document: '{ registrationOptions { crmTypes { value } } }' },
    segmentFields: { access: 'public', document: '{ segmentFields { field } }' },
    viewer: { access: 'public', document: '{ viewer { id } }' },
    node: { access: 'public', document: 'query($id: ID!) { node(id: $id) { id } }', variables: (f) => ({ id: f.query.gid }) },
    nodes: { access: 'public', document: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', variables: (f) => ({ ids: [f.query.gid, f.savedSegment.gid] }) },
    usage: { access: 'signedIn', document: '{ usage { chatQueriesUsed } }' },
    crmConnection: { access: 'signedIn', document: '{ crmConnection { connected } }' },
    crmFields: { access: 'signedIn', document: '{ crmFields { name } }' },
    crmVocabulary: { access: 'signedIn', document: '{ crmVocabulary { countries } }' },
    paddleConfig: { access: 'signedIn', document: '{ paddleConfig { environment } }' },
    personalAccessTokens: { access: 'signedIn', document: '{ personalAccessTokens { totalCount } }' },
    queryHistory: { access: 'signedIn', document: '{ queryHistory { totalCount } }' },
    savedSegments: { access: 'signedIn', document: '{ savedSegments { totalCount } }' },
    dailySegments: { access: 'signedIn', document: '{ dailySegments { totalCount } }' },
    dailySegmentsDay: { access: 'signedIn', document: '{ dailySegmentsDay { count } }' },
    smartSegmentCategories: { access: 'signedIn', document: '{ smartSegmentCategories { id } }' },
    smartSegmentPresets: { access: 'signedIn', document: 'query($c: ID) { smartSegmentPresets(categoryId: $c) { id } }', variables: (f) => ({ c: f.category.gid }) },
    customerQuery: { access: 'owner', document: 'query($id: ID!) { customerQuery(id: $id) { id } }', variables: (f) => ({ id: f.query.gid }) },
    contactImportPreview: {
      access: 'owner',
      document: 'query($id: ID!) { contactImportPreview(id: $id) { blocker } }',
      variables: (f) => ({ id: f.contactImport.gid }),
    },
    customerExport: {
      access: 'owner',
      document: 'query($id: ID!) { customerExport(source: $id, first: 5) { edges { node { id } } pageInfo { hasNextPage } } }',
      variables: (f) => ({ id: f.query.gid }),
    },
    adminUsers: { access: 'admin', document: '{ adminUsers { totalCount } }' },
    usageStats: { access: 'admin', document: '{ usageStats { totalUsers } }' },
    generationRun: { access: 'admin', document: '{ generationRun(id: "00000000-0000-4000-8000-000000000000") { done } }' },
    dailyUsageSeries: { access: 'admin', document: '{ dailyUsageSeries(days: 7) { date chatQueries } }' },
    pricingTiers: { access: 'admin', document: '{ pricingTiers { id } }' },
    adminSmartSegmentCategories: { access: 'admin', document: '{ adminSmartSegmentCategories { id } }' },
    adminSmartSegmentPresets: { access: 'admin', document: '{ adminSmartSegmentPresets { id } }' },
    adminImpactScoreFormulas: { access: 'admin', document: '{ adminImpactScoreFormulas { id } }' },
    validateImpactFormula: { access: 'admin', document: '{ validateImpactFormula(formula: "customerCount") { valid } }' },
    checkPresetDescription: { access: 'admin', document: '{ checkPresetDescription(description: "leads in Germany") { valid } }' },
    auditLog: { access: 'admin', document: '{ auditLog(first: 1) { totalCount } }' },
    cleanupStats: { access: 'admin', document: '{ cleanupStats { totalRecords } }' },
  },
  Mutation: {
    register: {
      access: 'public',
      document: 'mutation($input: RegisterInput!) { register(input: $input) { authStatus { authenticated } } }',
      variables: () => ({
        input: { firstName: 'M', lastName: 'X', email: unique(), crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' },
      }),
      freshSession: true,
    },
    login: {
      access: 'public',
      document: 'mutation($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }',
      variables: (f) => ({ input: { email: f.adminEmail, password: f.adminPassword } }),
      freshSession: true,
    },
    createPersonalAccessToken: {
      access: 'public',
      document: 'mutation($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { personalAccessToken { id } } }',
      variables: (f) => ({ input: { email: f.adminEmail, password: f.adminPassword, name: 'matrix' } }),
    },
    logout: { access: 'public', document: 'mutation { logout { authStatus { authenticated } } }', freshSession: true },
    requestPasswordReset: {
      access: 'public',
      document: 'mutation($input: RequestPasswordResetInput!) { requestPasswordReset(input: $input) { message } }',
      variables: () => ({ input: { email: unique() } }),
    },
    resetPassword: {
      access: 'public',
      document: 'mutation($input: ResetPasswordInput!) { resetPassword(input: $input) { email } }',
      variables: () => ({ input: { token: 'x'.repeat(43), newPassword: 'pw-123456-new', confirmPassword: 'pw-123456-new' } }),
    },
    sendPasswordReset: { access: 'admin', document: 'mutation($id: ID!) { sendPasswordReset(input: { userId: $id }) { user { id } } }', variables: (f) => ({ id: f.victim.gid }) },
    changePassword: {
      access: 'signedIn',
      document: 'mutation { changePassword(input: { currentPassword: "not-it", newPassword: "new-password-1", confirmPassword: "new-password-1" }) { viewer { id } } }',
    },
    saveCrmToken: { access: 'signedIn', document: 'mutation { saveCrmToken(input: { token: "pat-na1-not-a-real-token" }) { crmConnection { connected } } }' },
    startCrmOAuth: { access: 'signedIn', document: 'mutation { startCrmOAuth { authorizeUrl } }' },
    saveCrmFieldMap: { access: 'signedIn', document: 'mutation { saveCrmFieldMap(input: { reset: true }) { crmConnection { connected } } }' },
    disconnectCrm: { access: 'signedIn', document: 'mutation { disconnectCrm { crmConnection { connected } } }', freshSession: true },
    startContactImport: {
      access: 'owner',
      document: 'mutation($id: ID!) { startContactImport(input: { importId: $id, mapping: { columns: [{ index: 0, field: "email" }] } }) { contactImport { id } } }',
      variables: (f) => ({ id: f.contactImport.gid }),
    },
    discardContactImport: {
      access: 'owner',
      document: 'mutation($id: ID!) { discardContactImport(input: { importId: $id }) { deletedId } }',
      variables: (f) => ({ id: f.contactImportDiscard.gid }),
    },
    undoContactImport: { access: 'signedIn', document: 'mutation { undoContactImport { crmConnection { connected } } }' },
    runQuery: { access: 'signedIn', document: 'mutation { runQuery(input: { naturalLanguage: "leads in Canada" }) { resultCount } }' },
    createSavedSegment: { access: 'signedIn', document: 'mutation { createSavedSegment(input: { description: "leads in Canada" }) { savedSegment { id } } }' },
    addFavoritePreset: { access: 'signedIn', document: 'mutation($p: ID!) { addFavoritePreset(input: { presetId: $p }) { preset { id } } }', variables: (f) => ({ p: f.preset.gid }) },
    removeFavoritePreset: { access: 'signedIn', document: 'mutation($p: ID!) { removeFavoritePreset(input: { presetId: $p }) { preset { id } } }', variables: (f) => ({ p: f.preset.gid }) },
    rerunQuery: { access: 'owner', document: 'mutation($id: ID!) { rerunQuery(input: { queryId: $id }) { resultCount } }', variables: (f) => ({ id: f.query.gid }) },
    runSavedSegment: { access: 'owner', document: 'mutation($id: ID!) { runSavedSegment(input: { id: $id }) { resultCount } }', variables: (f) => ({ id: f.savedSegment.gid }) },
    processSavedSegment: { access: 'owner', document: 'mutation($id: ID!) { processSavedSegment(input: { id: $id }) { savedSegment { id } } }', variables: (f) => ({ id: f.savedSegment.gid }) },
    updateSavedSegment: {
      access: 'owner',
      document: 'mutation($id: ID!) { updateSavedSegment(input: { id: $id, name: "Canada leads" }) { savedSegment { id name } } }',
      variables: (f) => ({ id: f.savedSegment.gid }),
    },
    deleteSavedSegment: { access: 'owner', document: 'mutation($id: ID!) { deleteSavedSegment(input: { id: $id }) { deletedId } }', variables: (f) => ({ id: f.savedSegment.gid }) },
    unlockSmartSegment: { access: 'owner', document: 'mutation($id: ID!) { unlockSmartSegment(input: { id: $id }) { dailySegment { id } } }', variables: (f) => ({ id: f.daily.gid }) },
    smartSegmentCustomers: { access: 'owner', document: 'mutation($id: ID!) { smartSegmentCustomers(input: { id: $id }) { total } }', variables: (f) => ({ id: f.unlockedDaily.gid }) },
    revokePersonalAccessToken: { access: 'owner', document: 'mutation($id: ID!) { revokePersonalAccessToken(input: { id: $id }) { revokedId } }', variables: (f) => ({ id: f.accessToken.gid }) },
    banUser: { access: 'admin', document: 'mutation($id: ID!) { banUser(input: { userId: $id, reason: "matrix" }) { user { id } } }', variables: (f) => ({ id: f.victim.gid }) },
    unbanUser: { access: 'admin', document: 'mutation($id: ID!) { unbanUser(input: { userId: $id }) { user { id } } }', variables: (f) => ({ id: f.victim.gid }) },
    createPricingTier: {
      access: 'admin',
      document: 'mutation($n: String!) { createPricingTier(input: { name: $n, displayName: "M", chatQueryLimit: 1, smartSegmentLimit: 1, priceMonthly: "1", priceYearly: "1" }) { pricingTier { id } } }',
      variables: () => ({ n: `m${Math.random().toString(36).slice(2, 8)}` }),
    },
    updatePricingTier: { access: 'admin', document: 'mutation($id: ID!) { updatePricingTier(input: { id: $id, displayName: "Enterprise" }) { pricingTier { id } } }', variables: (f) => ({ id: f.tier.gid }) },
    createSmartSegmentCategory: {
      access: 'admin',
      document: 'mutation($n: String!) { createSmartSegmentCategory(input: { name: $n, displayName: "M" }) { category { id } } }',
      variables: () => ({ n: `m-${Math.random().toString(36).slice(2, 8)}` }),
    },
    deleteSmartSegmentCategory: { access: 'admin', document: 'mutation($id: ID!) { deleteSmartSegmentCategory(input: { id: $id }) { deletedId } }', variables: (f) => ({ id: f.spare.categoryGid }) },
    createSmartSegmentPreset: {
      access: 'admin',
      document: 'mutation($c: ID!, $n: String!) { createSmartSegmentPreset(input: { name: $n, categoryId: $c, description: "leads" }) { preset { id } } }',
      variables: (f) => ({ c: f.category.gid, n: `m-${Math.random().toString(36).slice(2, 8)}` }),
    },
    deleteSmartSegmentPreset: { access: 'admin', document: 'mutation($id: ID!) { deleteSmartSegmentPreset(input: { id: $id }) { deletedId } }', variables: (f) => ({ id: f.spare.presetGid }) },
    createImpactScoreFormula: {
      access: 'admin',
      document: 'mutation($c: ID!) { createImpactScoreFormula(input: { name: "M", categoryId: $c, formula: "customerCount" }) { formula { id } } }',
      variables: (f) => ({ c: f.category.gid }),
    },
    deleteImpactScoreFormula: { access: 'admin', document: 'mutation($id: ID!) { deleteImpactScoreFormula(input: { id: $id }) { deletedId } }', variables: (f) => ({ id: f.spare.formulaGid }) },
    generateSmartSegments: { access: 'admin', document: 'mutation { generateSmartSegments { stats { users } } }' },
    clearSmartSegments: { access: 'admin', document: 'mutation($id: ID!) { clearSmartSegments(input: { userId: $id }) { deletedCount } }', variables: (f) => ({ id: f.victim.gid }) },
    runCleanup: { access: 'admin', document: 'mutation { runCleanup(input: { retentionDays: 365 }) { deletedCount } }' },
    runDailyMaintenance: { access: 'admin', document: 'mutation { runDailyMaintenance { message } }' },
  },
  Subscription: {
    usageUpdated: { access: 'signedIn', document: 'subscription { usageUpdated { chatQueriesUsed } }' },
    dailySegmentsUpdated: { access: 'signedIn', document: 'subscription { dailySegmentsUpdated { done } }' },
    generationProgress: { access: 'admin', document: 'subscription { generationProgress { done } }' },
    contactImportProgress: { access: 'signedIn', document: 'subscription { contactImportProgress { done } }' },
    customerQueryUpdated: { access: 'owner', document: 'subscription($id: ID!) { customerQueryUpdated(id: $id) { id } }', variables: (f) => ({ id: f.query.gid }) },
  },
};

/** Node types through node(id): who sees an object of each type (owner = the user it belongs to). */
export const NODES: Record<string, Record<Role, boolean>> = {
  CustomerQuery: { owner: true, other: false, admin: false, anonymous: false, banned: false },
  SavedSegment: { owner: true, other: false, admin: false, anonymous: false, banned: false },
  DailySegment: { owner: true, other: false, admin: false, anonymous: false, banned: false },
  ChatMessage: { owner: true, other: false, admin: false, anonymous: false, banned: false },
  PersonalAccessToken: { owner: true, other: false, admin: false, anonymous: false, banned: false },
  User: { owner: true, other: false, admin: true, anonymous: false, banned: false },
  AuditLogEntry: { owner: false, other: false, admin: true, anonymous: false, banned: false },
  PricingTier: { owner: false, other: false, admin: true, anonymous: false, banned: false },
  ImpactScoreFormula: { owner: false, other: false, admin: true, anonymous: false, banned: false },
  SmartSegmentPreset: { owner: true, other: true, admin: true, anonymous: false, banned: false },
  SmartSegmentCategory: { owner: true, other: true, admin: true, anonymous: false, banned: false },
  ContactImport: { owner: true, other: false, admin: false, anonymous: false, banned: false },
};

export interface RestEntry {
  access: Access;
  /** The concrete path (route parameters filled from the fixtures). */
  path?: (f: Fixtures) => string;
  body?: (f: Fixtures) => unknown;
  freshSession?: boolean;
  /** Statuses that count as "allowed" besides 2xx and non-auth 4xx (e.g. a redirect). */
  unauthenticatedStatus?: number;
}

/** Keyed "METHOD /route/:param" exactly as the app's route table lists them. */
export const REST: Record<string, RestEntry> = {
  'GET /api/auth/status': { access: 'public' },
  'POST /api/auth/register': {
    access: 'public',
    body: () => ({ firstName: 'M', lastName: 'X', email: unique(), crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' }),
    freshSession: true,
  },
  'POST /api/auth/login': { access: 'public', body: (f) => ({ email: f.adminEmail, password: f.adminPassword }), freshSession: true },
  'POST /api/auth/logout': { access: 'public', freshSession: true },
  'POST /api/auth/forgot-password': { access: 'public', body: () => ({ email: unique() }) },
  'POST /api/auth/reset-password': { access: 'public', body: () => ({ token: 'x'.repeat(43), newPassword: 'pw-123456-new', confirmPassword: 'pw-123456-new' }) },
  'GET /api/admin/outbox': { access: 'admin' },
  'POST /api/admin/users/:userId/password-reset': { access: 'admin', path: (f) => `/api/admin/users/${f.victim.id}/password-reset` },
  'GET /api/auth/hubspot/authorize': { access: 'signedIn', unauthenticatedStatus: 302 },
  'GET /api/auth/hubspot/callback': { access: 'public' },
  'DELETE /api/auth/hubspot/disconnect': { access: 'signedIn', freshSession: true },
  'GET /api/auth/salesforce/authorize': { access: 'signedIn', unauthenticatedStatus: 302 },
  'GET /api/auth/salesforce/callback': { access: 'public' },
  'DELETE /api/auth/salesforce/disconnect': { access: 'signedIn', freshSession: true },
  'GET /api/auth/pipedrive/authorize': { access: 'signedIn', unauthenticatedStatus: 302 },
  'GET /api/auth/pipedrive/callback': { access: 'public' },
  'DELETE /api/auth/pipedrive/disconnect': { access: 'signedIn', freshSession: true },
  'GET /api/auth/zoho/authorize': { access: 'signedIn', unauthenticatedStatus: 302 },
  'GET /api/auth/zoho/callback': { access: 'public' },
  'DELETE /api/auth/zoho/disconnect': { access: 'signedIn', freshSession: true },
  'GET /api/crm/token': { access: 'signedIn' },
  'GET /api/crm/connection': { access: 'signedIn' },
  'POST /api/crm/token': { access: 'signedIn', body: () => ({ token: 'pat-na1-not-a-real-token' }) },
  'POST /api/crm/imports': { access: 'signedIn', body: () => ({ email: 'matrix@example.com' }) },
  'GET /api/usage/current': { access: 'signedIn' },
  'GET /api/paddle/config': { access: 'signedIn' },
  'POST /api/paddle/webhook': { access: 'signed', body: () => ({ event_type: 'transaction.completed' }) },
  'GET /api/queries': { access: 'signedIn' },
  'POST /api/queries': { access: 'signedIn', body: () => ({ naturalLanguage: 'leads in Canada' }) },
  'POST /api/queries/:id/rerun': { access: 'owner', path: (f) => `/api/queries/${f.query.id}/rerun` },
  'GET /api/queries/:id/messages': { access: 'owner', path: (f) => `/api/queries/${f.query.id}/messages` },
  'GET /api/customers': { access: 'signedIn' },
  'GET /api/segments': { access: 'signedIn' },
  'POST /api/segments': { access: 'signedIn', body: () => ({ description: 'leads in Canada' }) },
  'POST /api/segments/:id/run': { access: 'owner', path: (f) => `/api/segments/${f.savedSegmentRest.id}/run` },
  'POST /api/segments/:id/process': { access: 'owner', path: (f) => `/api/segments/${f.savedSegmentRest.id}/process` },
  'DELETE /api/segments/:id': { access: 'owner', path: (f) => `/api/segments/${f.savedSegmentRest.id}` },
  'GET /api/smart-segments/daily': { access: 'signedIn' },
  'GET /api/smart-segments/categories': { access: 'signedIn' },
  'GET /api/smart-segments/presets': { access: 'signedIn' },
  'GET /api/smart-segments/favorites': { access: 'signedIn' },
  'POST /api/smart-segments/favorites': { access: 'signedIn', body: (f) => ({ presetId: f.preset.id }) },
  'DELETE /api/smart-segments/favorites/:presetId': { access: 'signedIn', path: (f) => `/api/smart-segments/favorites/${f.preset.id}` },
  'POST /api/smart-segments/:id/unlock': { access: 'owner', path: (f) => `/api/smart-segments/${f.daily.id}/unlock` },
  'POST /api/smart-segments/:id/customers': { access: 'owner', path: (f) => `/api/smart-segments/${f.unlockedDaily.id}/customers` },
  'GET /api/admin/users': { access: 'admin' },
  'POST /api/admin/users/:userId/ban': { access: 'admin', path: (f) => `/api/admin/users/${f.victim.id}/ban`, body: () => ({ reason: 'matrix' }) },
  'POST /api/admin/users/:userId/unban': { access: 'admin', path: (f) => `/api/admin/users/${f.victim.id}/unban` },
  'GET /api/admin/usage-stats': { access: 'admin' },
  'GET /api/admin/pricing-tiers': { access: 'admin' },
  'POST /api/admin/pricing-tiers': {
    access: 'admin',
    body: () => ({ name: `r${Math.random().toString(36).slice(2, 8)}`, displayName: 'R', chatQueryLimit: 1, smartSegmentLimit: 1, priceMonthly: 1, priceYearly: 1 }),
  },
  'PUT /api/admin/pricing-tiers/:id': { access: 'admin', path: (f) => `/api/admin/pricing-tiers/${f.tier.id}`, body: () => ({ displayName: 'Enterprise' }) },
  'GET /api/admin/cleanup/stats': { access: 'admin' },
  'POST /api/admin/cleanup/run': { access: 'admin', body: () => ({ retentionDays: 365 }) },
  'POST /api/admin/maintenance/daily': { access: 'admin' },
  'POST /api/admin/smart-segments/generate': { access: 'admin' },
  'POST /api/admin/smart-segments/clear': { access: 'admin', body: (f) => ({ userId: f.victim.id }) },
  'GET /api/admin/smart-segments/categories': { access: 'admin' },
  'POST /api/admin/smart-segments/categories': { access: 'admin', body: () => ({ name: `r-${Math.random().toString(36).slice(2, 8)}`, displayName: 'R' }) },
  'DELETE /api/admin/smart-segments/categories/:id': { access: 'admin', path: (f) => `/api/admin/smart-segments/categories/${f.spareRest.categoryId}` },
  'GET /api/admin/smart-segments/presets': { access: 'admin' },
  'POST /api/admin/smart-segments/presets': {
    access: 'admin',
    body: (f) => ({ name: `r-${Math.random().toString(36).slice(2, 8)}`, categoryId: f.category.id, description: 'leads' }),
  },
  'DELETE /api/admin/smart-segments/presets/:id': { access: 'admin', path: (f) => `/api/admin/smart-segments/presets/${f.spareRest.presetId}` },
  'GET /api/admin/smart-segments/formulas': { access: 'admin' },
  'POST /api/admin/smart-segments/formulas': { access: 'admin', body: (f) => ({ name: 'R', categoryId: f.category.id, formula: 'customerCount' }) },
  'DELETE /api/admin/smart-segments/formulas/:id': { access: 'admin', path: (f) => `/api/admin/smart-segments/formulas/${f.spareRest.formulaId}` },
};
