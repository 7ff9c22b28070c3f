// Vite plugin: after the build, writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy
// next to every text file of web/dist worth compressing, which the server sends by Accept-Encoding
// (api/http/web-app.ts) instead of compressing on every request. Source maps are left alone (only
// developer tools fetch them).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

/** Compresses every compressible file of `dir` (kept only when smaller than the original). */
export function precompressDir(dir: string): { files: number; bytes: number; br: number; gz: number } {
  const total = { files: 0, bytes: 0, br: 0, gz: 0 };
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
    const body = readFileSync(file);
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) writeFileSync(`${file}.br`, br);
    if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
    total.files++;
    total.bytes += body.length;
    total.br += br.length;
    total.gz += gz.length;
  }
  return total;
}

export function precompress(): Plugin {
  let outDir = '';
  let log: (msg: string) => void = () => {};
  return {
    name: 'crm:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      log = (msg) => config.logger.info(msg);
    },
    closeBundle() {
      const t = precompressDir(outDir);
      const kB = (n: number) => `${(n / 1024).toFixed(0)} kB`;
      log(`precompressed ${t.files} files: ${kB(t.bytes)} → ${kB(t.br)} brotli, ${kB(t.gz)} gzip`);
    },
  };
}
