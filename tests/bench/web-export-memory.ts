/**
 * The web's CSV export of a large Smart Segment: `npm run bench -- web-export-memory [--contacts N]`
 * (default 20,000 and 100,000 contacts; the export's memory should not grow with the customers).
 *
 * For each size, starts the app on the test PostgreSQL with a sandbox of that many contacts and the
 * built web app, generates for one user a Smart Segment of every customer ("customers") and unlocks
 * it, then in Debian's Chromium (Playwright) opens /smart-segments signed in as that user and clicks
 * "Download Customer List" — the web's export path: `customerExport` pages of 200, each turned into a
 * CSV Blob as it arrives, saved as one Blob of them. The page's JS heap (CDP Performance.getMetrics,
 * JSHeapUsedSize) is sampled every 50 ms; its growth over the same page idle (after a forced GC) is
 * the figure, target under 100 MB like the CLI's path (export-memory). The CSV saved is parsed and
 * must hold as many customers as the segment.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { chromium } from 'playwright';
import { generateForUser } from '../../api/services/smart-segments/generate.js';
import { CHROMIUM } from '../e2e/env.js';
import { connectedUser } from '../helpers/crm.js';
import { startTestApp } from '../helpers/test-app.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';
import { execSync } from 'node:child_process';

const MB = 1024 * 1024;
const PRESET = 'Everyone (web export bench)';

async function measure(ctx: BenchContext, contacts: number): Promise<FigureInput[]> {
  const t = await startTestApp({ SANDBOX_CONTACTS: String(contacts) });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const { c, userId } = await connectedUser(t.app, t.url, 'enterprise');
    const prisma = t.app.deps.prisma;
    const category = await prisma.smartSegmentCategory.findFirstOrThrow({ where: { isLocked: false, isActive: true } });
    const preset = await prisma.smartSegmentPreset.create({ data: { name: PRESET, description: 'customers', categoryId: category.id, isActive: true } });
    const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
    await generateForUser(t.app.deps, user, { presets: [{ ...preset, formula: null }] });
    const daily = await prisma.dailyGeneratedSegment.findFirstOrThrow({ where: { userId, presetId: preset.id } });
    if (daily.hasError) throw new Error(`generation failed: ${daily.errorMessage}`);
    await prisma.dailyGeneratedSegment.update({ where: { id: daily.id }, data: { isUnlocked: true, unlockedAt: new Date() } });

    const context = await browser.newContext({ acceptDownloads: true });
    await context.addCookies([...c.cookies].map(([name, value]) => ({ name, value, url: t.url })));
    const page = await context.newPage();
    await page.goto(`${t.url}/smart-segments`);
    const card = page.getByRole('article').filter({ hasText: PRESET });
    const button = card.getByRole('button', { name: 'Download Customer List' });
    await button.waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value;
    };
    await cdp.send('HeapProfiler.collectGarbage');
    const idle = await heap();
    let peak = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heap().catch(() => peak));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30 * 60_000 }), button.click()]);
    const file = await download.path();
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    const text = readFileSync(file, 'utf8');
    const rows = parse(text, { columns: true, bom: true }) as Record<string, string>[];
    if (rows.length !== daily.customerCount) throw new Error(`the CSV holds ${rows.length} customers, the segment ${daily.customerCount}`);
    const growth = peak - idle;
    ctx.log(
      `${contacts} contacts: ${rows.length} customers in ${seconds.toFixed(1)} s, ` +
        `JS heap idle ${(idle / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB (+${(growth / MB).toFixed(1)} MB), CSV ${(text.length / MB).toFixed(1)} MB`,
    );
    await context.close();
    const size = rows.length.toLocaleString('en-US');
    return [
      { id: `heap-growth-${contacts}`, label: `web download: JS heap growth, ${size} customers`, unit: 'MB', rounds: [growth / MB], baseline: { label: 'the same page idle (JS heap)', rounds: [idle / MB] }, target: { of: 'value', max: 100 } },
      { id: `csv-size-${contacts}`, label: `web download: CSV size, ${size} customers`, unit: 'MB', rounds: [text.length / MB] },
      { id: `rate-${contacts}`, label: `web download: customers/s, ${size}`, unit: '/s', rounds: [rows.length / seconds] },
    ];
  } finally {
    await browser.close();
    await t.close();
  }
}

export const bench: Bench = {
  name: 'web-export-memory',
  title: "The web's CSV download of a large Smart Segment",
  async run(ctx) {
    execSync('npx tsx scripts/build-web-if-stale.ts', { stdio: 'inherit' });
    const one = ctx.num('contacts', 0, 2000);
    const out: FigureInput[] = [];
    for (const contacts of one ? [one] : [20_000, 100_000]) out.push(...(await measure(ctx, contacts)));
    return out;
  },
};
