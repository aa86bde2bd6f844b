/**
 * One compute dispatch on the SP, from the state the CP hands over at CP_EXEC_CS (see
 * cp/handlers-compute.ts): the shader words, the const file, the IBO / UBO views resolved from
 * their descriptors, the HLSQ preload registers and the NDRANGE. Runs the preamble once, then every
 * work-group with its waves interleaved by a seeded scheduler (barriers respected).
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { InputError } from '../../core/errors.js';
import { mulberry32 } from '../../core/prng.js';
import { SyncChecker } from './check.js';
import { decodeShader, type Instr } from './decode.js';
import { bind, step, type SpContext } from './exec.js';
import { Wave } from './wave.js';

/** What the SP needs for one dispatch (all of it from registers and loaded state). */
export interface ComputeJob {
  readonly gpuId: number;
  /** Shader words (instrlen * 32 dwords, as fetched from SP_CS_OBJ_START or loaded). */
  readonly words: Uint32Array;
  /** The const file (constlen * 4 dwords). */
  readonly consts: Uint32Array;
  readonly ibo: SpContext['ibo'];
  readonly ubo: SpContext['ubo'];
  /** GPU memory (ldg/stg). */
  readonly mem?: SpContext['mem'];
  /** Texture state (cat5): descriptors, bindless bases, border colours. */
  readonly textures?: SpContext['textures'];
  readonly block: readonly [number, number, number];
  readonly groups: readonly [number, number, number];
  readonly waveSize: 64 | 128;
  /** HLSQ_CS_CNTL_0 / SP_CS_CNTL_0 LOCALIDREGID and WGIDCONSTID (a3xx_regid: reg*4 + comp). */
  readonly localIdReg: number;
  readonly wgIdReg: number;
  /** SP_CS_CTRL_REG0 FULLREGFOOTPRINT / HALFREGFOOTPRINT. */
  readonly fullRegs: number;
  readonly halfRegs: number;
  /** Shared (local) memory bytes per work-group. */
  readonly sharedSize: number;
  /** a7xx HLSQ_SHARED_CONSTS_IMM (64 dwords), read by stsc. */
  readonly sharedConsts?: Uint32Array;
}

export interface ComputeOptions {
  readonly seed?: number;
  readonly order?: 'inorder' | 'random';
  /** Instruction budget per wave (runaway loops). */
  readonly budget?: number;
  /** Run the rule checks (check.ts); default true. */
  readonly check?: boolean;
}

export interface ComputeResult {
  readonly code: Instr[];
  readonly waves: number;
  /** Wave-instructions issued (preamble included) and fiber-instructions (active lanes summed). */
  readonly instructions: number;
  readonly fiberInstructions: number;
}

