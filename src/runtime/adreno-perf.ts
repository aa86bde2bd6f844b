/**
 * `gpusim adreno perf <capture.rd | scene.json --gpu a630|a660>`: the a6xx performance counters
 * (rbbm/perfcounters.ts) per draw, dispatch and blit, grouped by block as freedreno's fdperf
 * groups them, plus the totals. The counts are the model's events (what MODELLED lists); a
 * countable the model has no quantity for reads 0 and is marked "not modelled".
 */
import { readFileSync } from 'node:fs';
import { EXIT_FINDING, EXIT_OK, InputError, UsageError } from '../core/errors.js';
import { enumName, enumValue } from '../adreno/regs/db.js';
import { ALWAYS_ON_HZ, CP_BLOCK, MODEL_CLOCK_HZ, MODELLED, PERF_BLOCKS, type PerfBlock, type PerfWhere } from '../adreno/rbbm/perfcounters.js';
import type { CommandProcessor } from '../adreno/cp/cp.js';
import type { Diagnostics } from '../core/diagnostics.js';
import { runRd, drawLimitOptions } from '../adreno/run.js';
import { a6xxGpu, runA6xxSceneFile } from './draw-a6xx.js';

export interface PerfCounterValue {
  readonly block: string;
  readonly countable: string;
  readonly value: number;
  readonly modelled: boolean;
}

export interface PerfOperation {
  readonly index: number;
  readonly kind: 'draw' | 'dispatch' | 'blit';
  readonly packet: string;
  readonly iova: number;
  readonly counters: readonly PerfCounterValue[];
  /**
   * Where it ran (sysmem, the binning pass, a GMEM bin with its number, window and window offset)
   * and its place among the operations of the same kind that ran in that pass or bin (draws the
   * visibility stream skips in a bin are not counted there); a draw's rows in different bins
   * share its iova and differ in `bin`.
   */
  readonly where?: PerfWhere;
  readonly inPass: number;
}

export interface PerfReport {
  readonly operations: readonly PerfOperation[];
  readonly totals: readonly PerfCounterValue[];
}

const BLOCKS: readonly PerfBlock[] = [CP_BLOCK, ...PERF_BLOCKS];

/** Every countable of a block, in enum order (from the register database). */
function countablesOf(b: PerfBlock): string[] {
  const names: string[] = [];
  for (let v = 0; v < 256; v++) {
    const n = enumName(b.countables, v, 'a6xx');
    if (n) names.push(n);
  }
  return names;
}

/** The (block, countable) pairs shown: the modelled ones by default, every one with `all`, or the named ones. */
export function selectCounters(names: readonly string[] | undefined, all: boolean): { block: string; countable: string }[] {
  const sel: { block: string; countable: string }[] = [];
  const wanted = names ? new Set(names) : undefined;
  for (const b of BLOCKS)
    for (const c of countablesOf(b)) if (wanted ? wanted.has(c) : all || c in MODELLED) sel.push({ block: b.name, countable: c });
  if (wanted) {
    const known = new Set(sel.map((s) => s.countable));
    const bad = [...wanted].filter((n) => !known.has(n));
    if (bad.length) throw new UsageError(`adreno perf: unknown countable ${bad[0]} (names as the a6xx *_perfcounter_select enums spell them, e.g. PERF_PC_IA_VERTICES)`);
  }
  return sel;
}

/** Per-operation deltas and totals of the selected counters from a CP that ran with `perf.keepMarks`. */
export function perfReport(cp: CommandProcessor, sel: readonly { block: string; countable: string }[]): PerfReport {
  const row = (m: ReadonlyMap<string, number>, prev: ReadonlyMap<string, number> | undefined): PerfCounterValue[] =>
    sel.map(({ block, countable }) => ({ block, countable, value: (m.get(countable) ?? 0) - (prev?.get(countable) ?? 0), modelled: countable in MODELLED }));
  // Operations numbered within their pass / bin: a new pass (or bin) starts the count again.
  let passKey = '';
  const seen = new Map<string, number>();
  const operations = cp.perf.marks.map((mk, i) => {
    const key = mk.where ? `${mk.where.pass}:${mk.where.bin ?? ''}` : '';
    if (key !== passKey) seen.clear();
    passKey = key;
    const inPass = seen.get(mk.kind) ?? 0;
    seen.set(mk.kind, inPass + 1);
    return { index: i, kind: mk.kind, packet: mk.packet, iova: mk.iova, counters: row(mk.totals, i ? cp.perf.marks[i - 1]!.totals : undefined), ...(mk.where ? { where: mk.where } : {}), inPass };
  });
  return { operations, totals: row(cp.perf.snapshot(cp.countables, cp.cycles, 'a6xx'), undefined) };
}

function tableLines(counters: readonly PerfCounterValue[], out: (l: string) => void): void {
  const w = Math.max(...counters.map((c) => c.countable.length), 8);
  let block = '';
  for (const c of counters) {
    if (c.block !== block) out(`  ${(block = c.block)}`);
    out(`    ${c.countable.padEnd(w)} ${String(c.value).padStart(12)}${c.modelled ? '' : '  (not modelled)'}`);
  }
}

