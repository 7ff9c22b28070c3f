// Builds the web app when web/dist is missing or older than its sources (run before `npm start`,
// so `npm install && npm start` on a fresh clone serves the app).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web/dist/index.html');
const sources = [path.join(root, 'web'), path.join(root, 'client'), path.join(root, 'schema.graphql')];

function newest(p: string): number {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of readdirSync(p)) {
    if (e === 'dist' || e === 'node_modules' || e === '__generated__') continue;
    max = Math.max(max, newest(path.join(p, e)));
  }
  return max;
}

const built = existsSync(dist) ? statSync(dist).mtimeMs : 0;
if (!built || sources.some((s) => existsSync(s) && newest(s) > built)) {
  console.log(built ? 'The web app changed: building it...' : 'Building the web app (first start)...');
  execSync('npm run -s build', { cwd: root, stdio: 'inherit' });
}
