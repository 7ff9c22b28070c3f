/**
 * Web bundle and idle cost.   npm run bench -- web-bundle
 *
 * Initial JavaScript of the signed-out screen: every script web/dist/index.html references (the entry
 * and its modulepreloads), gzipped at level 9 as a server would send it. Builds the web app first when
 * web/dist is missing. Baseline in the same run: React + ReactDOM's production builds gzipped the same
 * way after minifying them with esbuild (what any React app starts from; React 19 ships them unminified). Target: ≤ 250 kB.
 * Also the same scripts as the server sends them (the build's brotli copies, web/precompress.ts). The lazy route chunk /auth adds is not
 * counted here; tests/e2e/shell.spec.ts counts what the browser actually loads against the same target.
 * The idle cost (HTTP requests of an idle signed-in screen) is only measured by that browser test.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import type { Bench } from './harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'web/dist');
const kB = (bytes: number) => bytes / 1024;
/** What the server sends a browser that accepts brotli: the build's .br copy, else the file. */
const served = (file: string) => (existsSync(`${file}.br`) ? statSync(`${file}.br`).size : statSync(file).size);
const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const minifiedGzipped = (file: string) => gzipSync(transformSync(readFileSync(file, 'utf8'), { minify: true, define: { 'process.env.NODE_ENV': '"production"' } }).code, { level: 9 }).length;

/** Script URLs of index.html: module entries and modulepreloads, in document order. */
export function initialScripts(html: string): string[] {
  const urls: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>/g)) urls.push(m[1] ?? m[2]);
  return urls;
}

export const bench: Bench = {
  name: 'web-bundle',
  title: 'web bundle and idle cost',
  async run(ctx) {
    if (!existsSync(path.join(DIST, 'index.html'))) {
      ctx.log('web/dist is missing: npm run build');
      execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    }
    const scripts = initialScripts(readFileSync(path.join(DIST, 'index.html'), 'utf8'));
    if (!scripts.length) throw new Error('web/dist/index.html references no script');
    const sizes = scripts.map((u) => ({ u, gz: gzipped(path.join(DIST, u.replace(/^\//, ''))), br: served(path.join(DIST, u.replace(/^\//, ''))) }));
    for (const s of sizes) ctx.log(`${s.u}: ${kB(s.gz).toFixed(1)} kB gzip, ${kB(s.br).toFixed(1)} kB as served (brotli)`);
    const total = sizes.reduce((a, s) => a + s.gz, 0);
    const totalServed = sizes.reduce((a, s) => a + s.br, 0);
    const react = ['react/cjs/react.production.js', 'react-dom/cjs/react-dom-client.production.js'].map((f) => minifiedGzipped(path.join(ROOT, 'node_modules', f))).reduce((a, b) => a + b, 0);
    return [
      {
        id: 'initial-js',
        label: 'initial JS of the signed-out screen (gzip)',
        unit: 'kB',
        rounds: [kB(total)],
        baseline: { label: 'React + ReactDOM minified (gzip)', rounds: [kB(react)] },
        target: { of: 'value', max: 250 },
        note: `${scripts.length} scripts of web/dist/index.html`,
      },
      {
        id: 'initial-js-served',
        label: 'initial JS of the signed-out screen as served (precompressed brotli)',
        unit: 'kB',
        rounds: [kB(totalServed)],
        baseline: { label: 'React + ReactDOM minified (gzip)', rounds: [kB(react)] },
        note: 'every byte of the sign-in screen over the wire (HTML, CSS, scripts, API), target ≤ 260 kB: tests/e2e/shell.spec.ts',
      },
      { id: 'idle-requests', label: 'HTTP requests of an idle signed-in minute', unit: 'count', rounds: [], coveredBy: { target: '≤ 2', by: 'tests/e2e/shell.spec.ts' } },
    ];
  },
};
