/** Display helpers: numbers as people read them, never "NaN" or "null". */
export const DASH = '–';

export function pct(x: number | null | undefined, digits = 1): string {
  return x == null ? DASH : (x * 100).toFixed(digits);
}

export function usd(x: number | null | undefined, digits = 2): string {
  return x == null ? DASH : `$${x.toFixed(digits)}`;
}

export function num(x: number | null | undefined, digits = 2): string {
  return x == null ? DASH : x.toFixed(digits);
}

export function int(x: number | null | undefined): string {
  return x == null ? DASH : Math.round(x).toLocaleString('en-US');
}

export function pValue(p: number | null | undefined): string {
  if (p == null) return DASH;
  if (p !== 0 && p < 0.0001) return p.toExponential(1);
  return p.toFixed(4);
}

export function seconds(s: number | null | undefined): string {
  if (s == null) return DASH;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

export function dateTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : DASH;
}

export function shortId(id: string | null | undefined): string {
  return id ? id.slice(0, 8) : DASH;
}
