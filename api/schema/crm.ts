// CRM connection over GraphQL: status, the token method (adapted per CRM), OAuth start URL, disconnect,
// the connection's field map and the CRM's fields to choose from.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { MAPPABLE_FIELD_KINDS, MAPPABLE_FIELDS, FIELD_LABELS, suggestFieldMap, effectiveFieldMap, type CrmFieldDescription } from '../crm/field-map.js';
import type { TokenMethodField } from '../crm/provider.js';
import { getProvider, isCrmSupported } from '../crm/registry.js';
import { requireBrowserSession, requireUser } from '../http/guards.js';
import { crmVocabularyValues } from '../services/crm-vocabulary.js';
import { connectionStatus, connectorForUser, disconnect, saveFieldMap, savePrivateAppToken, startOAuth, type ConnectionStatus } from '../services/crm.js';

const TokenMethodFieldType = builder.objectRef<TokenMethodField>('CrmTokenMethodField').implement({
  description: 'One input of the token method',
  fields: (t) => ({
    name: t.exposeString('name', { description: '"token", "instanceUrl" or "region": the key of SaveCrmTokenInput' }),
    label: t.exposeString('label'),
    placeholder: t.string({ nullable: true, resolve: (f) => f.placeholder ?? null }),
    secret: t.boolean({ resolve: (f) => Boolean(f.secret) }),
    required: t.exposeBoolean('required'),
    options: t.field({
      type: [builder.simpleObject('CrmTokenMethodOption', { fields: (o) => ({ value: o.string(), label: o.string() }) })],
      resolve: (f) => f.options ?? [],
    }),
  }),
});

const FieldMapEntry = builder.simpleObject('CrmFieldMapEntry', {
  description: 'Which CRM field holds one customer field',
  fields: (t) => ({
    field: t.string({ description: 'The customer field (lifetimeValue, lastPurchaseDate, ...)' }),
    label: t.string(),
    kind: t.string({ description: 'text, number, date or stage' }),
    crmField: t.string({ description: 'The CRM field in use (the default, or the connection\'s choice)' }),
    defaultCrmField: t.string(),
  }),
});

const StageMapEntry = builder.simpleObject('CrmStageMapEntry', {
  description: "Which stage one of the CRM's lifecycle values means",
  fields: (t) => ({ crmValue: t.string(), stage: t.string({ description: 'The detailed stage (lead, marketingqualifiedlead, customer, ...)' }) }),
});

