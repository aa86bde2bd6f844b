/**
 * PM4 compute dispatch on the shader model: the launch hook the command processor
 * (src/amd/cp/cp.ts) calls for DISPATCH_DIRECT / DISPATCH_INDIRECT. It finds the loaded code
 * object whose kernel entry is at COMPUTE_PGM_LO/HI, reads the kernarg, dispatch-packet and queue
 * pointers from the COMPUTE_USER_DATA registers at the user-SGPR slots the kernel descriptor
 * enables, takes the workgroup size from COMPUTE_NUM_THREAD_X/Y/Z and the grid from the packet
 * (threads with USE_THREAD_DIMENSIONS, workgroups otherwise), and runs dispatch.ts.
 */
import type { Memory } from '../core/memory.js';
import type { Diagnostics } from '../core/diagnostics.js';
import type { CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import { gfx11 } from '../amd/isa/gfx11/index.js';
import { CommandProcessor, type ComputeLaunch } from '../amd/cp/cp.js';
import type { Pm4Builder } from '../amd/cp/builder.js';
import type { LaunchSetup } from './hsa.js';
import type { Pm4Gen } from '../amd/cp/regdb.js';
import { dispatch, type DispatchStats, type LoadedCode } from './dispatch.js';

export interface Pm4ComputeOptions {
  readonly order?: 'roundrobin' | 'random';
  readonly seed?: number;
  readonly maxInstructions?: number;
  /** Dynamic LDS bytes per workgroup (the kernel's `local` arguments). */
  readonly dynamicLds?: number;
  /** Private bytes per work-item on top of the descriptor's fixed size. */
  readonly extraScratchPerLane?: number;
}

export interface Pm4DispatchResult {
  readonly kernel: string;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly stats: DispatchStats;
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
    const { code, kernel } = found;
    const kd = kernel.kd;
    if (l.gen !== 'gfx11' || kd.generation !== 'gfx11') {
      l.diag.report({ id: 'pm4.dispatch.not-executed', severity: 'info', where, message: `${rec.packet}: gpusim executes GFX11 code only (stream ${l.gen}, kernel ${kd.generation}); the dispatch is recorded, not run` });
      return false;
    }
    for (const [name, reg, want] of [['COMPUTE_PGM_RSRC1', l.rsrc1, kd.compute_pgm_rsrc1], ['COMPUTE_PGM_RSRC2', l.rsrc2, kd.compute_pgm_rsrc2], ['COMPUTE_PGM_RSRC3', l.rsrc3, kd.compute_pgm_rsrc3]] as const) {
      if (reg >>> 0 !== want >>> 0) {
        l.diag.report({ id: 'pm4.dispatch.rsrc-mismatch', severity: 'warning', where, message: `${name} is 0x${(reg >>> 0).toString(16)} but ${kernel.name}'s descriptor says 0x${(want >>> 0).toString(16)}; the waves launch as the descriptor says` });
      }
    }
    const w32 = ((rec.initiator >>> 15) & 1) === 1;
    if (w32 !== (kd.derived.waveSize === 32)) {
      l.diag.report({ id: 'pm4.dispatch.wave-size-mismatch', severity: 'warning', where, message: `DISPATCH_INITIATOR.CS_W32_EN = ${w32 ? 1 : 0} but ${kernel.name} is compiled for wave${kd.derived.waveSize}` });
    }
    const block = rec.block;
    if (block.some((b) => b === 0)) {
      l.diag.report({ id: 'pm4.dispatch.empty-workgroup', severity: 'error', where, message: `COMPUTE_NUM_THREAD_X/Y/Z = ${block.join('x')}: a workgroup with no threads` });
      return false;
    }
    const grid = (l.useThreadDimensions ? rec.dims : rec.dims.map((d, i) => d * block[i]!)) as [number, number, number];
    const u = l.userData;
    const ptr = (name: string): number => {
      const s = kd.derived.userSgprs.find((x) => x.name === name);
      return s && s.reg + 1 < 16 ? u[s.reg]! + u[s.reg + 1]! * 0x1_0000_0000 : 0;
    };
    const md = kernel.metadata;
    const stats = dispatch(gfx11, code, kernel, l.mem, l.diag, {
      grid, block: [block[0], block[1], block[2]], kernargVa: ptr('kernarg_segment_ptr'), dynamicLds: opts.dynamicLds ?? 0,
      order: opts.order ?? 'roundrobin', seed: opts.seed ?? 1, maxInstructions: opts.maxInstructions ?? 50_000_000,
      dispatchPacketVa: ptr('dispatch_ptr'), queueVa: ptr('queue_ptr'),
      scratchPerLane: kd.private_segment_fixed_size + (opts.extraScratchPerLane ?? (md?.uses_dynamic_stack ? 16384 : 0)),
    });
    results.push({ kernel: kernel.name, grid, block: [block[0], block[1], block[2]], stats });
    return true;
  };
}

/** A command processor with compute dispatches wired to the shader model. */
export function pm4Machine(gen: Pm4Gen, mem: Memory, diag: Diagnostics, codes: readonly LoadedCode[], opts: Pm4ComputeOptions = {}): { cp: CommandProcessor; results: Pm4DispatchResult[] } {
  const results: Pm4DispatchResult[] = [];
  const cp = new CommandProcessor({ gen, mem, diag, launch: computeLauncher(codes, opts, results) });
  return { cp, results };
}

/**
 * Emit the PM4 of one kernel dispatch as a driver does: COMPUTE_PGM_LO/HI at the kernel entry,
 * COMPUTE_PGM_RSRC1/2/3 from its descriptor, COMPUTE_NUM_THREAD_X/Y/Z, COMPUTE_START_X/Y/Z = 0,
 * the user SGPRs the descriptor enables (kernarg, dispatch packet and queue pointers from
 * `setup`, see hsa.ts setupLaunch) in COMPUTE_USER_DATA_n, then DISPATCH_DIRECT of `grid`
 * threads (USE_THREAD_DIMENSIONS) with CS_W32_EN per the kernel's wave size.
 */
export function emitKernelDispatch(b: Pm4Builder, code: LoadedCode, kernel: CodeObjectKernel, setup: LaunchSetup, grid: readonly [number, number, number], block: readonly [number, number, number]): Pm4Builder {
  const kd = kernel.kd;
  const entry = code.loadBase + kernel.entryAddress;
  b.setShReg('COMPUTE_PGM_LO', Math.floor(entry / 256) % 2 ** 32, Math.floor(entry / 2 ** 40))
    .setShReg('COMPUTE_PGM_RSRC1', kd.compute_pgm_rsrc1, kd.compute_pgm_rsrc2);
  if (b.db.get('COMPUTE_PGM_RSRC3')) b.setShReg('COMPUTE_PGM_RSRC3', kd.compute_pgm_rsrc3);
  b.setShReg('COMPUTE_NUM_THREAD_X', ...block).setShReg('COMPUTE_START_X', 0, 0, 0);
  const ptrs: Record<string, number> = { kernarg_segment_ptr: setup.kernargVa, dispatch_ptr: setup.dispatchPacketVa, queue_ptr: setup.queueVa };
  for (const u of kd.derived.userSgprs) {
    const v = ptrs[u.name];
    if (v === undefined) continue;
    b.setShReg(b.db.offset('COMPUTE_USER_DATA_0') + u.reg, v % 2 ** 32, Math.floor(v / 2 ** 32));
  }
  return b.dispatchDirect(grid[0], grid[1], grid[2], b.dispatchInitiator({ useThreadDimensions: true, wave32: kd.derived.waveSize === 32 }));
}
