// Vite 8 build of the web app. The `graphql` tags are compiled by babel-plugin-relay (plugin-react 6
// has no Babel) with the artifact directory of the `web` project of relay.config.json; the dev server
// proxies the API (HTTP and graphql-ws) to the server on API_URL.
import { fileURLToPath } from 'node:url';
import { transformAsync } from '@babel/core';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './precompress';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

const relay: Plugin = {
  name: 'crm:relay',
  enforce: 'pre',
  async transform(code, id) {
    if (!/\.[jt]sx?$/.test(id) || id.includes('node_modules') || !code.includes('graphql`')) return null;
    const out = await transformAsync(code, {
      filename: id,
      babelrc: false,
      configFile: false,
      sourceMaps: true,
      parserOpts: { plugins: ['typescript', 'jsx'] },
      plugins: [['babel-plugin-relay', { artifactDirectory: fileURLToPath(new URL('./src/__generated__', import.meta.url)), eagerEsModules: true }]],
    });
    return out?.code ? { code: out.code, map: out.map } : null;
  },
};

export default defineConfig({
  root,
  plugins: [relay, react(), precompress()],
  // client/csv.ts uses csv-stringify's Node build; browsers get its build with a Buffer polyfill.
  resolve: { alias: { 'csv-stringify/sync': 'csv-stringify/browser/esm/sync' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: process.env.NO_MINIFY ? false : undefined,
    rolldownOptions: {
      output: {
        // Libraries only signed-in screens use stay out of the sign-in screen's first load.
        advancedChunks: {
          groups: [
            { name: 'csv', test: /node_modules[\\/]csv-stringify/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: api, ws: true },
      '/api': { target: api },
      '/hubspot-sandbox': { target: api },
    },
  },
});
