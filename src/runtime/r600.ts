/**
 * The driver level of the R600 family (`gpusim run` / `gpusim r600 run` on an r600 ELF): running
 * a kernel from the shared run manifest (manifest.ts) or from in-memory buffers, laid out as Mesa's
 * OpenCL runtime (clover) and r600 driver do for LLVM-compiled kernels:
 *
 * - Buffers sit in one flat 32-bit global address space (256-byte aligned, from 256 so no buffer
 *   is at address 0): clover's global pool, bound as RAT 0 (writes) and vertex buffer 1 (reads).
 * - CB0 dwords 0-8 are the group counts, global and local sizes (wave/dispatch.ts); from byte 36
 *   come clover's kernel input bytes: each explicit argument at its LLVM ABI alignment counted from
 *   byte 36 (64-bit scalars 8, everything else at most 4), then clover's implicit arguments
 *   (make_kernel_args: grid_dimension, then grid_offset), each a 32-bit word at 4-byte alignment:
 *   work_dim, then the global offset x, y, z. libclc reads them through llvm.r600.implicitarg.ptr,
 *   which LLVM places at alignTo(explicit argument bytes, 4) after byte 36.
 * - A dynamic __local argument is its LDS byte offset (clover's local_argument::bind). Clover
 *   counts them from 0; LLVM puts the kernel's static __local variables at 0 too (SQ_LDS_ALLOC in
 *   .AMDGPU.config), so gpusim counts from the end of the static block instead: the same offsets
 *   as clover when the kernel has no static __local data, no overlap when it has.
 * - Outputs are compared with the manifest's expectations (integers exactly, floats within ULPs).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Diagnostics, StrictStop, type Diagnostic } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import {
  ELEM, bufferContents, compareBuffers, loadManifest, scalarBytes, structBytes,
  type ArgSpec, type ElemType, type Manifest, type Mismatch,
} from './manifest.js';
import { encodeRatByName } from '../r600/exec/rat.js';
import { loadR600Object, type R600Object } from '../r600/isa/object.js';
import { LDS_BYTES, runR600, staticLdsBytesOf, type R600RunResult } from '../r600/wave/dispatch.js';

export interface R600Buffer {
  readonly name: string;
  readonly type: ElemType;
  readonly data: Uint8Array;
}

export interface R600Launch {
  readonly object: R600Object | Uint8Array;
  readonly kernel?: string;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly buffers: readonly R600Buffer[];
  readonly args: readonly ArgSpec[];
  readonly textures?: readonly R600Texture[];
  /** Samplers (SQ_TEX_SAMPLER_WORD0..2) by SAMPLER_ID. */
  readonly samplers?: ReadonlyMap<number, Uint32Array>;
  /** RATs bound to buffers (typed STORE_TYPED surfaces). */
  readonly rats?: readonly R600RatBinding[];
  /** get_work_dim(): the work_dim of clEnqueueNDRangeKernel (default: 3 if grid z > 1, else 2 if grid y > 1, else 1). */
  readonly workDim?: number;
  /** get_global_offset(): the global work offset per axis (default 0, 0, 0). */
  readonly globalOffset?: readonly [number, number, number];
}

/** A texture bound to RESOURCE_ID `id`: its T# words with BASE_ADDRESS / MIP_ADDRESS relative to buffer `buffer`. */
export interface R600Texture {
  readonly id: number;
  readonly buffer: string;
  readonly words: Uint32Array;
}

/** RAT `id` (1..11; 0 is global memory unless bound): its CB_COLORn_BASE..DIM dwords (exec/rat.ts encodeRat) with BASE relative to buffer `buffer`. */
export interface R600RatBinding {
  readonly id: number;
  readonly buffer: string;
  readonly words: Uint32Array;
}

export interface R600RunOptions {
  readonly seed?: number;
  readonly order?: 'roundrobin' | 'random';
  readonly strict?: boolean;
  readonly maxInstructions?: number;
  readonly stackSize?: number;
  /**
   * RAT atomics on global memory take byte addresses, as clang-19 emits them (default true);
   * false: element (dword) indices, as Mesa's own r600 compiler emits them. docs/r600.md.
   */
  readonly atomicByteAddress?: boolean;
  /** One line per CF instruction with the wave's active/valid masks and stack depth. */
  readonly trace?: (line: string) => void;
}

export interface R600KernelRun {
  readonly result: R600RunResult | undefined;
  readonly buffers: Readonly<Record<string, Uint8Array>>;
  readonly diagnostics: readonly Diagnostic[];
  readonly diagnosticCounts: Readonly<Record<string, number>>;
  readonly strictStop: Diagnostic | undefined;
  readonly timeMs: number;
  readonly mcpu: string;
  readonly kernel: string;
}

