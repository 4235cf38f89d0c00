import type { ValueTransformer } from 'typeorm';

/** Postgres bigint arrives as a string; Fanout's counts and micro-dollars stay below 2^53. */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value == null ? null : Number(value)),
};

/** Postgres double precision arrives as a number already; numeric would not. */
export const numericNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value == null ? null : Number(value)),
};
