import { formatUsdFromMicros } from '../pricing.js';
import type { Report } from './report.types.js';
import { comparisonSections } from '../comparison/comparison-sections.js';
import type { Comparison } from '../comparison/comparison.types.js';
import { reportSections, type Cell, type CellKind, type Section } from './report-sections.js';

export const REPORT_FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

const MISSING = '-';

function formatNumber(value: number | null, kind: CellKind): string {
  if (value === null || !Number.isFinite(value)) return MISSING;
  switch (kind) {
    case 'int':
      return String(value);
    case 'pct':
      return (value * 100).toFixed(1);
    case 'pp':
      return `${value > 0 ? '+' : ''}${value.toFixed(1)}`;
    case 'p':
      return value === 0 ? '0' : value >= 0.001 ? value.toFixed(4) : value.toExponential(1);
    case 'usd':
      // Through integer micro-dollars, so a half cent rounds up as money should (1.775 -> 1.78).
      return formatUsdFromMicros(Math.round(value * 1_000_000));
    case 'num2':
      return value.toFixed(2);
    case 'num1':
      return value.toFixed(1);
    case 'num3':
      return value.toFixed(3);
    case 'text':
      return String(value);
  }
}

function formatCell(cell: Cell | undefined, kind: CellKind): string {
  if (cell === undefined || cell === null) return MISSING;
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number') return formatNumber(cell, kind);
  return `${formatNumber(cell.a, kind)} / ${formatNumber(cell.b, kind)}`;
}

function textRows(section: Section): string[][] {
  return section.rows.map((row) => section.columns.map((column) => formatCell(row[column.key], column.kind)));
}

function renderTable(sections: Section[]): string {
  return sections
    .map((section) => {
      const header = section.columns.map((c) => c.header);
      const rows = textRows(section);
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      const line = (cells: string[]): string =>
        cells
          .map((cell, i) => (section.columns[i]!.kind === 'text' ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
          .join('  ')
          .trimEnd();
      const body = rows.length === 0 ? ['(none)'] : rows.map(line);
      return [section.title, '='.repeat(section.title.length), ...section.notes.map((n) => `note: ${n}`), line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body].join('\n');
    })
    .join('\n\n');
}

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function renderMarkdown(sections: Section[]): string {
  return sections
    .map((section) => {
      const header = `| ${section.columns.map((c) => markdownCell(c.header)).join(' | ')} |`;
      const align = `|${section.columns.map((c) => (c.kind === 'text' ? ' --- ' : ' ---: ')).join('|')}|`;
      const rows = textRows(section).map((row) => `| ${row.map(markdownCell).join(' | ')} |`);
      const notes = section.notes.map((n) => `_${n}_`);
      return [`## ${section.title}`, '', ...(notes.length > 0 ? [notes.join('  \n'), ''] : []), header, align, ...(rows.length === 0 ? [] : rows)].join('\n');
    })
    .join('\n\n');
}

function csvField(cell: Cell | undefined): string {
  let text: string;
  if (cell === undefined || cell === null) text = '';
  else if (typeof cell === 'number') text = Number.isFinite(cell) ? String(cell) : '';
  else if (typeof cell === 'string') text = cell;
  else text = `${cell.a ?? ''}/${cell.b ?? ''}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function renderCsv(sections: Section[]): string {
  return sections
    .map((section) =>
      [
        `# ${section.title}`,
        section.columns.map((c) => csvField(c.header)).join(','),
        ...section.rows.map((row) => section.columns.map((c) => csvField(row[c.key])).join(',')),
      ].join('\n'),
    )
    .join('\n\n');
}

/** Renders titled tables: `table` (aligned text), `markdown` or `csv` (one "# title" block per table). */
export function formatSections(sections: Section[], format: Exclude<ReportFormat, 'json'>): string {
  switch (format) {
    case 'csv':
      return `${renderCsv(sections)}\n`;
    case 'markdown':
      return `${renderMarkdown(sections)}\n`;
    case 'table':
      return `${renderTable(sections)}\n`;
  }
}

/**
 * Renders a report. `table` (aligned text) and `markdown` use the study's A/B
 * layout and rounded numbers; `csv` has one section per table ("# title"
 * line, header, rows, blank line), one row per mode and raw numbers; `json`
 * is the report object itself.
 */
export function formatReport(report: Report, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  return formatSections(reportSections(report, format === 'csv' ? 'long' : 'ab'), format);
}

/** Renders a comparison, the same way as a report: A / B cells in table and markdown, one column per side in csv. */
export function formatComparison(comparison: Comparison, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify(comparison, null, 2)}\n`;
  return formatSections(comparisonSections(comparison, format === 'csv' ? 'long' : 'ab'), format);
}
