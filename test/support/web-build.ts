import { existsSync } from 'node:fs';
import { ROOT } from './processes.js';

/** The web tests use the built UI (dist/web), which `npm run build` (and so `npm test`) makes. */
export function requireWebBuild(): void {
  if (!existsSync(`${ROOT}/dist/web/index.html`)) throw new Error('dist/web is missing: run `npm run build` (npm test does) before the web tests');
}
