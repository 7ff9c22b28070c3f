// Bundles the CLI (cli/main.ts with its dependencies) into cli/dist/crm.mjs, which cli/bin/crm.js
// runs while it is newer than the sources: one file starts in ~0.3 s, where the sources through tsx
// take over a second (Ink alone is hundreds of modules). Run on install (postinstall) and by hand.
// Also links node_modules/.bin/crm to the bin: npm does not link a project's own bins, and without
// the link `npx crm` first asks the registry for a package named "crm" (seconds, and whatever is
// published under that name would be a candidate).
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}cli/dist`;
mkdirSync(outdir, { recursive: true });
// Ink imports react-devtools-core only for DEV=true; the bundle never runs it.
const stub = `${outdir}/devtools-stub.mjs`;
writeFileSync(stub, 'export default { initialize() {}, connectToDevTools() {} };\n');

const started = Date.now();
await build({
  entryPoints: [`${root}cli/main.ts`],
  outfile: `${outdir}/crm.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  alias: { 'react-devtools-core': stub },
  define: { 'process.env.NODE_ENV': '"production"' },
  // CommonJS dependencies bundled into an ES module still call require().
  banner: { js: "import { createRequire as __crmRequire } from 'node:module'; const require = __crmRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`cli/dist/crm.mjs built in ${Date.now() - started} ms`);

const binDir = `${root}node_modules/.bin`;
if (existsSync(binDir)) {
  const link = `${binDir}/crm`;
  if (existsSync(link) || lstatSync(link, { throwIfNoEntry: false })) rmSync(link);
  symlinkSync('../../cli/bin/crm.js', link);
}