/** Run a kernel on in-memory buffers. */
export function runR600Kernel(l: R600Launch, opts: R600RunOptions = {}): R600KernelRun {
  const o = l.object instanceof Uint8Array ? loadR600Object(l.object, 'codeObject') : l.object;
  const k = l.kernel === undefined ? (o.kernels.length === 1 ? o.kernels[0] : undefined) : o.kernels.find((x) => x.name === l.kernel);
  if (!k) throw new InputError(`kernel: ${l.kernel === undefined ? `the object has ${o.kernels.length} kernels; name one` : `no kernel '${l.kernel}' (it has ${o.kernels.map((x) => x.name).join(', ')})`}`);
  // Place buffers.
  const addr = new Map<string, number>();
  let top = 256;
  for (const b of l.buffers) {
    addr.set(b.name, top);
    top += Math.ceil(Math.max(b.data.length, 4) / 256) * 256;
  }
  if (top > 0xffffffff) throw new InputError('buffers: more than 4 GiB does not fit the 32-bit r600 address space');
  const global = new Uint8Array(top);
  for (const b of l.buffers) global.set(b.data, addr.get(b.name)!);
  // Kernel arguments: clover's input bytes, placed at CB0 byte 36 (offsets here count from there).
  const argBytes: number[] = [];
  const place = (bytes: Uint8Array, align: number): void => {
    while (argBytes.length % align) argBytes.push(0);
    argBytes.push(...bytes);
  };
  const u32 = (v: number): Uint8Array => new Uint8Array(new Uint32Array([v >>> 0]).buffer);
  let local = staticLdsBytesOf(o, k);
  for (const [i, a] of l.args.entries()) {
    if (a.kind === 'buffer') {
      const at = addr.get(a.name);
      if (at === undefined) throw new InputError(`args[${i}]: no buffer '${a.name}'`);
      place(u32(at), 4);
    } else if (a.kind === 'scalar') place(scalarBytes(a.type, a.value), ELEM[a.type].bytes);
    else if (a.kind === 'struct') place(structBytes(a.fields), Math.max(4, ...a.fields.map((f) => ELEM[f.type].bytes)));
    else if (a.kind === 'image' || a.kind === 'sampler') throw new InputError(`args[${i}]: ${a.kind}s are for gfx900/gfx1030/gfx11 code objects`);
    else {
      place(u32(local), 4);
      local += Math.ceil(a.bytes / 4) * 4;
      if (local > LDS_BYTES) throw new InputError(`args[${i}]: ${local} bytes of LDS (static ${staticLdsBytesOf(o, k)} + __local arguments) exceed the ${LDS_BYTES}-byte LDS`);
    }
  }
  const workDim = l.workDim ?? (l.grid[2] > 1 ? 3 : l.grid[1] > 1 ? 2 : 1);
  if (!Number.isInteger(workDim) || workDim < 1 || workDim > 3) throw new InputError(`workDim must be 1, 2 or 3, not ${workDim}`);
  const off = l.globalOffset ?? [0, 0, 0];
  for (const v of [workDim, off[0], off[1], off[2]]) place(u32(v), 4);
  const textures = new Map<number, Uint32Array>();
  for (const t of l.textures ?? []) {
    const at = addr.get(t.buffer);
    if (at === undefined) throw new InputError(`textures: no buffer '${t.buffer}'`);
    const w = Uint32Array.from(t.words);
    w[2] = (w[2]! + at / 256) >>> 0;
    if (w[3]) w[3] = (w[3]! + at / 256) >>> 0;
    textures.set(t.id, w);
  }
  const rats = new Map<number, Uint32Array>();
  for (const t of l.rats ?? []) {
    const at = addr.get(t.buffer);
    if (at === undefined) throw new InputError(`rats: no buffer '${t.buffer}'`);
    const w = Uint32Array.from(t.words);
    w[0] = (w[0]! + at / 256) >>> 0;
    rats.set(t.id, w);
  }
  const diag = new Diagnostics({ strict: opts.strict ?? false });
  const t0 = Date.now();
  let result: R600RunResult | undefined;
  let strictStop: Diagnostic | undefined;
  try {
    result = runR600({
      object: o, kernel: k, grid: l.grid, block: l.block, args: new Uint8Array(argBytes), global, diag,
      order: opts.order, seed: opts.seed, maxInstructions: opts.maxInstructions, stackSize: opts.stackSize, atomicByteAddress: opts.atomicByteAddress, trace: opts.trace,
      textures, samplers: l.samplers, rats,
    });
  } catch (e) {
    if (e instanceof StrictStop) strictStop = e.diagnostic;
    else throw e;
  }
  const buffers: Record<string, Uint8Array> = {};
  for (const b of l.buffers) {
    const at = addr.get(b.name)!;
    buffers[b.name] = global.slice(at, at + b.data.length);
  }
  return {
    result, buffers, diagnostics: diag.list, diagnosticCounts: Object.fromEntries(diag.counts), strictStop,
    timeMs: Date.now() - t0, mcpu: o.mcpu, kernel: k.name,
  };
}

