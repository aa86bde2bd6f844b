/**
 * Chrome trace-event JSON (the format ui.perfetto.dev and chrome://tracing open): the one writer
 * every timeline of gpusim uses (the SQ's waves, POPS ordered sections, command-processor packets,
 * the Adreno display's vsync/commit trace). Events are kept in memory and written once.
 *
 * The format: `{ traceEvents: [...] }` where each event has a phase `ph` — 'X' a complete slice
 * (`ts` + `dur`), 'i' an instant (scope `s`: 't' thread, 'p' process, 'g' global), 'C' a counter,
 * 'M' metadata (process_name / thread_name / *_sort_index) — and sits on a track `pid`/`tid`.
 * Timestamps are microseconds in the format; gpusim's model clocks are written one tick per µs
 * and `otherData.clock` says what a tick is.
 */

export interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: 'X' | 'i' | 'M' | 'C';
  readonly ts: number;
  readonly pid: number;
  readonly tid: number;
  readonly dur?: number;
  readonly s?: 't' | 'p' | 'g';
  readonly args?: Readonly<Record<string, unknown>>;
}

/** The file's JSON text for `events`; `clock` says what one µs of the trace is. */
export function traceEventJson(events: readonly TraceEvent[], clock: string, displayTimeUnit: 'ms' | 'ns' = 'ns'): string {
  return JSON.stringify({ traceEvents: events, displayTimeUnit, otherData: { clock } });
}

/**
 * An event list with the track names kept once: `process`/`thread` add the metadata events the
 * viewers name and order tracks by; `slice`, `instant` and `counter` add the events.
 */
export class TraceEvents {
  readonly events: TraceEvent[] = [];
  private readonly named = new Set<string>();

  /** Name process `pid` (once; later calls are ignored). `sort`: its place among processes. */
  process(pid: number, name: string, sort?: number): void {
    const k = `p${pid}`;
    if (this.named.has(k)) return;
    this.named.add(k);
    this.events.push({ name: 'process_name', cat: '__metadata', ph: 'M', ts: 0, pid, tid: 0, args: { name } });
    if (sort !== undefined) this.events.push({ name: 'process_sort_index', cat: '__metadata', ph: 'M', ts: 0, pid, tid: 0, args: { sort_index: sort } });
  }

  /** Name track `tid` of process `pid` (once). `sort`: its place among the process's tracks. */
  thread(pid: number, tid: number, name: string, sort?: number): void {
    const k = `t${pid}:${tid}`;
    if (this.named.has(k)) return;
    this.named.add(k);
    this.events.push({ name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid, tid, args: { name } });
    if (sort !== undefined) this.events.push({ name: 'thread_sort_index', cat: '__metadata', ph: 'M', ts: 0, pid, tid, args: { sort_index: sort } });
  }

  /** A complete slice [from, to) on track pid/tid. */
  slice(name: string, cat: string, pid: number, tid: number, from: number, to: number, args?: Readonly<Record<string, unknown>>): void {
    this.events.push({ name, cat, ph: 'X', ts: from, dur: Math.max(0, to - from), pid, tid, ...(args ? { args } : {}) });
  }

  /** An instant event at `ts` (scope: 't' the track, 'p' the process, 'g' everything). */
  instant(name: string, cat: string, pid: number, tid: number, ts: number, scope: 't' | 'p' | 'g' = 't', args?: Readonly<Record<string, unknown>>): void {
    this.events.push({ name, cat, ph: 'i', s: scope, ts, pid, tid, ...(args ? { args } : {}) });
  }

  /** A counter sample: `name` takes `value` at `ts`. */
  counter(name: string, cat: string, pid: number, ts: number, value: number): void {
    this.events.push({ name, cat, ph: 'C', ts, pid, tid: 0, args: { value } });
  }

  /** The events sorted by time (metadata first, longer slices before the ones they contain). */
  sorted(): TraceEvent[] {
    return this.events.slice().sort(byTime);
  }

  /** The trace file's JSON text. */
  json(clock: string, displayTimeUnit: 'ms' | 'ns' = 'ns'): string {
    return traceEventJson(this.sorted(), clock, displayTimeUnit);
  }
}

/** Time order for trace events: metadata first, then by timestamp, a containing slice before its contents. */
export function byTime(a: TraceEvent, b: TraceEvent): number {
  const ma = a.ph === 'M' ? 0 : 1;
  const mb = b.ph === 'M' ? 0 : 1;
  return ma - mb || a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0);
}
