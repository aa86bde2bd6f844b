/**
 * Diagnostics: every rule a seed document calls illegal, unpredictable or a hang is reported
 * through one sink with a stable id. Default policy reports and continues; strict mode stops.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Stable id, e.g. `gfx11.sgpr.misaligned-64`. Never renamed once published. */
  readonly id: string;
  readonly severity: Severity;
  /** Where it happened: PC, wave, packet offset... free-form but machine-readable fields preferred. */
  readonly where: Readonly<Record<string, number | string>>;
  readonly message: string;
  /** Seed document the rule comes from (file name under shared/seeds), if any. */
  readonly seed?: string;
}

/** Thrown in strict mode when a diagnostic fires. */
export class StrictStop extends Error {
  override readonly name = 'StrictStop';
  readonly diagnostic: Diagnostic;
  constructor(d: Diagnostic) {
    super(`${d.id}: ${d.message}`);
    this.diagnostic = d;
  }
}

export class Diagnostics {
  readonly list: Diagnostic[] = [];
  readonly strict: boolean;
  /** Cap on stored entries so a runaway loop cannot exhaust memory; counts keep going. */
  readonly limit: number;
  readonly counts = new Map<string, number>();
  constructor(opts: { strict?: boolean; limit?: number } = {}) {
    this.strict = opts.strict ?? false;
    this.limit = opts.limit ?? 10000;
  }
  report(d: Diagnostic): void {
    this.counts.set(d.id, (this.counts.get(d.id) ?? 0) + 1);
    if (this.list.length < this.limit) this.list.push(d);
    if (this.strict && d.severity !== 'info') throw new StrictStop(d);
  }
  get size(): number {
    return this.list.length;
  }
}
