/**
 * Compute dispatch for R600-family kernels, as LLVM's r600 ABI and a driver (Mesa's r600 /
 * clover) lay it out:
 *
 * - Constant buffer 0: dwords 0-2 the number of groups (x,y,z), 3-5 the global size, 6-8 the
 *   local size (Mesa's evergreen_compute_upload_input), then from byte 36 the argument bytes the
 *   runtime built (src/runtime/r600.ts: the explicit arguments, then clover's implicit work_dim
 *   and global offsets).
 * - Each wavefront (the chip's R600_CHIPS waveSize work-items: 64, 32 on cedar) starts with
 *   T0.xyz = local id, T1.xyz = group id.
 * - Global memory is RAT 0 for stores/atomics and vertex buffer 1 for reads; vertex buffer 2 is the
 *   code object's read-only data (__constant tables).
 */
import { Diagnostics } from '../../core/diagnostics.js';
import { mulberry32 } from '../../core/prng.js';
import { InputError } from '../../core/errors.js';
import type { R600Kernel, R600Object } from '../isa/object.js';
import { WAVE_SIZE, Wave, SEED, type R600Resources, type R600Stats } from './machine.js';
import { R600_CHIPS } from '../isa/opcodes.gen.js';
import type { R600Program } from '../isa/decode.js';
import { stepCf } from './cf.js';

/** SQ_PGM_RESOURCES_LS (compute on Evergreen/Cayman): NUM_GPRS [7:0], STACK_SIZE [15:8]. */
export const SQ_PGM_RESOURCES_LS = 0x288d4;
export const LDS_BYTES = 32 * 1024;

export interface R600DispatchOptions {
  readonly object: R600Object;
  readonly kernel: R600Kernel;
  /** Work-items per dimension. */
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  /** Kernel argument bytes (placed at CB0 byte 36). */
  readonly args: Uint8Array;
  readonly global: Uint8Array;
  readonly diag: Diagnostics;
  /** Wave interleaving inside a workgroup: round-robin, or random from `seed`. */
  readonly order?: 'roundrobin' | 'random';
  readonly seed?: number;
  /** Budget of CF instructions + ALU groups over the whole dispatch. */
  readonly maxInstructions?: number;
  /** Override the CF stack size (default: STACK_SIZE from the object's SQ_PGM_RESOURCES). */
  readonly stackSize?: number;
  readonly bools?: number;
  readonly loopConsts?: readonly { count: number; init: number; inc: number }[];
  readonly fetchShader?: number;
  /** See WaveOptions.atomicByteAddress (default true: byte addresses, as clang-19 emits them). */
  readonly atomicByteAddress?: boolean;
  /** See WaveOptions.trace. */
  readonly trace?: (line: string) => void;
  /** EXPORT / EXPORT_DONE sink (see R600Resources.exports); default: a fresh map, returned in the result. */
  readonly exports?: Map<string, Map<number, Uint32Array>>;
  /** MEM_RING* / MEM_STREAM* / MEM_EXPORT* buffers by name; default: a fresh map, returned in the result. */
  readonly memBuffers?: Map<string, Uint8Array>;
  /** Scratch dwords per work-item (default 1024). */
  readonly scratchDwords?: number;
  /** The 64 KiB global data share (default: a fresh zeroed one per dispatch). */
  readonly gds?: Uint8Array;
  /** Texture resources / samplers / border colors by id (see R600Resources). */
  readonly textures?: ReadonlyMap<number, Uint32Array>;
  readonly samplers?: ReadonlyMap<number, Uint32Array>;
  readonly borderColors?: ReadonlyMap<number, ArrayLike<number>>;
  /** RAT bindings (seven CB_COLORn_* dwords) by RAT id 0..11 (see R600Resources). */
  readonly rats?: ReadonlyMap<number, Uint32Array>;
  /**
   * Interpolation parameters (floats, 12 per parameter: P0, P10 = P1 - P0, P20 = P2 - P0, xyzw
   * each), written into every workgroup's LDS from byte 0 before it runs, as the SPI fills a pixel
   * shader's LDS parameter cache; the INTERP_* ops read them as Param0, Param1...
   */
  readonly interpParams?: ArrayLike<number>;
  /** Work-items per wave (default: the chip's R600_CHIPS waveSize, 64 for unknown chips). */
  readonly waveSize?: number;
  /** Called with each wave when it ends (tests inspect final state). */
  readonly onWaveEnd?: (w: Wave) => void;
}

export interface R600RunResult {
  readonly workgroups: number;
  readonly waves: number;
  readonly stats: R600Stats;
  readonly stackSize: number;
  /** Work-items per wave this dispatch ran with. */
  readonly waveSize: number;
  readonly stopped: boolean;
  readonly exports: R600Resources['exports'];
  readonly memBuffers: R600Resources['memBuffers'];
}

/** SQ_LDS_ALLOC: the dwords of LDS the kernel's static __local variables take (LLVM writes it per kernel). */
export const SQ_LDS_ALLOC = 0x288e8;

