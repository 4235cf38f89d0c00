#!/usr/bin/env node
// The demo agent's command (examples/demo-agent.yaml): runs the compiled
// agent from dist/, wherever the current directory (the task workspace) is.
// Build first: node scripts/build.mjs (npm start does).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../../../dist/apps/demo-agent/src/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  console.error('fanout-demo-agent: dist/apps/demo-agent/src/main.js is missing; run `node scripts/build.mjs` first');
  process.exit(1);
}
await import(main.href);
