// Pricing tiers over GraphQL (administrators): list, create, edit.
import { builder } from '../builder.js';
import { decimalString } from '../format.js';
import { createPricingTier, pricingTierListArgs, updatePricingTier } from '../services/pricing-tiers.js';
import { nodeAccess } from './node-access.js';

export const PricingTierNode = builder.prismaNode('PricingTier', {
  id: { field: 'id' },
  findUnique: nodeAccess('PricingTier', 'admin'),
  nullable: true,
  fields: (t) => ({
    tierId: t.exposeString('id', { description: 'The raw tier id (uuid)' }),
    name: t.exposeString('name'),
    displayName: t.exposeString('displayName'),
    chatQueryLimit: t.exposeInt('chatQueryLimit', { description: 'Chat queries per day' }),
    smartSegmentLimit: t.exposeInt('smartSegmentLimit', { description: 'Smart-segment unlocks per day' }),
    priceMonthly: t.string({ description: 'Two-decimal string, e.g. "49.00"', resolve: (p) => decimalString(p.priceMonthly)! }),
    priceYearly: t.string({ description: 'Two-decimal string, e.g. "490.00"', resolve: (p) => decimalString(p.priceYearly)! }),
    isActive: t.exposeBoolean('isActive'),
    paddlePriceIdMonthly: t.exposeString('paddlePriceIdMonthly', { nullable: true }),
    paddlePriceIdYearly: t.exposeString('paddlePriceIdYearly', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('pricingTiers', (t) =>
  t.prismaField({
    type: ['PricingTier'],
    authScopes: { admin: true },
    description: 'All pricing tiers, inactive ones included',
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.pricingTier.findMany({ ...query, ...pricingTierListArgs() }),
  }),
);

const TierPayload = (name: string) => builder.simpleObject(name, { fields: (t) => ({ pricingTier: t.field({ type: PricingTierNode }) }) });

builder.mutationField('createPricingTier', (t) =>
  t.field({
    type: TierPayload('CreatePricingTierPayload'),
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('CreatePricingTierInput', {
          fields: (f) => ({
            name: f.string({ required: true, description: 'Lowercase slug, e.g. pro; cannot be changed later' }),
            displayName: f.string({ required: true }),
            chatQueryLimit: f.int({ required: true }),
            smartSegmentLimit: f.int({ required: true }),
            priceMonthly: f.string({ required: true, description: 'Decimal with at most two decimals, e.g. "49.00"' }),
            priceYearly: f.string({ required: true }),
            isActive: f.boolean({ description: 'Default true; cannot be changed later' }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({
      pricingTier: await createPricingTier(ctx.deps, ctx.user!, { ...input, isActive: input.isActive ?? undefined }),
    }),
  }),
);

builder.mutationField('updatePricingTier', (t) =>
  t.field({
    type: TierPayload('UpdatePricingTierPayload'),
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('UpdatePricingTierInput', {
          description: 'Name and active flag of a tier cannot be changed; omitted fields are kept',
          fields: (f) => ({
            id: f.globalID({ required: true, for: PricingTierNode }),
            displayName: f.string(),
            chatQueryLimit: f.int(),
            smartSegmentLimit: f.int(),
            priceMonthly: f.string(),
            priceYearly: f.string(),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => {
      const { id, ...fields } = input;
      const data = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
      return { pricingTier: await updatePricingTier(ctx.deps, ctx.user!, id.id, data) };
    },
  }),
);