export const CrmConnection = builder.objectRef<ConnectionStatus>('CrmConnection').implement({
  description: "The viewer's CRM connection",
  fields: (t) => ({
    // A stable id lets a client store merge the query result and every mutation payload.
    id: t.id({ resolve: (s) => encodeGlobalID('CrmConnection', s.userId) }),
    connected: t.exposeBoolean('connected'),
    hasToken: t.boolean({ description: 'Same as connected (the spec\'s token check)', resolve: (s) => s.connected }),
    tokenType: t.string({ nullable: true, description: '"oauth", "pat" or "file" (contacts imported from a file)', resolve: (s) => s.tokenType }),
    scopes: t.exposeStringList('scopes'),
    crmType: t.exposeString('crmType'),
    crmLabel: t.exposeString('crmLabel', { description: 'The CRM\'s name as the product writes it ("HubSpot", "Salesforce"; "your CRM" for Other)' }),
    supported: t.exposeBoolean('supported', { description: 'false when the product has no native connector for the CRM (its users import a contacts file)' }),
    message: t.string({ nullable: true, resolve: (s) => s.message ?? null }),
    accountId: t.string({ nullable: true, description: 'The CRM account (HubSpot portal, Salesforce org, ...)', resolve: (s) => s.accountId ?? null }),
    instanceUrl: t.string({ nullable: true, description: "The account's own API host, where the CRM has one", resolve: (s) => s.instanceUrl ?? null }),
    revoked: t.boolean({ description: 'The CRM revoked our access; connect again', resolve: (s) => Boolean(s.revoked) }),
    oauthAvailable: t.boolean({ description: 'OAuth can be used with this CRM on this server', resolve: (s) => s.methods.oauth }),
    tokenMethodLabel: t.string({ nullable: true, description: 'The spec\'s token method as this CRM has it ("Private app token", ...)', resolve: (s) => s.methods.token?.label ?? null }),
    tokenMethodHelp: t.string({ nullable: true, resolve: (s) => s.methods.token?.help ?? null }),
    tokenMethodFields: t.field({ type: [TokenMethodFieldType], resolve: (s) => s.methods.token?.fields ?? [] }),
    fieldMap: t.field({
      type: [FieldMapEntry],
      description: 'Which CRM field holds each customer field on this connection (empty for a CRM without a native connector)',
      resolve: (s) => {
        if (!isCrmSupported(s.crmType) || s.tokenType === 'file') return [];
        const defaults = getProvider(s.crmType).fieldMapDefaults;
        const map = effectiveFieldMap(defaults, s.fieldMapOverrides);
        return MAPPABLE_FIELDS.map((f) => ({ field: f, label: FIELD_LABELS[f], kind: MAPPABLE_FIELD_KINDS[f], crmField: map.fields[f], defaultCrmField: defaults.fields[f] }));
      },
    }),
    stageMap: t.field({
      type: [StageMapEntry],
      description: 'Which stage each of the CRM\'s lifecycle values means on this connection',
      resolve: (s) => {
        if (!isCrmSupported(s.crmType) || s.tokenType === 'file') return [];
        const map = effectiveFieldMap(getProvider(s.crmType).fieldMapDefaults, s.fieldMapOverrides);
        return Object.entries(map.stages).map(([crmValue, stage]) => ({ crmValue, stage }));
      },
    }),
  }),
});

builder.queryField('crmConnection', (t) =>
  t.field({
    type: CrmConnection,
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => connectionStatus(ctx.deps, requireUser(ctx)),
  }),
);

const CrmFieldType = builder.objectRef<CrmFieldDescription & { suggestedFor: string[] }>('CrmField').implement({
  description: "One of the CRM's own fields, as the CRM describes it",
  fields: (t) => ({
    name: t.exposeString('name'),
    label: t.exposeString('label'),
    kind: t.exposeString('kind', { description: 'text, number, date, stage or other' }),
    description: t.string({ nullable: true, resolve: (f) => f.description ?? null }),
    derived: t.boolean({ description: 'Computed by the connector (e.g. a sum of won deals), not a stored field', resolve: (f) => Boolean(f.derived) }),
    options: t.field({ type: [builder.simpleObject('CrmFieldOption', { fields: (o) => ({ value: o.string(), label: o.string() }) })], resolve: (f) => f.options ?? [] }),
    suggestedFor: t.exposeStringList('suggestedFor', { description: 'Customer fields this field looks like it holds, from its label and description' }),
  }),
});

builder.queryField('crmFields', (t) =>
  t.field({
    type: [CrmFieldType],
    description: "The connected CRM's fields (read from the CRM now), for choosing the field map",
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => {
      const connector = await connectorForUser(ctx.deps, requireUser(ctx));
      const fields = await connector.describeFields();
      const suggested = suggestFieldMap(connector.fieldMap, fields).fields ?? {};
      return fields.map((f) => ({ ...f, suggestedFor: Object.entries(suggested).filter(([, name]) => name === f.name).map(([field]) => field) }));
    },
  }),
);

const CrmVocabularyType = builder.simpleObject('CrmVocabulary', {
  description: "Values the viewer's CRM holds, most frequent first (at most 500 each), for suggestions while typing a question",
  fields: (t) => ({
    companies: t.stringList(),
    cities: t.stringList(),
    states: t.stringList(),
    countries: t.stringList(),
  }),
});

