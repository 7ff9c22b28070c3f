// The docs stand on their own in a clone: every relative link of README.md and docs/*.md names a file
// of the repository, and none points outside it (the spec and architecture live in docs/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', 'api/crm/README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('docs', () => {
  it('include the product spec and the architecture', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['docs/product-spec.md', 'docs/architecture.md']));
  });

  it.each(DOCS)('%s links only to files of the repository', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    const targets = [
      ...[...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t)),
      ...[...text.matchAll(/`(\.\.\/[^`\s]+)`/g)].map((m) => m[1]),
    ];
    const broken = targets.filter((t) => {
      const full = path.resolve(ROOT, path.dirname(doc), t);
      return !full.startsWith(ROOT + path.sep) || !existsSync(full);
    });
    expect(broken).toEqual([]);
  });
});
