// `npm run dev`: the API (restarted on change) and Vite's dev server, which proxies /graphql (with
// websockets) and /api to it. Open http://127.0.0.1:5173.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'api/server.ts'], { stdio: 'inherit', env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1:5173' } }),
  spawn('npx', ['vite', '--config', 'web/vite.config.ts', '--host', '127.0.0.1'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && stop());
