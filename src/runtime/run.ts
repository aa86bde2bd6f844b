/**
 * Running a kernel on the RDNA3 model from a manifest (or from in-memory buffers): allocate the
 * buffers in GPU memory, lay out the kernel arguments from the code object's metadata (hsa.ts),
 * dispatch (dispatch.ts), read the outputs back, check the expectations (integers exactly,
 * floats within a ULP bound) and build the run report that `gpusim run` writes as run.json.
 */
import { readFileSync } from 'node:fs';
import { Memory, type Segment } from '../core/memory.js';
import { Diagnostics, StrictStop, type Diagnostic } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import { loadCodeObjectCached, type CodeObject, type CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import { gfx11 } from '../amd/isa/gfx11/index.js';
import { assemble } from '../amd/isa/target.js';
import { AsmError } from '../amd/isa/types.js';
import { assembleSource, codeObjectOf } from '../amd/isa/source.js';
import type { Engine } from '../amd/engine/env.js';
import { executableTarget, EXECUTABLE_TARGETS } from '../amd/target/executable.js';
import type { TrapHandler } from '../amd/exec/trap.js';
import type { Wave } from '../amd/wave/wave.js';
import type { Op } from '../amd/engine/program.js';
import { InstructionTracer } from '../amd/sq/trace.js';
import { WaveTimeline } from '../amd/sq/timeline.js';
import type { TraceEvents } from '../core/trace-events.js';
import { CODE_BASE, dispatch, loadCode, type DispatchStats } from './dispatch.js';
import { setupLaunch, type ArgValue } from './hsa.js';
import { imageBytes, imageDescriptor, samplerDescriptor, type ImageSpec, type SamplerSpec } from './images.js';
import { lazyModule } from '../core/lazy-module.js';
import { wasmTier } from '../amd/engine/wasm/tier.js';
import { firstCallsFor } from '../amd/engine/tier.js';
import { heapBacking } from '../amd/engine/wasm/heap.js';
import {
  ELEM, bufferContents, compareBuffers, scalarBytes, structBytes,
  type ArgSpec, type ElemType, type Manifest, type Mismatch,
} from './manifest.js';

export type Order = 'roundrobin' | 'random';

export interface RunOptions {
  /** Scheduler seed (default 1). */
  readonly seed?: number;
  readonly order?: Order;
  /**
   * Execution engine: 'fast' or 'interp', the reference interpreter alone. Left out: fast, but a grid
   * of fewer than tier.ts's tiering.firstCalls waves starts each op on its reference handler.
   */
  readonly engine?: Engine;
  /** Stop at the first diagnostic (warnings included). */
  readonly strict?: boolean;
  /** Wave-instruction budget (default 50 million). */
  readonly maxInstructions?: number;
  /**
   * Called with one line per executed instruction (amd/sq/trace.ts): `wave <id> pc 0x<offset>
   * exec 0x<mask>  <text>  | <registers changed> | mem <ranges>`. Tracing runs the interpreter.
   */
  readonly trace?: (line: string) => void;
  /** Trace lines at most (default 100000); the rest are counted in the report's `traceSkipped`. */
  readonly traceLimit?: number;
  /** Record the scheduler's turns and barriers here (a Chrome trace: amd/sq/timeline.ts). */
  readonly timeline?: TraceEvents;
  /** Called before each executed instruction with its bound op (instruction statistics; replaces `trace`). */
  readonly onInstruction?: (w: Wave, op: Op) => void;
  /** Called with each wave's final state as its workgroup retires (the differential test compares them). */
  readonly onWaveEnd?: (w: Wave) => void;
  /** Called as workgroups complete (for a progress bar). */
  readonly progress?: (done: number, total: number) => void;
  /**
   * Launch through the PM4 command processor of the code object's generation instead of calling
   * dispatch.ts: 'direct' is DISPATCH_DIRECT of the grid in work-items (USE_THREAD_DIMENSIONS),
   * 'indirect' DISPATCH_INDIRECT of workgroup counts read from GPU memory (PARTIAL_TG_EN and
   * NUM_THREAD_PARTIAL for a last workgroup the grid does not fill). See src/runtime/pm4.ts.
   */
  readonly pm4?: 'direct' | 'indirect';
  /** With `pm4`: called with the stream the launch built and how many of its dispatches ran (coverage). */
  readonly onPm4?: (stream: Uint32Array, dispatchesRun: number) => void;
}

/** A buffer of a direct `runKernel` call. */
export interface KernelBuffer {
  readonly name: string;
  readonly type: ElemType;
  /** Initial contents (its length is the buffer's size in bytes). */
  readonly data: Uint8Array;
  /**
   * The run may use `data` itself as the buffer's GPU memory instead of a copy (the kernel then
   * writes into it). runManifest does this for the buffers it builds; default: copy.
   */
  readonly adopt?: boolean;
}

export interface KernelLaunch {
  /** A loaded code object, or its bytes. */
  readonly codeObject: CodeObject | Uint8Array;
  /** Kernel name; may be omitted when the object has exactly one kernel. */
  readonly kernel?: string;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly buffers: readonly KernelBuffer[];
  readonly args: readonly ArgSpec[];
  /** Images over the buffers and samplers, passed by name in `args` (runtime/images.ts). */
  readonly images?: readonly ImageSpec[];
  readonly samplers?: readonly SamplerSpec[];
  /** A user trap handler: GFX11 machine code mapped at TRAP_BASE; `tma` names the buffer TMA points at. */
  readonly trapHandler?: { readonly code: Uint8Array | Uint32Array; readonly tma?: string | undefined };
}

/** Where a manifest's trap handler is mapped (TBA), far from the code object and the buffers. */
export const TRAP_BASE = 0x7100_0000_0000;

export interface DiagnosticRecord {
  readonly id: string;
  readonly severity: string;
  readonly where: Readonly<Record<string, number | string>>;
  readonly message: string;
  readonly seed?: string;
}

/**
 * One diagnostic as run.json carries it. A PC inside the loaded code object is written as its
 * code-object address in hex (`pc: "0x1c"`), the numbering of --trace, disasm and the text
 * summary; the absolute GPU address it ran at is kept as `pcAddress`. Other PCs (a trap handler)
 * are written as absolute hex addresses.
 */
export function diagnosticRecord(d: Diagnostic): DiagnosticRecord {
  let where = d.where;
  const pc = d.where['pc'];
  if (typeof pc === 'number') {
    const rel = pc >= CODE_BASE && pc - CODE_BASE < 2 ** 32;
    where = { ...d.where, pc: '0x' + (rel ? pc - CODE_BASE : pc).toString(16), ...(rel ? { pcAddress: '0x' + pc.toString(16) } : {}) };
  }
  return { id: d.id, severity: d.severity, where, message: d.message, ...(d.seed ? { seed: d.seed } : {}) };
}

/** What a run did: the body of run.json. */
export interface RunReport {
  readonly kernel: string;
  readonly target: string;
  readonly waveSize: number;
  readonly grid: readonly number[];
  readonly block: readonly number[];
  readonly order: Order;
  readonly seed: number;
  readonly waves: number;
  readonly workgroups: number;
  readonly waveInstructions: number;
  readonly laneOperations: number;
  readonly byClass: Readonly<Record<string, number>>;
  /** Wall-clock milliseconds of the dispatch. */
  readonly timeMs: number;
  /** The run stopped early (budget, deadlock, a halted wave, --strict). */
  readonly aborted: boolean;
  readonly ldsBytes: number;
  readonly scratchPerLane: number;
  readonly diagnostics: readonly DiagnosticRecord[];
  readonly diagnosticCounts: Readonly<Record<string, number>>;
  /** With a trace: lines written, and instructions past the trace limit (not traced). */
  readonly traceLines?: number;
  readonly traceSkipped?: number;
}

export interface KernelRun {
  readonly report: RunReport;
  /** Final contents of every buffer, by name: views of the run's GPU memory (not copies). */
  readonly buffers: Readonly<Record<string, Uint8Array>>;
  /** The diagnostic that stopped a --strict run. */
  readonly strictStop: Diagnostic | undefined;
}

export interface ExpectationResult {
  readonly ok: boolean;
  readonly ulp: number;
  readonly mismatches: number;
  readonly first: readonly Mismatch[];
}

export interface ManifestRun extends KernelRun {
  readonly manifest: Manifest;
  readonly expectations: Readonly<Record<string, ExpectationResult>>;
  /** 0 ok, 1 an expectation mismatch or (with strict) a diagnostic or an aborted run. */
  readonly exitCode: 0 | 1;
  /** run.json: the report plus the expectation results. */
  readonly json: RunReport & {
    manifest: string; codeObject: string; ok: boolean; expectations: Readonly<Record<string, ExpectationResult>>;
    /** `gpusim run --threads`: the threads the run used, and why only one when it could not split. */
    threads?: number; threadsReason?: string;
    /** `gpusim run --json` / `--out`: where the process's time went (cli/commands/run.ts coldTiming). */
    timing?: Readonly<Record<string, unknown>>;
  };
}

const DEFAULT_BUDGET = 50_000_000;

/** The PM4 path (`pm4` option): its command processor and register tables load on first use (issue 24). */
const pm4Module = lazyModule<typeof import('./pm4.js')>(() => require('./pm4.js'), './pm4.js', import.meta.url);

function pickKernel(co: CodeObject, name: string | undefined): CodeObjectKernel {
  if (name === undefined) {
    if (co.kernels.length !== 1) throw new InputError(`kernel: the code object has ${co.kernels.length} kernels (${co.kernels.map((k) => k.name).join(', ')}); name one`);
    return co.kernels[0]!;
  }
  const k = co.kernels.find((x) => x.name === name);
  if (!k) throw new InputError(`kernel: no kernel '${name}' in the code object (it has ${co.kernels.map((x) => x.name).join(', ') || 'none'})`);
  return k;
}

/** Run one kernel on in-memory buffers. Throws InputError for a launch that cannot be set up. */
export function runKernel(l: KernelLaunch, opts: RunOptions = {}): KernelRun {
  const co = l.codeObject instanceof Uint8Array ? loadCodeObjectCached(l.codeObject, 'kernel') : l.codeObject;
  const target = executableTarget(co.target.mcpu);
  if (!target) throw new InputError(`codeObject: target ${co.target.mcpu} cannot run; gpusim executes ${EXECUTABLE_TARGETS} code objects`);
  const kernel = pickKernel(co, l.kernel);
  const md = kernel.metadata;
  if (!md) throw new InputError(`kernel ${kernel.name} has no metadata: cannot lay out its arguments`);
  for (let i = 0; i < 3; i++) {
    if (!(l.block[i]! >= 1) || !(l.grid[i]! >= 1)) throw new InputError(`grid/block: axis ${i} must be at least 1`);
  }
  const wg = l.block[0] * l.block[1] * l.block[2];
  if (wg > md.max_flat_workgroup_size) throw new InputError(`block: ${wg} work-items exceed the kernel's max_flat_workgroup_size ${md.max_flat_workgroup_size}`);
  if (md.reqd_workgroup_size && md.reqd_workgroup_size.some((v, i) => v !== l.block[i])) {
    throw new InputError(`block: the kernel requires reqd_work_group_size [${md.reqd_workgroup_size.join(', ')}]`);
  }
  const seed = opts.seed ?? 1;
  const order = opts.order ?? 'roundrobin';
  const diag = new Diagnostics({ strict: opts.strict ?? false });
  // On the fast engine with the wasm tier, segments live in its heap (engine/wasm/heap.ts), where
  // translated code reaches them; the buffers returned are then copies (the heap outlives the run).
  const mem = new Memory({ backing: opts.engine !== 'interp' && opts.trace === undefined && wasmTier.on ? heapBacking() : null });
  mem.onFault = (f) => {
    diag.report({ id: 'gpusim.memory.unmapped', severity: 'warning', where: { va: '0x' + f.va.toString(16), bytes: f.size }, message: `${f.write ? 'write' : 'read'} of ${f.size} bytes at unmapped 0x${f.va.toString(16)} (${f.write ? 'dropped' : 'reads 0'})` });
  };
  const code = loadCode(mem, co);
  const segs = new Map<string, { seg: Segment; type: ElemType }>();
  for (const b of l.buffers) {
    if (segs.has(b.name)) throw new InputError(`buffers.${b.name}: defined twice`);
    // A copy unless the caller handed the array over: the kernel writes into the segment.
    const data = b.adopt === true ? b.data : b.data.slice();
    // Segments are at least one byte so a zero-sized buffer still has a distinct address.
    const seg = mem.alloc(Math.max(data.length, 1), b.name, 256, data.length > 0 ? data : undefined);
    segs.set(b.name, { seg, type: b.type });
  }
  // Descriptors: each image's T# (after checking its buffer holds the linear layout) and each sampler's S#, 256-byte aligned.
  const descs = new Map<string, number>();
  const gfx = target.space.gfx;
  for (const im of l.images ?? []) {
    const buf = segs.get(im.buffer);
    if (!buf) throw new InputError(`images.${im.name}.buffer: '${im.buffer}' is not a buffer`);
    const need = imageBytes(gfx, im);
    const have = l.buffers.find((b) => b.name === im.buffer)!.data.length;
    if (have < need) throw new InputError(`images.${im.name}: a ${im.type} ${im.width}x${im.height}x${im.depth} ${im.format} image with ${im.levels} level(s) takes ${need} bytes in the ${co.target.mcpu} linear layout (rows aligned to 256 bytes); buffer '${im.buffer}' has ${have}`);
    const words = imageDescriptor(gfx, im, buf.seg.base);
    descs.set(im.name, mem.alloc(32, `T#:${im.name}`, 256, new Uint8Array(Uint32Array.from(words).buffer)).base);
  }
  for (const s of l.samplers ?? []) {
    descs.set(s.name, mem.alloc(16, `S#:${s.name}`, 256, new Uint8Array(Uint32Array.from(samplerDescriptor(gfx, s)).buffer)).base);
  }
  const explicit = md.args.filter((a) => !a.hidden);
  if (l.args.length !== explicit.length) {
    throw new InputError(`args: kernel ${kernel.name} takes ${explicit.length} arguments (${explicit.map((a) => `${a.name ?? '?'}: ${a.type_name ?? a.value_kind}`).join(', ')}), the manifest gives ${l.args.length}`);
  }
  const values: ArgValue[] = l.args.map((a, i) => {
    const meta = explicit[i]!;
    const f = `args[${i}] (${meta.name ?? meta.value_kind})`;
    switch (a.kind) {
      case 'buffer': {
        if (meta.value_kind !== 'global_buffer' && !(meta.value_kind === 'by_value' && meta.size === 8)) {
          throw new InputError(`${f}: the kernel expects ${meta.value_kind}${meta.type_name ? ` (${meta.type_name})` : ''}, not a buffer`);
        }
        return { kind: 'pointer', va: segs.get(a.name)!.seg.base };
      }
      case 'image':
      case 'sampler': {
        // OpenCL image/sampler arguments are constant-address-space pointers to the descriptor; a plain pointer argument takes it too.
        if (meta.value_kind !== a.kind && meta.value_kind !== 'global_buffer' && !(meta.value_kind === 'by_value' && meta.size === 8)) {
          throw new InputError(`${f}: the kernel expects ${meta.value_kind}${meta.type_name ? ` (${meta.type_name})` : ''}, not an ${a.kind}`);
        }
        const va = descs.get(a.name);
        if (va === undefined) throw new InputError(`${f}: no ${a.kind} '${a.name}'`);
        return { kind: 'pointer', va };
      }
      case 'local':
        if (meta.value_kind !== 'dynamic_shared_pointer') throw new InputError(`${f}: the kernel expects ${meta.value_kind}, not a __local size`);
        return { kind: 'local', bytes: a.bytes };
      case 'scalar': {
        if (meta.value_kind !== 'by_value') throw new InputError(`${f}: the kernel expects ${meta.value_kind}, not a scalar`);
        const bytes = scalarBytes(a.type, a.value);
        if (bytes.length !== meta.size) throw new InputError(`${f}: the kernel's argument is ${meta.size} bytes${meta.type_name ? ` (${meta.type_name})` : ''}, ${a.type} is ${bytes.length}`);
        return { kind: 'bytes', bytes };
      }
      case 'struct': {
        if (meta.value_kind !== 'by_value') throw new InputError(`${f}: the kernel expects ${meta.value_kind}, not a struct`);
        const bytes = structBytes(a.fields);
        if (bytes.length > meta.size) throw new InputError(`${f}: the kernel's argument is ${meta.size} bytes${meta.type_name ? ` (${meta.type_name})` : ''}, the struct is ${bytes.length}`);
        return { kind: 'bytes', bytes };
      }
    }
  });
  const setup = setupLaunch(mem, kernel, values, l.grid, l.block, code.loadBase + kernel.kdAddress);
  // Private segment per lane: the descriptor's fixed size, plus room for a dynamic stack.
  const scratchPerLane = kernel.kd.private_segment_fixed_size + (md.uses_dynamic_stack ? 16384 : 0);
  const loadBase = code.loadBase;
  let trace: ((w: Wave, op: Op) => void) | undefined = opts.onInstruction;
  let tracer: InstructionTracer | undefined;
  let traceAfter: ((w: Wave) => void) | undefined;
  if (opts.trace && !trace) {
    const t = (tracer = new InstructionTracer(opts.trace, { base: loadBase, ...(opts.traceLimit !== undefined ? { limit: opts.traceLimit } : {}) }));
    trace = t.before;
    traceAfter = (w) => t.after(w);
  }
  // A trace reads every access through GPU memory: the interpreter (the fast tier's memory paths bypass it).
  const engine = tracer ? 'interp' : opts.engine ?? 'fast';
  // An engine the caller did not choose: a small grid starts its ops on the reference handlers (tier.ts).
  const firstCalls = firstCallsFor(opts.engine);
  const timeline = opts.timeline ? new WaveTimeline(opts.timeline) : undefined;
  const observer = timeline && !opts.pm4 ? timeline.stage('compute') : undefined;
  let trapHandler: TrapHandler | undefined;
  if (l.trapHandler) {
    const tmaName = l.trapHandler.tma;
    if (tmaName !== undefined && !segs.has(tmaName)) throw new InputError(`trapHandler.tma: '${tmaName}' is not a buffer`);
    trapHandler = { code: l.trapHandler.code, tba: TRAP_BASE, tma: tmaName !== undefined ? segs.get(tmaName)!.seg.base : 0 };
  }
  const t0 = performance.now();
  let stats: DispatchStats | undefined;
  let strictStop: Diagnostic | undefined;
  if (opts.pm4 && trapHandler) throw new InputError('trapHandler: a PM4 launch sets no trap handler (TBA/TMA are privileged registers the model does not take from a stream)');
  try {
    if (opts.pm4) {
      const r = pm4Module().dispatchThroughPm4(code, kernel, mem, diag, setup, l.grid, l.block, opts.pm4 === 'indirect' ? { units: 'groups', indirect: true } : {}, {
        order, seed, engine, firstCalls, maxInstructions: opts.maxInstructions ?? DEFAULT_BUDGET,
        ...(trace ? { trace } : {}), ...(traceAfter ? { traceAfter } : {}), ...(timeline ? { timeline } : {}), ...(opts.progress ? { progress: opts.progress } : {}), ...(opts.onWaveEnd ? { onWaveEnd: opts.onWaveEnd } : {}),
      });
      stats = r.stats;
      opts.onPm4?.(r.stream, r.dispatchesRun);
    } else stats = dispatch(target, code, kernel, mem, diag, {
      grid: l.grid, block: l.block, kernargVa: setup.kernargVa, dynamicLds: setup.dynamicLds, order, seed, engine, firstCalls,
      maxInstructions: opts.maxInstructions ?? DEFAULT_BUDGET, dispatchPacketVa: setup.dispatchPacketVa,
      queueVa: setup.queueVa, scratchPerLane, ...(trace ? { trace } : {}), ...(traceAfter ? { traceAfter } : {}), ...(observer ? { observer } : {}),
      ...(opts.progress ? { progress: opts.progress } : {}),
      ...(opts.onWaveEnd ? { onWaveEnd: opts.onWaveEnd } : {}),
      ...(trapHandler ? { trapHandler } : {}),
    });
  } catch (e) {
    if (!(e instanceof StrictStop)) throw e;
    strictStop = e.diagnostic;
  } finally {
    tracer?.close();
  }
  const timeMs = performance.now() - t0;
  const buffers: Record<string, Uint8Array> = {};
  // Views, not copies: this run's memory is not used again (a copy doubled a large run's peak);
  // copies of those in the wasm heap, whose blocks the release below hands back for reuse.
  for (const b of l.buffers) {
    const seg = segs.get(b.name)!.seg;
    buffers[b.name] = seg.heap !== undefined ? seg.u8.slice(0, b.data.length) : seg.u8.subarray(0, b.data.length);
  }
  mem.release();
  const report: RunReport = {
    kernel: kernel.name,
    target: co.target.mcpu,
    waveSize: kernel.kd.derived.waveSize,
    grid: [...l.grid],
    block: [...l.block],
    order,
    seed,
    waves: stats?.waves ?? 0,
    workgroups: stats?.workgroups ?? 0,
    waveInstructions: stats?.waveInstructions ?? 0,
    laneOperations: stats?.laneOps ?? 0,
    byClass: stats?.byClass ?? {},
    timeMs: Math.round(timeMs * 1000) / 1000,
    aborted: strictStop !== undefined || (stats?.aborted ?? true),
    ldsBytes: kernel.kd.group_segment_fixed_size + setup.dynamicLds,
    scratchPerLane,
    diagnostics: diag.list.map(diagnosticRecord),
    diagnosticCounts: Object.fromEntries([...diag.counts.entries()].sort()),
    ...(tracer ? { traceLines: tracer.lines, traceSkipped: tracer.skipped } : {}),
  };
  return { report, buffers, strictStop };
}

type ReadFile = (p: string) => Uint8Array;
const readFromDisk: ReadFile = (p) => new Uint8Array(readFileSync(p));

/** Run a validated manifest: buffers from their init, outputs read back, expectations checked. */
export function runManifest(m: Manifest, opts: RunOptions = {}, readFile: ReadFile = readFromDisk): ManifestRun {
  const launch = manifestLaunch(m, readFile);
  return manifestResult(m, opts, manifestRun(m, () => runKernel(launch, opts)), readFile);
}

/**
 * runManifest with the kernel run by `run` (a worker pool's, src/runtime/parallel.ts: `gpusim run
 * --threads`), which gets the launch the manifest describes.
 */
export async function runManifestWith(m: Manifest, opts: RunOptions, run: (l: KernelLaunch) => Promise<KernelRun>, readFile: ReadFile = readFromDisk): Promise<ManifestRun> {
  const launch = manifestLaunch(m, readFile);
  let r: KernelRun;
  try {
    r = await run(launch);
  } catch (e) {
    throw inManifest(m, e);
  }
  return manifestResult(m, opts, r, readFile);
}

function inManifest(m: Manifest, e: unknown): unknown {
  return e instanceof InputError && !e.message.startsWith(m.path) ? new InputError(e.message, m.path) : e;
}

function manifestRun(m: Manifest, run: () => KernelRun): KernelRun {
  try {
    return run();
  } catch (e) {
    throw inManifest(m, e);
  }
}

/** A manifest's codeObject naming an assembly source (`.s`, `.asm`) rather than a linked code object. */
export function isAssemblySource(path: string): boolean {
  return /\.(s|asm)$/i.test(path);
}

/** The launch a manifest describes: its code object, and fresh buffers handed over to the run. */
export function manifestLaunch(m: Manifest, readFile: ReadFile = readFromDisk): KernelLaunch {
  if (m.rats) throw new InputError('rats: RAT bindings are for r600-family code objects (gpusim r600 run)', m.path);
  let coBytes: Uint8Array;
  try {
    coBytes = readFile(m.codeObject);
  } catch (e) {
    throw new InputError(`codeObject: cannot read ${m.codeObject}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, m.path);
  }
  let co: CodeObject;
  if (isAssemblySource(m.codeObject)) {
    // An assembly file with .amdhsa_kernel blocks: assembled and linked here, as `gpusim asm -o` does.
    try {
      coBytes = codeObjectOf(assembleSource(new TextDecoder().decode(coBytes)));
    } catch (e) {
      if (e instanceof AsmError || e instanceof InputError) throw new InputError(`codeObject: ${m.codeObject}: ${e.message}`, m.path);
      throw e;
    }
  }
  try {
    co = loadCodeObjectCached(coBytes, m.codeObject);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`codeObject: ${e.message}`, m.path);
    throw e;
  }
  // Fresh arrays, handed to the run as its GPU memory (no second copy).
  const buffers: KernelBuffer[] = m.buffers.map((b) => ({ name: b.name, type: b.type, data: bufferContents(b, readFile), adopt: true }));
  let trap: KernelLaunch['trapHandler'];
  if (m.trapHandler) {
    const th = m.trapHandler;
    let bytes: Uint8Array;
    try {
      bytes = readFile(th.path);
    } catch (e) {
      throw new InputError(`trapHandler.${th.kind}: cannot read ${th.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, m.path);
    }
    let code: Uint8Array | Uint32Array;
    if (th.kind === 'asm') {
      try {
        code = Uint32Array.from(assemble(executableTarget(co.target.mcpu) ?? gfx11, new TextDecoder().decode(bytes)));
      } catch (e) {
        throw new InputError(`trapHandler.asm: ${(e as Error).message.split('\n')[0]}`, m.path);
      }
    } else {
      if (bytes.length % 4 !== 0) throw new InputError(`trapHandler.code: ${bytes.length} bytes is not whole dwords`, m.path);
      code = bytes;
    }
    trap = { code, tma: th.tma };
  }
  return {
    codeObject: co, kernel: m.kernel, grid: m.grid, block: m.block, buffers, args: m.args, ...(trap ? { trapHandler: trap } : {}),
    ...(m.images ? { images: m.images } : {}), ...(m.samplers ? { samplers: m.samplers } : {}),
  };
}

/** Outputs checked against the manifest's expectations; run.json. */
function manifestResult(m: Manifest, opts: RunOptions, run: KernelRun, readFile: ReadFile): ManifestRun {
  const expectations: Record<string, ExpectationResult> = {};
  let ok = true;
  for (const [name, exp] of Object.entries(m.expect)) {
    let want: Uint8Array;
    try {
      want = readFile(exp.file);
    } catch (e) {
      throw new InputError(`expect.${name}.file: cannot read ${exp.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, m.path);
    }
    const type = m.buffers.find((b) => b.name === name)!.type;
    if (want.length % ELEM[type].bytes !== 0) throw new InputError(`expect.${name}.file: ${want.length} bytes is not a whole number of ${type} elements`, m.path);
    const r = compareBuffers(type, run.buffers[name]!, want, exp.ulp);
    expectations[name] = { ok: r.count === 0, ulp: exp.ulp, mismatches: r.count, first: r.first };
    if (r.count !== 0) ok = false;
  }
  const strictFail = opts.strict === true && (run.strictStop !== undefined || run.report.diagnostics.some((d) => d.severity !== 'info'));
  // A run that stopped early (a halted wave, the budget, a deadlock) did not compute its outputs.
  if (run.report.aborted) ok = false;
  const exitCode = ok && !strictFail ? 0 : 1;
  const json = { manifest: m.path, codeObject: m.codeObject, ...run.report, ok: exitCode === 0, expectations };
  return { ...run, manifest: m, expectations, exitCode, json };
}
