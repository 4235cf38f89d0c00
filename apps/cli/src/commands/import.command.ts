import type { Command } from 'commander';

/** `fanout import --campaign ID FILE.jsonl`. */
export function registerImportCommand(_program: Command): void {}
