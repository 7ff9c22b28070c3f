// The Node versions package.json's `engines` promises are the ones every installed package supports:
// `npm install` on the oldest of them prints no EBADENGINE warning. A dependency update that drops
// one (as @whatwg-node/promise-helpers 2 did for Node 20, held back by `overrides`) fails here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
};

/** The first version of each supported line of the engines range: "^20.19.0 || ^22.13.0 || >=24" → 20.19.0, 22.13.0, 24.0.0. */
const oldestOfEachLine = pkg.engines.node.split('||').map((r) => semver.minVersion(r.trim())!.version);

describe('Node engines', () => {
  it('package.json names the versions the README states', () => {
    expect(oldestOfEachLine).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('Node 20.19+, 22.13+ or 24+');
  });

  it.each(oldestOfEachLine)('every installed package supports Node %s', (node) => {
    const unsupported = Object.entries(lock.packages)
      .filter(([name, p]) => name && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(node, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name}@${p.version} needs ${(p.engines as { node: string }).node}`);
    expect(unsupported).toEqual([]);
  });
});
