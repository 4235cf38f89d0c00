// Compiles apps/, libs/ and migrations/ to dist/ with swc: one pass, about a
// second on two cores, so `npm start` can always build first and never run
// stale code. Type checking is `npm run typecheck` (part of `npm test`).
// Then Vite builds the browser UI (apps/web, skipped by swc) into dist/web,
// which the API serves at `/` (about a second more).
import { transformFile } from '@swc/core';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const options = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const roots = ['apps', 'libs', 'migrations', 'bench'];
const skip = new Set(['node_modules', 'dist']);
// The browser UI is Vite's to build (below), not swc's.
const skipPaths = new Set([join(root, 'apps', 'web')]);

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.has(entry.name) && !skipPaths.has(path)) yield* sources(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

const started = performance.now();
await rm(out, { recursive: true, force: true });
const files = [];
for (const top of roots) for await (const file of sources(join(root, top))) files.push(file);
await Promise.all(
  files.map(async (file) => {
    const rel = relative(root, file);
    const target = join(out, rel.replace(/\.ts$/, '.js'));
    const { code, map } = await transformFile(file, { ...options, swcrc: false, filename: file, sourceFileName: relative(dirname(target), file) });
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (map) await writeFile(`${target}.map`, map);
  }),
);
const compiled = performance.now();
await buildWeb();
if (!process.env.FANOUT_QUIET_BUILD) {
  console.error(`fanout: built ${files.length} files in ${Math.round(compiled - started)} ms, the web UI in ${Math.round(performance.now() - compiled)} ms`);
}

async function buildWeb() {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    // A production-only install has no Vite: the API still runs, without the UI.
    console.error('fanout: vite is not installed (devDependency), the web UI was not built');
    return;
  }
  await vite.build({ configFile: join(root, 'apps', 'web', 'vite.config.ts'), logLevel: 'warn', clearScreen: false });
}