/**
 * The kernel's .AMDGPU.config pairs. LLVM writes the same registers for every kernel, one block
 * per kernel in function order; Mesa's r600_shader_binary_config_start picks block i for the i-th
 * global symbol by address, which is what this does.
 */
export function kernelConfig(o: R600Object, k?: R600Kernel): readonly [number, number][] {
  const n = o.kernels.length;
  if (!k || n <= 1 || o.config.length % n) return o.config;
  const per = o.config.length / n;
  const i = [...o.kernels].sort((a, b) => a.offset - b.offset).indexOf(k);
  return i < 0 ? o.config : o.config.slice(i * per, (i + 1) * per);
}

export function stackSizeOf(o: R600Object, k?: R600Kernel): number {
  const r = kernelConfig(o, k).find(([reg]) => reg === SQ_PGM_RESOURCES_LS);
  return r ? (r[1] >>> 8) & 0xff : 1;
}

/** Bytes of LDS the kernel's static __local variables take (SQ_LDS_ALLOC dwords x 4). */
export function staticLdsBytesOf(o: R600Object, k?: R600Kernel): number {
  const r = kernelConfig(o, k).find(([reg]) => reg === SQ_LDS_ALLOC);
  return r ? (r[1] & 0x3fff) * 4 : 0;
}

