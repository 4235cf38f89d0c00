/** Human output by default, JSON with --json: every command prints through this. */
export interface OutputOptions {
  json?: boolean;
}

export function print(options: OutputOptions, value: unknown, human: () => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => (r[c] == null ? '-' : r[c] instanceof Date ? (r[c] as Date).toISOString() : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Rows as an aligned table, a markdown table or CSV (quoted where needed): the non-JSON formats of the list commands. */
export function renderRows(rows: Record<string, string | number>[], columns: string[], format: 'table' | 'markdown' | 'csv'): string {
  if (format === 'table') return table(rows, columns);
  if (format === 'markdown') {
    return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${columns.map((c) => String(r[c])).join(' | ')} |`)].join('\n');
  }
  const cell = (v: unknown) => (/[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n');
}
