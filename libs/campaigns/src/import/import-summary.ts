/** One rejected line (or one problem of it): 1-based line number, field path, what was expected and received. */
export interface ImportLineError {
  line: number;
  field: string;
  reason: string;
}

/** What an import did. `linesRead` = updated + unchanged + rejected + blank lines. */
export interface ImportSummary {
  campaignId: string;
  linesRead: number;
  /** Always 0: an import fills executions its campaign planned, it never creates one. */
  inserted: number;
  /** Lines that changed their execution's result. */
  updated: number;
  /** Lines whose execution already held exactly this record. */
  unchanged: number;
  /** Lines rejected; each has at least one entry in `errors`. */
  rejected: number;
  /** The first MAX_REPORTED_ERRORS problems, in line order. */
  errors: ImportLineError[];
}

/** The errors list stops here (a million bad lines must not make a million-entry answer); `rejected` counts them all. */
export const MAX_REPORTED_ERRORS = 1000;

export interface ImportOptions {
  /** Called now and then (after each batch and at the end) with the number of lines read so far. */
  onProgress?(linesRead: number): void;
}
