import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Script } from 'node:vm';

/**
 * The workspace as the demo agent edits it: source files made of step
 * regions (`// @step <id>` ... `// @end`). Writing a step replaces its
 * region's body in the text the agent read, and writes the whole file back
 * (atomically, so a reader never sees half a file; concurrent writers still
 * lose each other's updates, which is the point).
 */
const OPEN = /^([ \t]*)\/\/ @step ([a-z0-9][a-z0-9-]*)[ \t]*$/;
const CLOSE = /^[ \t]*\/\/ @end[ \t]*$/;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The body of a step's region (null when the region is absent). */
export function regionBody(text: string | null, stepId: string): string | null {
  if (text === null) return null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]);
    if (!open || open[2] !== stepId) continue;
    let j = i + 1;
    while (j < lines.length && !CLOSE.test(lines[j])) j++;
    return lines.slice(i + 1, j).join('\n');
  }
  return null;
}

/** The text with the step's region body replaced (the region is appended when absent). */
export function withRegion(text: string | null, stepId: string, body: string): string {
  const source = text ?? '';
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]);
    if (!open || open[2] !== stepId) continue;
    let j = i + 1;
    while (j < lines.length && !CLOSE.test(lines[j])) j++;
    return [...lines.slice(0, i + 1), body, ...lines.slice(j)].join('\n');
  }
  const sep = source === '' || source.endsWith('\n') ? '' : '\n';
  return `${source}${sep}// @step ${stepId}\n${body}\n// @end\n`;
}

/** Writes through a temporary file and a rename: whole files only. */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Whether an ES module's text compiles (imports and exports stripped; nothing runs). */
export function compiles(text: string): boolean {
  const script = text
    .split('\n')
    .map((line) => (/^\s*import\s.*from\s+['"][^'"]+['"];?\s*$/.test(line) ? '' : line.replace(/^(\s*)export\s+(?!default)/, '$1')))
    .join('\n');
  try {
    new Script(`(function () {\n${script}\n})`);
    return true;
  } catch {
    return false;
  }
}

/** Workspace-relative paths of the files an agent would look at (no dot files, no node_modules). */
export function listFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(root, path));
    else out.push(relative(root, path).split('\\').join('/'));
  }
  return out;
}
