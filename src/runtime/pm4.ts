/**
 * PM4 compute dispatch on the shader model: the launch hook the command processor
 * (src/amd/cp/cp.ts) calls for DISPATCH_DIRECT / DISPATCH_INDIRECT on GFX9, GFX10.3 and GFX11.
 * It finds the loaded code object whose kernel entry is at COMPUTE_PGM_LO/HI (its target must be
 * the stream's generation: gfx900, gfx1030, gfx11), and launches the waves as the registers say,
 * the way the SPI does (it never reads the kernel descriptor): COMPUTE_PGM_RSRC1/2 (and RSRC3 on
 * GFX10.3/GFX11) give the VGPR count, FLOAT_MODE/DX10_CLAMP/IEEE_MODE, USER_SGPR, the workgroup-id
 * and TG_SIZE SGPRs, TIDIG_COMP_CNT and SCRATCH_EN; s0..s[USER_SGPR-1] are COMPUTE_USER_DATA_0..;
 * COMPUTE_NUM_THREAD_X/Y/Z is the workgroup (NUM_THREAD_PARTIAL the last one with PARTIAL_TG_EN);
 * the packet's dimensions are workgroup end values from COMPUTE_START_X/Y/Z (0 with
 * FORCE_START_AT_000), or threads with USE_THREAD_DIMENSIONS; CS_W32_EN (GFX10.3/GFX11; GFX9 is
 * wave64) must match the kernel's wave size. The model owns scratch: the private segment buffer,
 * flat scratch init and private segment size SGPRs are its own.
 */