export function runR600(o: R600DispatchOptions): R600RunResult {
  const [gx, gy, gz] = o.grid;
  const [bx, by, bz] = o.block;
  for (const v of [...o.grid, ...o.block]) if (!Number.isInteger(v) || v < 1) throw new InputError(`grid and block sizes must be positive integers`);
  const ng = [Math.ceil(gx / bx), Math.ceil(gy / by), Math.ceil(gz / bz)] as const;
  const cb0 = new Uint32Array(Math.max(512, 9 + (o.args.byteLength >>> 2) + 64));
  cb0.set([ng[0], ng[1], ng[2], gx, gy, gz, bx, by, bz]);
  new Uint8Array(cb0.buffer).set(o.args, 36);
  const resources: R600Resources = {
    global: o.global,
    constData: o.object.text,
    constBuffers: new Map([[0, cb0]]),
    bools: o.bools ?? 0,
    loopConsts: o.loopConsts ?? [],
    gds: o.gds ?? new Uint8Array(64 * 1024),
    exports: o.exports ?? new Map(),
    memBuffers: o.memBuffers ?? new Map(),
    scratchDwords: o.scratchDwords ?? 1024,
    textures: o.textures,
    samplers: o.samplers,
    borderColors: o.borderColors,
    rats: o.rats,
  };
  for (const [id, w] of o.rats ?? []) {
    if (!Number.isInteger(id) || id < 0 || id > 11) throw new InputError(`rats: RAT id ${id} is not 0..11 (the CB_COLOR0..11 registers)`);
    if (w.length !== 7) throw new InputError(`rats: RAT ${id} needs the 7 CB_COLORn_BASE/PITCH/SLICE/VIEW/INFO/ATTRIB/DIM dwords, got ${w.length}`);
  }
  if (o.interpParams && (o.interpParams.length % 12 || o.interpParams.length > 32 * 12)) throw new InputError(`interpParams holds ${o.interpParams.length} floats: 12 per parameter (P0, P10, P20), at most 32 parameters`);
  const stackSize = o.stackSize ?? stackSizeOf(o.object, o.kernel);
  const chip = R600_CHIPS.find((c) => c.mcpu === o.object.mcpu);
  const fp64 = chip?.fp64;
  const W = o.waveSize ?? chip?.waveSize ?? WAVE_SIZE;
  if (!Number.isInteger(W) || W < 4 || W > 64 || W % 4) throw new InputError(`wave size ${W} is not a multiple of 4 in 4..64`);
  const stackSubentries = chip?.stackSubentries ?? 4;
  const stats: R600Stats = { cfInstructions: 0, aluGroups: 0, aluInstructions: 0, laneOps: 0, fetches: 0, ratOps: 0, ldsOps: 0, gdsOps: 0, exports: 0 };
  const budget = o.maxInstructions ?? 50_000_000;
  // Up front: every wave runs at least the CF instructions before the program's first flow
  // control (each counts 1), so a grid whose waves cannot fit the budget is refused before it
  // starts instead of running for minutes into r600.runaway.
  const wavesTotal = ng[0] * ng[1] * ng[2] * Math.ceil((bx * by * bz) / W);
  const least = straightPrefix(o.kernel.program);
  if (wavesTotal * least > budget)
    throw new InputError(`grid ${gx}x${gy}x${gz} in groups of ${bx}x${by}x${bz}: ${wavesTotal} waves of ${W} x at least ${least} instruction(s) each (the CF instructions before the first branch) is over the instruction budget of ${budget} (--max-instructions)`);
  const rand = mulberry32(o.seed ?? 1);
  let used = 0;
  let waves = 0;
  let groups = 0;
  let stopped = false;
  const perGroup = bx * by * bz;
  outer: for (let z = 0; z < ng[2]; z++)
    for (let y = 0; y < ng[1]; y++)
      for (let x = 0; x < ng[0]; x++) {
        const lds = new Uint8Array(LDS_BYTES);
        if (o.interpParams) new Float32Array(lds.buffer, 0, o.interpParams.length).set(o.interpParams);
        const list: Wave[] = [];
        const nw = Math.ceil(perGroup / W);
        for (let w = 0; w < nw; w++) {
          const lanes = Math.min(W, perGroup - w * W);
          const wave = new Wave({ gen: o.object.gen, program: o.kernel.program, resources, diag: o.diag, stackSize, fetchShader: o.fetchShader, fp64, atomicByteAddress: o.atomicByteAddress, trace: o.trace, waveSize: W, stackSubentries }, waves++, groups, lds, lanes);
          for (let l = 0; l < W; l++) {
            const li = w * W + l;
            const lx = li % bx;
            const ly = Math.floor(li / bx) % by;
            const lz = Math.floor(li / (bx * by));
            // Items past the grid's edge (partial groups) are not valid.
            const inGrid = li < perGroup && x * bx + lx < gx && y * by + ly < gy && z * bz + lz < gz;
            if (!inGrid && wave.valid[l]) {
              wave.valid[l] = 0;
              wave.state[l] = 1;
            }
            const set = (reg: number, ch: number, v: number): void => {
              wave.gpr[(reg * 4 + ch) * W + l] = v >>> 0;
            };
            set(0, 0, lx); set(0, 1, ly); set(0, 2, lz);
            set(1, 0, x); set(1, 1, y); set(1, 2, z);
          }
          list.push(wave);
        }
        groups++;
        const waiting = new Set<Wave>();
        for (;;) {
          const alive = list.filter((w) => !w.done && !waiting.has(w));
          if (alive.length === 0) {
            const stillWaiting = list.filter((w) => !w.done && waiting.has(w));
            if (stillWaiting.length === 0) break;
            if (stillWaiting.length < list.length) {
              o.diag.report({ id: 'r600.barrier.wave-ended', severity: 'warning', where: { group: groups - 1 }, message: `${list.length - stillWaiting.length} wave(s) of the group ended before a GROUP_BARRIER the others wait at`, seed: SEED });
            }
            for (const w of stillWaiting) w.barrierReleased = true;
            waiting.clear();
            continue;
          }
          const wave = o.order === 'random' ? alive[Math.floor(rand() * alive.length)]! : alive[0]!;
          // Run the chosen wave until it ends or waits (round-robin: one wave at a time to its next stop).
          for (;;) {
            // The budget counts every instruction: the CF instruction and the ALU groups and
            // fetches of the clause it ran.
            const before = wave.stats.aluGroups + wave.stats.fetches;
            const r = stepCf(wave);
            used += 1 + wave.stats.aluGroups + wave.stats.fetches - before;
            if (used > budget) {
              o.diag.report({ id: 'r600.runaway', severity: 'error', where: { wave: wave.id, cf: wave.pc }, message: `instruction budget of ${budget} instructions (CF, ALU groups, fetches) exhausted (runaway loop?)`, seed: SEED });
              stopped = true;
              for (const w of list) if (!w.done) { w.done = true; o.onWaveEnd?.(w); }
              break outer;
            }
            if (r === 'end') {
              o.onWaveEnd?.(wave);
              break;
            }
            if (r === 'barrier') {
              waiting.add(wave);
              break;
            }
            if (o.order === 'random' && rand() < 0.25) break;
          }
        }
        for (const w of list) {
          for (const k of Object.keys(stats) as (keyof R600Stats)[]) stats[k] += w.stats[k];
        }
      }
  return { workgroups: groups, waves, stats, stackSize, waveSize: W, stopped, exports: resources.exports, memBuffers: resources.memBuffers };
}

/** CF instructions that are not flow control: clauses, fetches, GDS, exports, NOP. */
const STRAIGHT_CF = new Set(['TC', 'VC', 'VC_TC', 'GDS', 'NOP', 'TEX', 'VTX', 'VTX_TC', 'MEM_STREAM0', 'MEM_RAT', 'MEM_RAT_NOCACHE', 'MEM_RAT_COMBINED']);

/**
 * How many CF instructions every wave runs: the program's prefix before its first flow-control
 * instruction (jump, loop, call, return, push/pop, else, or any CF not known to fall through),
 * the end-of-program instruction included; at least 1.
 */
export function straightPrefix(p: R600Program): number {
  let n = 0;
  for (const c of p.cf) {
    n++;
    if (c.endOfProgram) break;
    if (c.kind === 'cf' && !STRAIGHT_CF.has(c.op?.name ?? '')) break;
  }
  return Math.max(1, n);
}
