// Smart-segment content (administrator): categories, presets (natural-language criteria) and impact
// score formulas. Deletions are permanent: a category with presets cannot be deleted (the database
// restricts it too), deleting a category removes its formulas, deleting a preset removes its
// favourites and generated segments (database cascades).
import { Prisma, type ImpactScoreFormula, type SmartSegmentCategory, type SmartSegmentPreset, type User } from '@prisma/client';
import { z } from 'zod';
import { AppError, assertId, notFound } from '../../errors.js';
import { clarificationFor, explainSegment } from '../../segmentation/index.js';
import { recordAudit } from '../audit.js';
import { parseQuestion, unattendedProblem } from '../nl-parser.js';
import { parseInput } from '../validation.js';
import type { ServiceDeps } from '../deps.js';
import { validateFormula } from './impact-score.js';

const text = (label: string, max: number) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);
const sortOrder = z
  .number({ error: 'Sort order must be a whole number' })
  .int('Sort order must be a whole number')
  .min(-1_000_000, 'Sort order is out of range')
  .max(1_000_000, 'Sort order is out of range')
  .default(0);
const flag = (label: string, dflt: boolean) => z.boolean({ error: `${label} must be true or false` }).default(dflt);
const categoryIdField = z.string({ error: 'Category is required' }).trim().min(1, 'Category is required');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isKnown = (err: unknown, code: string) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === code;

// ---------------------------------------------------------------------------------------------
// Categories

const categorySchema = z.object({
  name: text('Name', 50)
    .toLowerCase()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Name must be a lowercase slug (letters, digits and dashes), e.g. added-revenue'),
  displayName: text('Display name', 100),
  description: optionalText('Description', 500),
  isLocked: flag('isLocked', true),
  sortOrder,
  isActive: flag('isActive', true),
});

export const CATEGORY_ORDER = [{ sortOrder: 'asc' }, { name: 'asc' }] satisfies Prisma.SmartSegmentCategoryOrderByWithRelationInput[];

export function listCategories(deps: ServiceDeps): Promise<SmartSegmentCategory[]> {
  return deps.prisma.smartSegmentCategory.findMany({ orderBy: CATEGORY_ORDER });
}

export async function createCategory(deps: ServiceDeps, actor: User, input: unknown): Promise<SmartSegmentCategory> {
  const data = parseInput(categorySchema, input);
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const category = await tx.smartSegmentCategory.create({ data: { ...data, createdAt: deps.now() } });
      await recordAudit(
        deps,
        { actorId: actor.id, action: 'smartSegmentCategory.create', targetType: 'SmartSegmentCategory', targetId: category.id, details: data },
        tx,
      );
      return category;
    });
  } catch (err) {
    if (isKnown(err, 'P2002')) throw new AppError('CONFLICT', `A category named ${data.name} already exists`, { field: 'name' });
    throw err;
  }
}

/**
 * Deletes a category and its formulas (cascade). A category with presets is refused by the
 * database itself (presets → category is ON DELETE RESTRICT); that refusal becomes a 409.
 */
export async function deleteCategory(deps: ServiceDeps, actor: User, categoryId: string): Promise<SmartSegmentCategory> {
  assertId(categoryId, 'Category');
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const category = await tx.smartSegmentCategory.findUnique({ where: { id: categoryId } });
      if (!category) throw notFound('Category not found');
      const { _count, ...deleted } = await tx.smartSegmentCategory.delete({
        where: { id: categoryId },
        include: { _count: { select: { formulas: true } } },
      });
      await recordAudit(
        deps,
        {
          actorId: actor.id,
          action: 'smartSegmentCategory.delete',
          targetType: 'SmartSegmentCategory',
          targetId: categoryId,
          details: { name: deleted.name, formulasDeleted: _count.formulas },
        },
        tx,
      );
      return deleted;
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      const n = await deps.prisma.smartSegmentPreset.count({ where: { categoryId } });
      throw new AppError('CONFLICT', `This category has ${n} ${n === 1 ? 'preset' : 'presets'}. Delete or move them before deleting the category.`);
    }
    throw err;
  }
}

/**
 * A foreign-key violation: Prisma's P2003 (SQLSTATE 23503), or SQLSTATE 23001, which PostgreSQL 17 —
 * the embedded PGlite — raises for ON DELETE RESTRICT and the pg adapter passes on unmapped.
 */
export const isForeignKeyViolation = (err: unknown): boolean => isKnown(err, 'P2003') || ['23001', '23503'].includes(sqlState(err) ?? '');