builder.queryField('crmVocabulary', (t) =>
  t.field({
    type: CrmVocabularyType,
    description: "The viewer's CRM values (companies, cities, states, countries) that the question parser resolves names against; empty lists when no CRM is connected",
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => crmVocabularyValues(ctx.deps, requireUser(ctx)),
  }),
);

const CrmConnectionPayload = (name: string) =>
  builder.simpleObject(name, { fields: (t) => ({ crmConnection: t.field({ type: CrmConnection }) }) });

builder.mutationField('saveCrmToken', (t) =>
  t.field({
    type: CrmConnectionPayload('SaveCrmTokenPayload'),
    description: "Verifies the CRM's token method (a private-app token, or a token with the org's instance URL, ...) and stores it encrypted (replaces the current connection)",
    authScopes: { authenticated: true },
    args: {
      input: t.arg({
        type: builder.inputType('SaveCrmTokenInput', {
          fields: (f) => ({
            token: f.string({ required: true }),
            instanceUrl: f.string({ description: "The org's instance URL, for CRMs whose token method needs it (Salesforce)" }),
            region: f.string({ description: "The CRM's data centre, for CRMs that have them (Zoho)" }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({
      crmConnection: await savePrivateAppToken(ctx.deps, requireUser(ctx), {
        token: input.token,
        ...(input.instanceUrl ? { instanceUrl: input.instanceUrl } : {}),
        ...(input.region ? { region: input.region } : {}),
      }),
    }),
  }),
);

builder.mutationField('startCrmOAuth', (t) =>
  t.field({
    type: builder.simpleObject('StartCrmOAuthPayload', {
      fields: (f) => ({ authorizeUrl: f.string({ description: 'Send the browser here; the CRM redirects back to /api/auth/<crm>/callback' }) }),
    }),
    authScopes: { authenticated: true },
    args: { region: t.arg.string({ description: "The CRM's data centre, for CRMs that have them (Zoho)" }) },
    resolve: async (_r, args, ctx) => ({
      authorizeUrl: await startOAuth(ctx.deps, requireUser(ctx), requireBrowserSession(ctx).id, { region: args.region ?? undefined }),
    }),
  }),
);

builder.mutationField('disconnectCrm', (t) =>
  t.field({
    type: CrmConnectionPayload('DisconnectCrmPayload'),
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => {
      const user = requireUser(ctx);
      await disconnect(ctx.deps, user);
      return { crmConnection: await connectionStatus(ctx.deps, user) };
    },
  }),
);

builder.mutationField('saveCrmFieldMap', (t) =>
  t.field({
    type: CrmConnectionPayload('SaveCrmFieldMapPayload'),
    description: "Chooses which CRM field holds each customer field and which lifecycle values mean which stage, for this connection (null: the CRM's defaults)",
    authScopes: { authenticated: true },
    args: {
      input: t.arg({
        type: builder.inputType('SaveCrmFieldMapInput', {
          fields: (f) => ({
            fields: f.field({
              type: [builder.inputType('CrmFieldChoice', { fields: (c) => ({ field: c.string({ required: true }), crmField: c.string({ required: true }) }) })],
              description: 'Customer field → CRM field; fields left out keep their default',
            }),
            stages: f.field({
              type: [builder.inputType('CrmStageChoice', { fields: (c) => ({ crmValue: c.string({ required: true }), stage: c.string({ required: true }) }) })],
              description: 'The whole stage map (replaces the default one); empty or left out: the default',
            }),
            reset: f.boolean({ description: "Back to the CRM's defaults" }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => {
      const overrides = input.reset
        ? null
        : {
            ...(input.fields?.length ? { fields: Object.fromEntries(input.fields.map((c) => [c.field, c.crmField])) } : {}),
            ...(input.stages?.length ? { stages: Object.fromEntries(input.stages.map((c) => [c.crmValue, c.stage])) } : {}),
          };
      return { crmConnection: await saveFieldMap(ctx.deps, requireUser(ctx), overrides) };
    },
  }),
);