import type { Memory } from '../core/memory.js';
import type { Diagnostics } from '../core/diagnostics.js';
import { decodeKernelDescriptor, KD_SIZE } from '../formats/amdgpu/kd.js';
import type { CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import { executableTarget } from '../amd/target/executable.js';
import { CommandProcessor, type ComputeLaunch } from '../amd/cp/cp.js';
import { Pm4Builder } from '../amd/cp/builder.js';
import type { LaunchSetup } from './hsa.js';
import { regDb, type Pm4Gen } from '../amd/cp/regdb.js';
import { LDS_ALLOC } from '../amd/exec/lds-alloc.gen.js';
import { dispatch, type DispatchConfig, type DispatchStats, type LoadedCode } from './dispatch.js';
import type { WaveTimeline } from '../amd/sq/timeline.js';

export interface Pm4ComputeOptions {
  readonly order?: 'roundrobin' | 'random';
  readonly seed?: number;
  readonly maxInstructions?: number;
  /** Private bytes per work-item on top of the descriptor's fixed size. */
  readonly extraScratchPerLane?: number;
  /** Passed on to dispatch.ts (see DispatchConfig). */
  readonly engine?: DispatchConfig['engine'];
  readonly firstCalls?: DispatchConfig['firstCalls'];
  readonly trace?: DispatchConfig['trace'];
  readonly traceAfter?: DispatchConfig['traceAfter'];
  readonly observer?: DispatchConfig['observer'];
  /** Record the dispatches' waves and each dispatch packet spanning them (`run --pm4 --timeline`). */
  readonly timeline?: WaveTimeline;
  readonly progress?: DispatchConfig['progress'];
  readonly onWaveEnd?: DispatchConfig['onWaveEnd'];
}

export interface Pm4DispatchResult {
  readonly kernel: string;
  /** Work-items launched per axis, counted from `start`. */
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  /** The first workgroup id per axis (COMPUTE_START_X/Y/Z, or 0). */
  readonly start: readonly [number, number, number];
  readonly stats: DispatchStats;
}

/** The instruction-set generation (IsaTarget space.gfx) of each PM4 generation. */
const ISA_GFX: Record<Pm4Gen, 9 | 10 | 11> = { gfx9: 9, gfx103: 10, gfx11: 11 };
const STREAM_TARGET: Record<Pm4Gen, string> = { gfx9: 'gfx900', gfx103: 'gfx1030', gfx11: 'gfx11 (gfx1100..gfx1103)' };

/**
 * The kernel as the registers launch it: its descriptor with COMPUTE_PGM_RSRC1/2/3 replaced by the
 * register values (decoded with the kernel's generation tables), everything else unchanged.
 */
function kernelAsRegistersSay(l: ComputeLaunch, code: LoadedCode, kernel: CodeObjectKernel): CodeObjectKernel {
  const kd = kernel.kd;
  const hasRsrc3 = regDb(l.gen).get('COMPUTE_PGM_RSRC3') !== undefined;
  const rsrc3 = hasRsrc3 ? l.rsrc3 : kd.compute_pgm_rsrc3;
  if (l.rsrc1 >>> 0 === kd.compute_pgm_rsrc1 >>> 0 && l.rsrc2 >>> 0 === kd.compute_pgm_rsrc2 >>> 0 && rsrc3 >>> 0 === kd.compute_pgm_rsrc3 >>> 0) return kernel;
  const raw = code.co.elf.bytes.slice(kernel.kdOffset, kernel.kdOffset + KD_SIZE);
  const dv = new DataView(raw.buffer, raw.byteOffset, KD_SIZE);
  dv.setUint32(44, rsrc3 >>> 0, true);
  dv.setUint32(48, l.rsrc1 >>> 0, true);
  dv.setUint32(52, l.rsrc2 >>> 0, true);
  return { ...kernel, kd: decodeKernelDescriptor(raw, kd.generation) };
}

/** A launch hook running dispatches whose COMPUTE_PGM_LO/HI is a kernel entry of one of `codes`. */
export function computeLauncher(codes: readonly LoadedCode[], opts: Pm4ComputeOptions = {}, results: Pm4DispatchResult[] = []): (l: ComputeLaunch) => boolean {
  return (l) => {
    const rec = l.record;
    const where = { offset: rec.offset, level: rec.level };
    let found: { code: LoadedCode; kernel: CodeObjectKernel } | undefined;
    for (const code of codes) {
      for (const k of code.co.kernels) if (code.loadBase + k.entryAddress === rec.pgmVa) found = { code, kernel: k };
    }
    if (!found) {
      l.diag.report({ id: 'pm4.dispatch.no-code', severity: 'error', where, message: `${rec.packet}: COMPUTE_PGM_LO/HI point at 0x${rec.pgmVa.toString(16)}, which is no loaded kernel entry` });
      return false;
    }
    const { code } = found;
    const mcpu = code.co.target.mcpu;
    const target = executableTarget(mcpu);
    if (!target || target.space.gfx !== ISA_GFX[l.gen]) {
      l.diag.report({
        id: 'pm4.dispatch.target-mismatch', severity: 'error', where,
        message: `${rec.packet}: ${found.kernel.name} is ${mcpu} code, which ${target ? `a ${l.gen} command processor cannot run` : 'gpusim cannot execute'}; a ${l.gen} stream runs ${STREAM_TARGET[l.gen]} kernels; the dispatch is recorded, not run`,
      });
      return false;
    }
    const db = regDb(l.gen);
    const kernel = kernelAsRegistersSay(l, code, found.kernel);
    const kd = kernel.kd;
    const want = found.kernel.kd;
    const regs: [string, number, number][] = [['COMPUTE_PGM_RSRC1', l.rsrc1, want.compute_pgm_rsrc1], ['COMPUTE_PGM_RSRC2', l.rsrc2, want.compute_pgm_rsrc2]];
    if (db.get('COMPUTE_PGM_RSRC3')) regs.push(['COMPUTE_PGM_RSRC3', l.rsrc3, want.compute_pgm_rsrc3]);
    // A driver sets RSRC2.LDS_SIZE to the workgroup's whole LDS (static and dynamic): not a mismatch.
    const ldsField = db.get('COMPUTE_PGM_RSRC2')!.fields.find((f) => f.name === 'LDS_SIZE')!;
    const ldsMask = (((1 << (ldsField.hi - ldsField.lo + 1)) - 1) << ldsField.lo) >>> 0;
    for (const [name, reg, w] of regs) {
      const m = name === 'COMPUTE_PGM_RSRC2' ? ~ldsMask : 0xffffffff;
      if ((reg & m) >>> 0 !== (w & m) >>> 0) {
        l.diag.report({ id: 'pm4.dispatch.rsrc-mismatch', severity: 'warning', where, message: `${name} is 0x${(reg >>> 0).toString(16)} but ${kernel.name}'s descriptor says 0x${(w >>> 0).toString(16)}; the waves launch as the register says` });
      }
    }
    const init = (f: string): number => db.field('COMPUTE_DISPATCH_INITIATOR', f, rec.initiator) ?? 0;
    // GFX9 has no CS_W32_EN: every compute wave is wave64.
    const w32 = init('CS_W32_EN') === 1;
    if (w32 !== (kd.derived.waveSize === 32)) {
      l.diag.report({ id: 'pm4.dispatch.wave-size-mismatch', severity: 'warning', where, message: `${db.get('COMPUTE_DISPATCH_INITIATOR')!.fields.some((f) => f.name === 'CS_W32_EN') ? `DISPATCH_INITIATOR.CS_W32_EN = ${w32 ? 1 : 0}` : `${l.gen} launches wave64 only`} but ${kernel.name} is compiled for wave${kd.derived.waveSize}; the waves launch in wave${kd.derived.waveSize}` });
    }
    // LDS per workgroup: RSRC2.LDS_SIZE in the generation's granule (lds-alloc.gen.ts); what the
    // kernel's static LDS does not take is its dynamic LDS.
    const ldsGen = LDS_ALLOC[ISA_GFX[l.gen]];
    const ldsBytes = (db.field('COMPUTE_PGM_RSRC2', 'LDS_SIZE', l.rsrc2) ?? 0) * ldsGen.ldsSizeGranule;
    if (ldsBytes < kd.group_segment_fixed_size) {
      l.diag.report({ id: 'pm4.dispatch.lds-below-static', severity: 'warning', where, message: `COMPUTE_PGM_RSRC2.LDS_SIZE gives ${ldsBytes} bytes of LDS but ${kernel.name} uses ${kd.group_segment_fixed_size} bytes of static LDS: its accesses past the allocation are out of range` });
    }
    const full = rec.block;
    if (full.some((b) => b === 0)) {
      l.diag.report({ id: 'pm4.dispatch.empty-workgroup', severity: 'error', where, message: `COMPUTE_NUM_THREAD_X/Y/Z = ${full.join('x')}: a workgroup with no threads` });
      return false;
    }
    const threadDims = init('USE_THREAD_DIMENSIONS') === 1;
    const forceStart = init('FORCE_START_AT_000') === 1;
    const startRegs = (['COMPUTE_START_X', 'COMPUTE_START_Y', 'COMPUTE_START_Z'] as const).map((n) => rec.state.get(n));
    const start: [number, number, number] = forceStart ? [0, 0, 0] : [startRegs[0]!, startRegs[1]!, startRegs[2]!];
    let grid: [number, number, number];
    if (threadDims) {
      if (start.some((s) => s !== 0)) {
        l.diag.report({ id: 'pm4.dispatch.start-with-thread-dimensions', severity: 'error', where, message: `COMPUTE_START_X/Y/Z = ${start.join(',')} with USE_THREAD_DIMENSIONS: a thread-dimension dispatch starting past 0 is not modelled; the dispatch is recorded, not run` });
        return false;
      }
      grid = [rec.dims[0], rec.dims[1], rec.dims[2]];
    } else {
      // DIM_X/Y/Z are end values: workgroups start..DIM-1 run (radv adds COMPUTE_START to the dimensions).
      if (rec.dims.some((d, i) => d <= start[i]!)) {
        l.diag.report({ id: 'pm4.dispatch.start-past-end', severity: 'warning', where, message: `COMPUTE_START_X/Y/Z = ${start.join(',')} is not below the dimensions ${rec.dims.join(',')} (end values): no workgroup launches` });
        return false;
      }
      // With PARTIAL_TG_EN the last workgroup of each axis has NUM_THREAD_PARTIAL threads (0: a full one).
      const partialEn = init('PARTIAL_TG_EN') === 1;
      const partial = (['COMPUTE_NUM_THREAD_X', 'COMPUTE_NUM_THREAD_Y', 'COMPUTE_NUM_THREAD_Z'] as const).map((n) => db.field(n, 'NUM_THREAD_PARTIAL', rec.state.get(n)) ?? 0);
      grid = [0, 1, 2].map((i) => {
        const groups = rec.dims[i]! - start[i]!;
        const last = partialEn && partial[i]! > 0 ? Math.min(partial[i]!, full[i]!) : full[i]!;
        return (groups - 1) * full[i]! + last;
      }) as [number, number, number];
    }
    const md = kernel.metadata;
    const block: [number, number, number] = [full[0], full[1], full[2]];
    // On a timeline this dispatch follows the last one: its scheduler clock starts at 0.
    const tl = opts.timeline;
    const base = tl ? (tl.offset = tl.latest) : 0;
    const observer = tl ? tl.stage('compute') : opts.observer;
    const stats = dispatch(target, code, kernel, l.mem, l.diag, {
      // The user SGPRs (kernarg, dispatch packet and queue pointers...) are COMPUTE_USER_DATA_n.
      grid, block, kernargVa: 0, dispatchPacketVa: 0, queueVa: 0, userData: l.userData, dynamicLds: ldsBytes - kd.group_segment_fixed_size,
      order: opts.order ?? 'roundrobin', seed: opts.seed ?? 1, maxInstructions: opts.maxInstructions ?? 50_000_000,
      ...(opts.engine ? { engine: opts.engine } : {}), ...(opts.firstCalls !== undefined ? { firstCalls: opts.firstCalls } : {}), ...(opts.trace ? { trace: opts.trace } : {}),
      ...(opts.traceAfter ? { traceAfter: opts.traceAfter } : {}), ...(observer ? { observer } : {}),
      ...(opts.progress ? { progress: opts.progress } : {}), ...(opts.onWaveEnd ? { onWaveEnd: opts.onWaveEnd } : {}),
      scratchPerLane: kd.private_segment_fixed_size + (opts.extraScratchPerLane ?? (md?.uses_dynamic_stack ? 16384 : 0)),
      ...(start.some((s) => s !== 0) ? { groupBase: start } : {}),
    });
    tl?.packet(`${rec.packet} ${kernel.name}`, base, Math.max(tl.latest, base), { offset: rec.offset, level: rec.level, grid: grid.join('x'), block: block.join('x') });
    results.push({ kernel: kernel.name, grid, block, start, stats });
    return true;
  };
}

/** A command processor with compute dispatches wired to the shader model. */
export function pm4Machine(gen: Pm4Gen, mem: Memory, diag: Diagnostics, codes: readonly LoadedCode[], opts: Pm4ComputeOptions = {}): { cp: CommandProcessor; results: Pm4DispatchResult[] } {
  const results: Pm4DispatchResult[] = [];
  const cp = new CommandProcessor({ gen, mem, diag, launch: computeLauncher(codes, opts, results) });
  return { cp, results };
}

/** How `emitKernelDispatch` gives the grid. */
export interface KernelDispatchForm {
  /**
   * 'threads' (default): DISPATCH_DIRECT of the grid in work-items with USE_THREAD_DIMENSIONS.
   * 'groups': workgroup counts, the last workgroup of an axis the grid does not fill given by
   * NUM_THREAD_PARTIAL with PARTIAL_TG_EN (as radeonsi emits it).
   */
  readonly units?: 'threads' | 'groups';
  /** DISPATCH_INDIRECT reading the three dimensions at this VA (put there with `dispatchDims`). */
  readonly indirectVa?: number;
  /**
   * 'groups' only: the first workgroup id per axis (vkCmdDispatchBase): COMPUTE_START_X/Y/Z, and
   * the packet's dimensions become end values (start + count), as radv emits them. `grid` counts
   * the work-items from the start.
   */
  readonly start?: readonly [number, number, number];
}

/** The DIM_X/Y/Z a dispatch of `grid` work-items in `block` workgroups carries, in `units`. */
export function dispatchDims(grid: readonly [number, number, number], block: readonly [number, number, number], units: 'threads' | 'groups' = 'threads'): [number, number, number] {
  return units === 'threads' ? [grid[0], grid[1], grid[2]] : [0, 1, 2].map((i) => Math.ceil(grid[i]! / block[i]!)) as [number, number, number];
}

/**
 * Emit the PM4 of one kernel dispatch as a driver does: COMPUTE_PGM_LO/HI at the kernel entry,
 * COMPUTE_PGM_RSRC1/2 (and RSRC3 where the generation has it) from its descriptor, RSRC2.LDS_SIZE
 * covering the static and the dynamic LDS of `setup`, COMPUTE_NUM_THREAD_X/Y/Z, COMPUTE_START_X/Y/Z (0 and FORCE_START_AT_000 unless the form gives a
 * start), the user SGPRs the descriptor enables
 * (kernarg, dispatch packet and queue pointers from `setup`, see hsa.ts setupLaunch) in
 * COMPUTE_USER_DATA_n, then DISPATCH_DIRECT (or DISPATCH_INDIRECT) of `grid` in the form's units
 * with CS_W32_EN per the kernel's wave size (GFX10.3/GFX11).
 */
export function emitKernelDispatch(b: Pm4Builder, code: LoadedCode, kernel: CodeObjectKernel, setup: LaunchSetup, grid: readonly [number, number, number], block: readonly [number, number, number], form: KernelDispatchForm = {}): Pm4Builder {
  const kd = kernel.kd;
  const entry = code.loadBase + kernel.entryAddress;
  const groups = form.units === 'groups';
  const partial = block.map((n, i) => (groups ? grid[i]! % n : 0));
  // RSRC2.LDS_SIZE: the workgroup's static and dynamic LDS in the generation's granule, as a driver sets it.
  const ldsF = b.db.get('COMPUTE_PGM_RSRC2')!.fields.find((f) => f.name === 'LDS_SIZE')!;
  const ldsUnits = Math.ceil((kd.group_segment_fixed_size + setup.dynamicLds) / LDS_ALLOC[ISA_GFX[b.gen]].ldsSizeGranule);
  const ldsMask = (((1 << (ldsF.hi - ldsF.lo + 1)) - 1) << ldsF.lo) >>> 0;
  const rsrc2 = ((kd.compute_pgm_rsrc2 & ~ldsMask) | ((ldsUnits << ldsF.lo) & ldsMask)) >>> 0;
  b.setShReg('COMPUTE_PGM_LO', Math.floor(entry / 256) % 2 ** 32, Math.floor(entry / 2 ** 40))
    .setShReg('COMPUTE_PGM_RSRC1', kd.compute_pgm_rsrc1, rsrc2);
  if (b.db.get('COMPUTE_PGM_RSRC3')) b.setShReg('COMPUTE_PGM_RSRC3', kd.compute_pgm_rsrc3);
  if (form.start && !groups) throw new RangeError('emitKernelDispatch: a start workgroup needs units: groups');
  const start = form.start ?? [0, 0, 0];
  b.setShReg('COMPUTE_NUM_THREAD_X', ...block.map((n, i) => (n | partial[i]! << 16) >>> 0)).setShReg('COMPUTE_START_X', ...start);
  const ptrs: Record<string, number> = { kernarg_segment_ptr: setup.kernargVa, dispatch_ptr: setup.dispatchPacketVa, queue_ptr: setup.queueVa };
  for (const u of kd.derived.userSgprs) {
    const v = ptrs[u.name];
    if (v === undefined) continue;
    b.setShReg(b.db.offset('COMPUTE_USER_DATA_0') + u.reg, v % 2 ** 32, Math.floor(v / 2 ** 32));
  }
  // Without a start, FORCE_START_AT_000 as radv and radeonsi set it (COMPUTE_START_* is then ignored).
  const initiator = b.dispatchInitiator({ useThreadDimensions: !groups, partialGroups: partial.some((p) => p !== 0), forceStartAt000: form.start === undefined, wave32: kd.derived.waveSize === 32 });
  if (form.indirectVa !== undefined) return b.dispatchIndirect({ va: form.indirectVa }, initiator);
  const d = dispatchDims(grid, block, form.units);
  return b.dispatchDirect(d[0] + start[0], d[1] + start[1], d[2] + start[2], initiator);
}

/** The PM4 generation whose command processor runs code of an instruction-set generation. */
export function pm4GenOfIsa(gfx: 9 | 10 | 11): Pm4Gen {
  return gfx === 9 ? 'gfx9' : gfx === 10 ? 'gfx103' : 'gfx11';
}

/**
 * Run one prepared launch (`setupLaunch` done, buffers in `mem`) through the command processor of
 * the code object's generation: the stream `emitKernelDispatch` builds (indirect: the dimensions
 * written to GPU memory first), executed by `pm4Machine`. `gpusim run --pm4` and the tests that
 * compare it with a direct dispatch use it. Returns the dispatch statistics (undefined when the CP
 * ran no kernel; its diagnostics say why), the stream and how many of its dispatches ran.
 */
export function dispatchThroughPm4(
  code: LoadedCode, kernel: CodeObjectKernel, mem: Memory, diag: Diagnostics, setup: LaunchSetup,
  grid: readonly [number, number, number], block: readonly [number, number, number],
  form: KernelDispatchForm & { readonly indirect?: boolean }, opts: Pm4ComputeOptions = {},
): { stats: DispatchStats | undefined; stream: Uint32Array; dispatchesRun: number } {
  const target = executableTarget(code.co.target.mcpu);
  const gen = pm4GenOfIsa(target ? target.space.gfx : 11);
  let indirectVa: number | undefined;
  if (form.indirect) {
    const seg = mem.alloc(12, 'dispatch-dims', 16);
    const d = dispatchDims(grid, block, form.units);
    for (let i = 0; i < 3; i++) mem.write32(seg.base + 4 * i, d[i]!);
    indirectVa = seg.base;
  }
  const b = new Pm4Builder(gen);
  emitKernelDispatch(b, code, kernel, setup, grid, block, { ...(form.units ? { units: form.units } : {}), ...(indirectVa !== undefined ? { indirectVa } : {}) });
  const { cp, results } = pm4Machine(gen, mem, diag, [code], opts);
  const stream = b.finish();
  cp.run(stream);
  return { stats: results[0]?.stats, stream, dispatchesRun: results.length };
}