/** The SQLSTATE of a database error the driver adapter did not map (DriverAdapterError.cause.code). */
function sqlState(err: unknown): string | undefined {
  const cause = (err as { name?: unknown; cause?: unknown } | null)?.cause as { kind?: unknown; code?: unknown } | undefined;
  return (err as { name?: unknown } | null)?.name === 'DriverAdapterError' && cause?.kind === 'postgres' && typeof cause.code === 'string' ? cause.code : undefined;
}

async function requireCategory(deps: ServiceDeps, categoryId: string): Promise<SmartSegmentCategory> {
  const category = UUID.test(categoryId) ? await deps.prisma.smartSegmentCategory.findUnique({ where: { id: categoryId } }) : null;
  if (!category) throw new AppError('BAD_USER_INPUT', 'The selected category does not exist', { field: 'categoryId' });
  return category;
}

function categoryFilter(categoryId: string | null | undefined): { categoryId?: string } {
  if (categoryId === undefined || categoryId === null || categoryId === '') return {};
  if (!UUID.test(categoryId)) throw new AppError('BAD_USER_INPUT', 'categoryId must be a category id', { field: 'categoryId' });
  return { categoryId };
}

// ---------------------------------------------------------------------------------------------
// Presets

const presetSchema = z.object({
  name: text('Name', 200),
  categoryId: categoryIdField,
  description: text('Description', 500),
  sortOrder,
  isActive: flag('isActive', true),
  defaultQuery: z
    .record(z.string(), z.unknown(), { error: 'defaultQuery must be an object or null' })
    .nullish()
    .transform((v) => v ?? null),
});

export const PRESET_ORDER = [
  { category: { sortOrder: 'asc' } },
  { sortOrder: 'asc' },
  { name: 'asc' },
] satisfies Prisma.SmartSegmentPresetOrderByWithRelationInput[];

/** Arguments of the preset list (inactive presets included), shared by REST and GraphQL. */
export const presetListArgs = (filter: { categoryId?: string | null } = {}) => ({
  where: categoryFilter(filter.categoryId),
  orderBy: PRESET_ORDER,
});

export function listPresets(deps: ServiceDeps, filter: { categoryId?: string | null } = {}): Promise<SmartSegmentPreset[]> {
  return deps.prisma.smartSegmentPreset.findMany(presetListArgs(filter));
}

/** The parser's reading of a preset's criteria, as the Create Preset form shows it while the admin types. */
export interface PresetDescriptionCheck {
  /** the daily generation can run it: every phrase understood, no contradiction */
  valid: boolean;
  /** why it cannot (the message creating the preset gives), or null */
  message: string | null;
  /** what was understood, in words ("Customers · lifetime value over $5,000"), or null when nothing was */
  understood: string | null;
  /** what the parser had to choose (a place that is a city and a state, ...): runs as understood, worth a look */
  notes: string[];
}

/**
 * Reads a preset's description with the question parser, by the rules of the daily generation
 * (generate.ts parses it unattended): a description it cannot run is refused before it is saved.
 */
export async function checkPresetDescription(deps: ServiceDeps, description: string): Promise<PresetDescriptionCheck> {
  const text = description.trim();
  if (!text) return { valid: false, message: 'Description is required', understood: null, notes: [] };
  const opts = { now: deps.now(), timeZone: deps.config.usageTimeZone };
  const result = await parseQuestion(deps, text);
  const { segment } = result;
  const understood = segment.where || segment.sort || segment.limit !== undefined ? explainSegment(segment, opts) : null;
  const problem = unattendedProblem(deps, result);
  const notes = (clarificationFor(result, opts)?.issues ?? []).filter((i) => i.kind !== 'not-understood' && i.kind !== 'contradiction').map((i) => i.message);
  return { valid: !problem, message: problem?.message ?? null, understood, notes };
}

export async function createPreset(deps: ServiceDeps, actor: User, input: unknown): Promise<SmartSegmentPreset> {
  const { defaultQuery, ...data } = parseInput(presetSchema, input);
  const check = await checkPresetDescription(deps, data.description);
  if (!check.valid) throw new AppError('BAD_USER_INPUT', check.message ?? 'The description cannot be run', { field: 'description' });
  const category = await requireCategory(deps, data.categoryId);
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const preset = await tx.smartSegmentPreset.create({
        data: { ...data, defaultQuery: defaultQuery === null ? Prisma.DbNull : (defaultQuery as Prisma.InputJsonObject), createdAt: deps.now() },
      });
      await recordAudit(
        deps,
        {
          actorId: actor.id,
          action: 'smartSegmentPreset.create',
          targetType: 'SmartSegmentPreset',
          targetId: preset.id,
          details: { name: preset.name, category: category.name, description: preset.description },
        },
        tx,
      );
      return preset;
    });
  } catch (err) {
    if (isKnown(err, 'P2002')) {
      throw new AppError('CONFLICT', `A preset named ${data.name} already exists in the category ${category.displayName}`, { field: 'name' });
    }
    if (isForeignKeyViolation(err)) throw new AppError('BAD_USER_INPUT', 'The selected category does not exist', { field: 'categoryId' });
    throw err;
  }
}