export interface R600ManifestRun extends R600KernelRun {
  readonly manifest: Manifest;
  readonly expectations: Readonly<Record<string, { ok: boolean; ulp: number; mismatches: number; first: readonly Mismatch[] }>>;
  readonly exitCode: 0 | 1;
  readonly json: Record<string, unknown>;
}

/** Run a manifest whose code object is an r600-family ELF. */
export function runR600Manifest(pathOrManifest: string | Manifest, opts: R600RunOptions = {}): R600ManifestRun {
  const m = typeof pathOrManifest === 'string' ? loadManifest(pathOrManifest) : pathOrManifest;
  let bytes: Uint8Array;
  const coPath = resolve(m.dir, m.codeObject);
  try {
    bytes = new Uint8Array(readFileSync(coPath));
  } catch {
    throw new InputError(`codeObject: cannot read ${coPath}`);
  }
  const object = loadR600Object(bytes, m.codeObject);
  if (m.images || m.samplers) throw new InputError(`${m.images ? 'images' : 'samplers'}: images and samplers are for gfx900/gfx1030/gfx11 code objects (r600 kernels bind surfaces with rats)`);
  const buffers = m.buffers.map((b) => ({ name: b.name, type: b.type, data: bufferContents(b) }));
  const rats = m.rats?.map((r, i) => ({ id: r.id, buffer: r.buffer, words: encodeRatByName(r.fields, `rats[${i}]`) }));
  const run = runR600Kernel({
    object, kernel: m.kernel, grid: m.grid, block: m.block, buffers, args: m.args, rats,
    ...(m.workDim !== undefined ? { workDim: m.workDim } : {}), ...(m.globalOffset !== undefined ? { globalOffset: m.globalOffset } : {}),
  }, opts);
  const expectations: Record<string, { ok: boolean; ulp: number; mismatches: number; first: readonly Mismatch[] }> = {};
  let ok = true;
  for (const [name, e] of Object.entries(m.expect)) {
    const spec = m.buffers.find((b) => b.name === name);
    if (!spec) throw new InputError(`expect.${name}: no such buffer`);
    let want: Uint8Array;
    try {
      want = new Uint8Array(readFileSync(e.file));
    } catch {
      throw new InputError(`expect.${name}.file: cannot read ${e.file}`);
    }
    const c = compareBuffers(spec.type, run.buffers[name]!, want, e.ulp);
    expectations[name] = { ok: c.count === 0, ulp: e.ulp, mismatches: c.count, first: c.first };
    if (c.count) ok = false;
  }
  const aborted = run.strictStop !== undefined || (run.result?.stopped ?? true);
  const exitCode: 0 | 1 = !ok || (opts.strict && (run.diagnostics.some((d) => d.severity !== 'info') || aborted)) ? 1 : 0;
  const s = run.result?.stats;
  const json = {
    manifest: m.path, codeObject: coPath, kernel: run.kernel, target: `r600-${run.mcpu}`, waveSize: run.result?.waveSize ?? 64,
    grid: m.grid, block: m.block, order: opts.order ?? 'roundrobin', seed: opts.seed ?? 1,
    waves: run.result?.waves ?? 0, workgroups: run.result?.workgroups ?? 0,
    waveInstructions: s ? s.cfInstructions + s.aluInstructions + s.fetches : 0,
    laneOperations: s?.laneOps ?? 0,
    byClass: s ? { cf: s.cfInstructions, aluGroups: s.aluGroups, alu: s.aluInstructions, fetch: s.fetches, rat: s.ratOps, lds: s.ldsOps } : {},
    stackSize: run.result?.stackSize ?? 0,
    timeMs: run.timeMs, aborted, diagnostics: run.diagnostics, diagnosticCounts: run.diagnosticCounts, ok, expectations,
  };
  return { ...run, manifest: m, expectations, exitCode, json };
}
