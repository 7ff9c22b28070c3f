// The built web app as served: the build's brotli/gzip copies chosen by Accept-Encoding, hashed files
// immutable for a year, index.html revalidated, a missing hashed file a 404.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDir } from '../../web/precompress.js';
import { IMMUTABLE, webAppRoutes } from './web-app.js';

const dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
mkdirSync(path.join(dist, 'assets'));
const script = `export const x = ${JSON.stringify('a sign-in screen '.repeat(400))};\n`;
writeFileSync(path.join(dist, 'assets/index-abc123.js'), script);
writeFileSync(path.join(dist, 'assets/tiny-abc123.js'), 'export {};\n');
writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>CRM Assistant</title>${'<!-- padding -->'.repeat(100)}`);
const compressed = precompressDir(dist);
const app = webAppRoutes(dist);
const get = (p: string, encoding?: string) => app.request(p, { headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

describe('web app delivery', () => {
  it('the build writes brotli and gzip copies of the files worth compressing', () => {
    expect(compressed.files).toBe(2); // the script and index.html, not the 11-byte file
    expect(compressed.br).toBeLessThan(compressed.gz);
    expect(compressed.gz).toBeLessThan(compressed.bytes / 5);
  });

  it('sends brotli to a browser that accepts it, gzip otherwise, the file to the rest', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(script);
    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    for (const r of [br, gz, plain]) {
      expect(r.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(r.headers.get('vary')).toBe('Accept-Encoding');
    }
  });

  it('index.html is compressed too and revalidated on every load, for every path of the app', async () => {
    for (const p of ['/', '/index.html', '/auth', '/segments']) {
      const r = await get(p, 'br');
      expect(r.status, p).toBe(200);
      expect(r.headers.get('cache-control'), p).toBe('no-cache');
      expect(r.headers.get('content-encoding'), p).toBe('br');
      expect(brotliDecompressSync(Buffer.from(await r.arrayBuffer())).toString()).toContain('<title>CRM Assistant</title>');
    }
  });

  it('a missing hashed file is a 404, and the compressed copies are not addressable', async () => {
    expect((await get('/assets/index-gone999.js', 'br')).status).toBe(404);
    expect((await get('/assets/index-abc123.js.br')).status).toBe(404);
    const tiny = await get('/assets/tiny-abc123.js', 'br');
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(tiny.headers.get('cache-control')).toBe(IMMUTABLE);
  });
});