/** Deletes a preset; its favourites and generated daily segments go with it (database cascade). */
export async function deletePreset(deps: ServiceDeps, actor: User, presetId: string): Promise<SmartSegmentPreset> {
  assertId(presetId, 'Preset');
  return deps.prisma.$transaction(async (tx) => {
    const preset = await tx.smartSegmentPreset.findUnique({
      where: { id: presetId },
      include: { _count: { select: { favorites: true, dailySegments: true } } },
    });
    if (!preset) throw notFound('Preset not found');
    const { _count, ...deleted } = preset;
    await tx.smartSegmentPreset.delete({ where: { id: presetId } });
    await recordAudit(
      deps,
      {
        actorId: actor.id,
        action: 'smartSegmentPreset.delete',
        targetType: 'SmartSegmentPreset',
        targetId: presetId,
        details: { name: preset.name, favoritesDeleted: _count.favorites, dailySegmentsDeleted: _count.dailySegments },
      },
      tx,
    );
    return deleted;
  });
}

// ---------------------------------------------------------------------------------------------
// Impact score formulas

const formulaSchema = z.object({
  name: text('Name', 200),
  categoryId: categoryIdField,
  description: optionalText('Description', 500),
  formula: z.string({ error: 'Formula is required' }).trim().min(1, 'Formula is required'),
  isActive: flag('isActive', false),
});

export const FORMULA_ORDER = [
  { category: { sortOrder: 'asc' } },
  { isActive: 'desc' },
  { createdAt: 'asc' },
  { id: 'asc' },
] satisfies Prisma.ImpactScoreFormulaOrderByWithRelationInput[];

/** Arguments of the formula list, shared by REST and GraphQL. */
export const formulaListArgs = (filter: { categoryId?: string | null } = {}) => ({
  where: categoryFilter(filter.categoryId),
  orderBy: FORMULA_ORDER,
});

export function listFormulas(deps: ServiceDeps, filter: { categoryId?: string | null } = {}): Promise<ImpactScoreFormula[]> {
  return deps.prisma.impactScoreFormula.findMany(formulaListArgs(filter));
}

/**
 * Validates and stores a formula with the variables it uses. An active formula becomes the only
 * active one of its category (the others are deactivated in the same transaction).
 */
export async function createFormula(deps: ServiceDeps, actor: User, input: unknown): Promise<ImpactScoreFormula> {
  const data = parseInput(formulaSchema, input);
  const { variables } = validateFormula(data.formula);
  const category = await requireCategory(deps, data.categoryId);
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const now = deps.now();
      const deactivated = data.isActive
        ? await tx.impactScoreFormula.updateMany({ where: { categoryId: category.id, isActive: true }, data: { isActive: false, updatedAt: now } })
        : { count: 0 };
      const formula = await tx.impactScoreFormula.create({ data: { ...data, variables, createdAt: now, updatedAt: now } });
      await recordAudit(
        deps,
        {
          actorId: actor.id,
          action: 'impactScoreFormula.create',
          targetType: 'ImpactScoreFormula',
          targetId: formula.id,
          details: { name: formula.name, category: category.name, formula: formula.formula, isActive: formula.isActive, deactivatedOthers: deactivated.count },
        },
        tx,
      );
      return formula;
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new AppError('BAD_USER_INPUT', 'The selected category does not exist', { field: 'categoryId' });
    throw err;
  }
}

export async function deleteFormula(deps: ServiceDeps, actor: User, formulaId: string): Promise<ImpactScoreFormula> {
  assertId(formulaId, 'Formula');
  return deps.prisma.$transaction(async (tx) => {
    const formula = await tx.impactScoreFormula.findUnique({ where: { id: formulaId } });
    if (!formula) throw notFound('Formula not found');
    await tx.impactScoreFormula.delete({ where: { id: formulaId } });
    await recordAudit(
      deps,
      {
        actorId: actor.id,
        action: 'impactScoreFormula.delete',
        targetType: 'ImpactScoreFormula',
        targetId: formulaId,
        details: { name: formula.name, formula: formula.formula, wasActive: formula.isActive },
      },
      tx,
    );
    return formula;
  });
}
