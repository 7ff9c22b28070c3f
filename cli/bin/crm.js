#!/usr/bin/env node
// The `crm` command (package.json "bin"; `npx crm` in the repository). Runs the bundle that
// `npm run build:cli` writes (also on install) when it is newer than every source it is built from;
// otherwise the TypeScript sources through tsx, so that an edited source is never ignored. (A change
// of dependencies goes through npm install, whose postinstall builds the bundle again.)
import { readdirSync, statSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

if (process.env.NO_COLOR || process.argv.includes('--no-color')) process.env.FORCE_COLOR = '0';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundle = new URL('../dist/crm.mjs', import.meta.url);

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Tests are not part of the bundle.
    if (entry.name === 'dist' || entry.name === 'node_modules' || /\.test\.tsx?$/.test(entry.name)) continue;
    const p = `${dir}/${entry.name}`;
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs;
    return built >= Math.max(newest(`${root}cli`), newest(`${root}client`));
  } catch {
    return false;
  }
}

if (bundleIsFresh()) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../main.ts');
}
