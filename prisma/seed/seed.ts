// Idempotent seed: creates what is missing and never overwrites what an administrator changed.
// Returns the credentials of accounts it created, so the caller can print them once.
import type { PrismaClient } from '@prisma/client';
import { randomToken } from '../../api/crypto.js';
import { passwordProblem } from '../../api/services/password-policy.js';
import { hashPassword } from '../../api/services/passwords.js';
import { validateFormula } from '../../api/services/smart-segments/impact-score.js';
import { CATEGORIES, TIERS } from './content.js';

export interface SeedOptions {
  adminEmail: string;
  adminPassword?: string;
  demoEmail: string;
  demoPassword?: string;
}

export interface CreatedAccount {
  role: 'admin' | 'demo';
  email: string;
  password: string;
}

export async function seed(prisma: PrismaClient, opts: SeedOptions): Promise<CreatedAccount[]> {
  for (const t of TIERS) {
    await prisma.pricingTier.upsert({ where: { name: t.name }, create: { ...t }, update: {} });
  }
  for (const c of CATEGORIES) {
    const category = await prisma.smartSegmentCategory.upsert({
      where: { name: c.name },
      create: { name: c.name, displayName: c.displayName, description: c.description, isLocked: c.isLocked, sortOrder: c.sortOrder },
      update: {},
    });
    for (const [i, p] of c.presets.entries()) {
      await prisma.smartSegmentPreset.upsert({
        where: { categoryId_name: { categoryId: category.id, name: p.name } },
        create: { categoryId: category.id, name: p.name, description: p.description, sortOrder: i },
        update: {},
      });
    }
    const hasFormula = await prisma.impactScoreFormula.count({ where: { categoryId: category.id } });
    if (!hasFormula) {
      await prisma.impactScoreFormula.create({
        data: { categoryId: category.id, ...c.formula, variables: validateFormula(c.formula.formula).variables, isActive: true },
      });
    }
  }

  const pro = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'pro' } });
  const free = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'free' } });
  const created: CreatedAccount[] = [];
  const accounts = [
    { role: 'admin' as const, email: opts.adminEmail, password: opts.adminPassword, firstName: 'Ada', lastName: 'Admin', isAdmin: true, tierId: pro.id },
    { role: 'demo' as const, email: opts.demoEmail, password: opts.demoPassword, firstName: 'Demo', lastName: 'User', isAdmin: false, tierId: free.id },
  ];
  for (const a of accounts) {
    const exists = await prisma.user.findUnique({ where: { email: a.email }, select: { id: true } });
    if (exists) continue;
    const password = a.password ?? randomToken(12);
    const problem = passwordProblem(password);
    if (problem) throw new Error(`The seeded ${a.role} account's password: ${problem}`);
    await prisma.user.create({
      data: {
        email: a.email,
        password: await hashPassword(password),
        firstName: a.firstName,
        lastName: a.lastName,
        crmType: 'hubspot',
        industry: 'it_software',
        isAdmin: a.isAdmin,
        currentTierId: a.tierId,
      },
    });
    created.push({ role: a.role, email: a.email, password });
  }
  return created;
}