/** Run a dispatch. Throws InputError for unimplemented opcodes or a runaway wave. */
export function runCompute(job: ComputeJob, diag: Diagnostics, opts: ComputeOptions = {}): ComputeResult {
  const code = decodeShader(job.words, job.gpuId);
  const missing = bind(code);
  if (missing.length) throw new InputError(`ir3: not implemented: ${missing.join(' ')}`);
  const ctx: SpContext = {
    consts: job.consts,
    ibo: job.ibo,
    ubo: job.ubo,
    mem: job.mem,
    textures: job.textures,
    sharedConsts: job.sharedConsts,
    shared: new DataView(new ArrayBuffer(Math.max(job.sharedSize, 0))),
    diag,
    maxReg: job.fullRegs,
    maxHalf: job.halfRegs,
    barGen: 0,
  };
  const budget = opts.budget ?? 1 << 22;
  const rng = mulberry32(opts.seed ?? 1);
  const random = opts.order === 'random';
  let instructions = 0;
  let fibers = 0;

  const checker = opts.check === false ? undefined : new SyncChecker(diag, job.fullRegs, ctx.consts.length);
  // The preamble (shps ... shpe) runs once per dispatch, on one fiber, before any wave.
  if (code[0]?.name === 'shps') {
    const w = new Wave(1, -1, -1);
    w.pc[0] = 1;
    for (let n = 0; ; n++) {
      const pc = w.select();
      if (pc < 0 || pc >= code.length) break;
      const i = code[pc]!;
      if (i.name === 'shpe' || pc >= code[0]!.target) break;
      checker?.preamble(w, i);
      step(w, i, ctx);
      if (n > budget) throw new InputError('ir3: preamble exceeds the instruction budget');
    }
    instructions += w.issued;
    fibers += w.issued;
  }

  const [bx, by, bz] = job.block;
  const [gx, gy, gz] = job.groups;
  const lanesPerWg = bx * by * bz;
  const nWaves = Math.ceil(lanesPerWg / job.waveSize);
  const order: number[] = [];
  for (let g = 0; g < gx * gy * gz; g++) order.push(g);
  if (random)
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(rng() * (k + 1));
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
  let waveCount = 0;
  for (const g of order) {
    const wgx = g % gx;
    const wgy = Math.floor(g / gx) % gy;
    const wgz = Math.floor(g / (gx * gy));
    if (job.sharedSize) new Uint8Array(ctx.shared.buffer).fill(0);
    const waves: Wave[] = [];
    for (let k = 0; k < nWaves; k++) {
      const w = new Wave(job.waveSize, g, waveCount++);
      const L = w.lanes;
      for (let l = 0; l < L; l++) {
        const t = k * L + l;
        if (t >= lanesPerWg) continue;
        w.pc[l] = 0;
        const lx = t % bx;
        const ly = Math.floor(t / bx) % by;
        const lz = Math.floor(t / (bx * by));
        // HLSQ preloads: LOCALIDREGID (x,y,z) and the work-group id (x,y,z).
        const li = job.localIdReg;
        w.regs[li * L + l] = lx;
        w.regs[(li + 1) * L + l] = ly;
        w.regs[(li + 2) * L + l] = lz;
        const wi = job.wgIdReg;
        w.regs[wi * L + l] = wgx;
        w.regs[(wi + 1) * L + l] = wgy;
        w.regs[(wi + 2) * L + l] = wgz;
      }
      waves.push(w);
    }
    runWorkgroup(waves, code, ctx, random ? rng : undefined, budget, checker);
    for (const w of waves) {
      instructions += w.issued;
      fibers += w.fiberInstrs;
    }
  }
  return { code, waves: waveCount, instructions, fiberInstructions: fibers };
}
/**
 * Interleave the waves of one work-group: each turn one runnable wave issues a run of
 * instructions (in order: a fixed round robin of 1..8; random: the wave and the run length come
 * from the seed). `bar` parks a wave until every live wave of the group arrived.
 */
function runWorkgroup(waves: Wave[], code: Instr[], ctx: SpContext, rng: (() => number) | undefined, budget: number, checker: SyncChecker | undefined): void {
  let live = waves.length;
  let arrived = 0;
  let turn = 0;
  const runnable: Wave[] = [];
  while (live > 0) {
    runnable.length = 0;
    for (const w of waves) if (!w.done && w.barWait < 0) runnable.push(w);
    if (runnable.length === 0) {
      // Everyone live is at the barrier: release.
      if (arrived > 0) {
        for (const w of waves) w.barWait = -1;
        arrived = 0;
        ctx.barGen++;
        continue;
      }
      break;
    }
    const w = rng ? runnable[Math.floor(rng() * runnable.length)]! : runnable[turn++ % runnable.length]!;
    const run = rng ? 1 + Math.floor(rng() * 8) : 4;
    for (let n = 0; n < run; n++) {
      const pc = w.select();
      if (pc < 0 || pc >= code.length) {
        w.done = true;
        live--;
        break;
      }
      const i = code[pc]!;
      w.fiberInstrs += w.nActive;
      checker?.before(w, i);
      step(w, i, ctx);
      checker?.after(w, i);
      if (w.issued > budget) throw new InputError(`ir3: wave ${w.id} exceeds the instruction budget (${budget}) at pc ${pc}: a runaway loop?`);
      if (i.name === 'bar') {
        w.barWait = ctx.barGen;
        arrived++;
        break;
      }
    }
    if (!w.done && w.barWait < 0 && w.select() < 0) {
      w.done = true;
      live--;
    }
  }
}

