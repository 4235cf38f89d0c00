#!/usr/bin/env node
// The `fanout` command. Runs the compiled CLI (npm ci / npm run build make it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/apps/cli/src/main.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('fanout: not built yet; run `npm run build` in the repository first');
  process.exit(1);
}
await import(entry);