export function perfCommand(values: Record<string, unknown>, rest: string[], out: (l: string) => void): number {
  const file = rest[0];
  if (!file) throw new UsageError('adreno perf: missing capture (.rd) or scene (.json)');
  const names = values['counters'] === undefined ? undefined : String(values['counters']).split(',').map((s) => s.trim()).filter(Boolean);
  const sel = selectCounters(names, !!values['all']);
  const mode = values['mode'] === undefined ? 'sysmem' : String(values['mode']);
  if (mode !== 'sysmem' && mode !== 'gmem') throw new UsageError(`adreno perf: --mode must be sysmem or gmem (got ${mode})`);
  let cp: CommandProcessor;
  let diag: Diagnostics;
  let source: string;
  if (/\.json$/i.test(file)) {
    if (values['gpu'] === undefined) throw new UsageError('adreno perf: a scene needs --gpu a630|a660');
    let bin: { w: number; h: number } | undefined;
    if (values['bin'] !== undefined) {
      if (mode !== 'gmem') throw new UsageError('adreno perf: --bin needs --mode gmem');
      const m = /^(\d+)x(\d+)$/.exec(String(values['bin']));
      if (!m) throw new UsageError(`adreno perf: --bin WxH (got ${String(values['bin'])})`);
      bin = { w: Number(m[1]), h: Number(m[2]) };
    }
    const r = runA6xxSceneFile(file, a6xxGpu(String(values['gpu'])), mode === 'gmem' ? (bin ? { bin } : {}) : undefined, true);
    cp = r.cp;
    diag = r.diag;
    source = `scene ${r.gpu} ${mode}`;
  } else {
    if (values['mode'] !== undefined || values['bin'] !== undefined) throw new UsageError('adreno perf: --mode / --bin are for scenes (a capture renders as its stream says)');
    const r = runRd(new Uint8Array(readFileSync(file)), { perfMarks: true, limits: drawLimitOptions(values) }, file);
    if (r.cp.gen !== 'a6xx') throw new InputError(`adreno perf models the a6xx counters; this capture is ${r.cp.gen}`, file);
    cp = r.cp;
    diag = r.diag;
    source = `capture ${cp.gen} gpu_id ${cp.gpuId}; stops: ${r.stops.join(', ') || 'none'}`;
  }
  const rep = perfReport(cp, sel);
  if (values['json']) {
    out(JSON.stringify({
      source,
      clock: { modelHz: MODEL_CLOCK_HZ, alwaysOnHz: ALWAYS_ON_HZ, cycles: cp.cycles },
      operations: rep.operations.map((o) => ({ ...o, iova: '0x' + o.iova.toString(16) })),
      totals: rep.totals,
      diagnostics: diag.list,
    }));
  } else {
    out(`${source}: ${rep.operations.length} operation(s), ${cp.cycles} CP cycles (model time at ${MODEL_CLOCK_HZ / 1e6} MHz; always-on ${ALWAYS_ON_HZ / 1e6} MHz)`);
    for (const o of rep.operations) {
      out(`${o.kind} ${o.index} ${o.packet} @0x${o.iova.toString(16)}${whereText(o)}`);
      tableLines(o.counters, out);
    }
    out('totals');
    tableLines(rep.totals, out);
    // Each distinct diagnostic once, with how often it fired (a capture missing memory repeats them).
    const seen = new Map<string, number>();
    for (const d of diag.list) if (d.severity !== 'info') seen.set(`${d.severity} ${d.id}: ${d.message}`, (seen.get(`${d.severity} ${d.id}: ${d.message}`) ?? 0) + 1);
    for (const [l, n] of seen) out(`  ${l}${n > 1 ? ` (x${n})` : ''}`);
  }
  return diag.list.some((d) => d.severity !== 'info') ? EXIT_FINDING : EXIT_OK;
}

/** The pass of a row as fdperf-style text: the binning pass, or the GMEM bin with its window and offset. */
export function whereText(o: PerfOperation): string {
  const w = o.where;
  if (!w || w.pass === 'sysmem') return '';
  if (w.pass === 'binning') return ` [binning pass, ${o.kind} ${o.inPass}]`;
  const win = w.window ? ` window ${w.window.x0},${w.window.y0}..${w.window.x1},${w.window.y1}` : '';
  const off = w.offset ? ` offset ${w.offset.x},${w.offset.y}` : '';
  return ` [bin ${w.bin ?? '?'}${win}${off}, ${o.kind} ${o.inPass}]`;
}

/** The countable value of a name in a block's enum (tests program SEL registers with it). */
export function countableValue(block: PerfBlock, name: string): number {
  const v = enumValue(block.countables, name, 'a6xx');
  if (v === undefined) throw new InputError(`no countable ${name} in ${block.countables}`);
  return v;
}
