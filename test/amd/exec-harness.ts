/**
 * Single-wave execution harness for opcode tests: assemble LLVM-syntax GFX11 text with the
 * gpusim assembler, map it into GPU memory, build one Wave with the given register inputs and
 * run it until s_endpgm (or a budget). Tests check registers/memory against values derived from
 * the ISA definitions.
 *
 *   const r = runAsm(`v_add_f32 v2, v0, v1\ns_endpgm`, { vgpr: { 0: [1, 2], 1: [3, 4] } });
 *   r.vf(2, 0) // lane 0 of v2 as f32
 */
import { Memory } from '../../src/core/memory.js';
import { Diagnostics, type Diagnostic } from '../../src/core/diagnostics.js';
import { assemble, type IsaTarget } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { waveTarget } from '../../src/amd/isa/targets.js';
import { Program } from '../../src/amd/engine/program.js';
import type { ExecEnv } from '../../src/amd/engine/env.js';
import { WAVE_STATE_SEED } from '../../src/amd/engine/env.js';
import { Wave, SREG } from '../../src/amd/wave/wave.js';
import { APERTURE } from '../../src/amd/exec/vmem.js';
import { f32 } from '../../src/core/float.js';
import type { AlignMode, Engine } from '../../src/amd/engine/env.js';
import { WaitcntSanitizer } from '../../src/amd/engine/waitcnt.js';
import { installTrap, raiseException, TRAPSTS } from '../../src/amd/exec/trap.js';
import { DecodeError } from '../../src/amd/isa/types.js';
import { blockAt, type Clock } from '../../src/amd/engine/block.js';

export const CODE_VA = 0x5000_0000_0000;

export interface AsmRunOptions {
  readonly waveSize?: 32 | 64;
  /** The wave size the text is written for (lane masks one SGPR or a pair); default waveSize. */
  readonly asmWave?: 32 | 64;
  readonly vgprs?: number;
  /** SGPR/special initial values by operand encoding (e.g. { 0: 5, 125: m0value }). */
  readonly sgpr?: Readonly<Record<number, number>>;
  /** VGPR initial values: reg -> per-lane values (a number fills all lanes). */
  readonly vgpr?: Readonly<Record<number, number | readonly number[]>>;
  /** VGPR initial values as f32. */
  readonly vgprF32?: Readonly<Record<number, number | readonly number[]>>;
  /** EXEC (default all lanes). */
  readonly exec?: number;
  readonly execHi?: number;
  readonly scc?: number;
  /** MODE and STATUS hardware register values. */
  readonly mode?: number;
  readonly status?: number;
  readonly ldsBytes?: number;
  /** The LDS itself (e.g. one in the wasm heap: engine/wasm/heap.ts allocLds); else ldsBytes fresh. */
  readonly lds?: Uint8Array;
  readonly mem?: Memory;
  readonly strict?: boolean;
  readonly maxInstructions?: number;
  readonly scratchPerLane?: number;
  /** SH_MEM_CONFIG.alignment_mode (default unaligned). */
  readonly alignMode?: AlignMode;
  /** Run the wait-counter sanitizer (waitcnt.ts) before each instruction. */
  readonly waitcnt?: boolean;
  /** Install a trap handler (assembly, mapped at TRAP_VA; sets STATUS.TRAP_EN, TBA, TMA). */
  readonly trapHandler?: { readonly source: string; readonly tma?: number };
  /** Execution engine (default: ExecEnv's default, 'fast'). */
  readonly engine?: Engine;
  /** The fast engine runs basic blocks (block.ts) unless this is false (then op by op). */
  readonly blocks?: boolean;
  /** Instruction set to assemble and execute (default gfx1100; gfx1030/gfx900 run through target/normalize.ts). */
  readonly target?: IsaTarget;
  /** Called with the wave before it runs (to install an export sink...). */
  readonly onWave?: (w: Wave) => void;
}

/** Where runAsm maps a trap handler (TBA). */
export const TRAP_VA = 0x5100_0000_0000;

export interface AsmRun {
  readonly wave: Wave;
  readonly mem: Memory;
  readonly diags: readonly Diagnostic[];
  readonly instructions: number;
  /** The wait-counter sanitizer of the run (with `waitcnt`). */
  readonly waitcnt: WaitcntSanitizer | null;
  /** VGPR `reg` lane `lane` as u32 / f32. */
  v(reg: number, lane?: number): number;
  vf(reg: number, lane?: number): number;
  s(enc: number): number;
}

/**
 * Assemble, letting `.long 0x...` lines through as raw dwords (for encodings the assembler
 * refuses, e.g. misaligned register tuples; write the intended text in a comment beside them).
 */
function assembleWithLongs(source: string, t: IsaTarget = gfx11): number[] {
  if (!/^\s*\.long\b/m.test(source)) return assemble(t, source);
  const out: number[] = [];
  for (const line of source.split('\n')) {
    const m = /^\s*\.long\s+(.*)$/.exec(line.replace(/\/\/.*$/, ''));
    if (m) for (const x of m[1]!.split(',')) out.push(Number(x.trim()) >>> 0);
    else if (line.replace(/\/\/.*$/, '').trim() !== '') out.push(...assemble(t, line));
  }
  return out;
}

export function runAsm(source: string, o: AsmRunOptions = {}): AsmRun {
  const target = o.target ?? gfx11;
  // The text is written for the wave's size (lane masks are pairs in wave64, as llvm-mc reads them
  // with +wavefrontsize64); the words are the same, so the program decodes with the target itself.
  const words = Uint32Array.from(assembleWithLongs(source, waveTarget(target, o.asmWave ?? o.waveSize ?? 32) ?? target));
  const mem = o.mem ?? new Memory();
  const code = new Uint8Array(words.buffer.slice(0));
  if (mem.find(CODE_VA) !== null) mem.unmap(CODE_VA); // a Memory reused across runs
  mem.map(CODE_VA, Math.max(4096, Math.ceil(code.length / 4096) * 4096), 'code');
  mem.writeBytes(CODE_VA, code);
  const diag = new Diagnostics({ strict: o.strict ?? false });
  const ws = o.waveSize ?? 32;
  const vgprs = o.vgprs ?? 256;
  const clk: Clock = { t: 0 };
  const env: ExecEnv = { space: target.space, diag, seed: WAVE_STATE_SEED, waveSize: ws, vgprs, now: () => clk.t, heapMemory: mem.table !== 0, ...(o.engine ? { engine: o.engine } : {}), ...(o.alignMode ? { alignMode: o.alignMode } : {}) };
  const wc = o.waitcnt ? new WaitcntSanitizer(diag, target.space) : null;
  const program = new Program(target, CODE_VA, words, env);
  const lds = o.lds ?? new Uint8Array(o.ldsBytes ?? 65536);
  const w = new Wave(
    { waveSize: ws, vgprs, pc: CODE_VA, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: o.mode ?? 0xf0, status: o.status ?? 0 },
    mem, lds, { wg: [0, 0, 0], waveInGroup: 0, id: 0 },
  );
  if (o.scratchPerLane) {
    const seg = mem.alloc(o.scratchPerLane * ws, 'scratch');
    w.scratchBase = seg.base;
    w.scratchPerLane = o.scratchPerLane;
  }
  w.s[SREG.EXEC_LO] = (o.exec ?? 0xffffffff) >>> 0;
  w.s[SREG.EXEC_HI] = ws === 64 ? (o.execHi ?? 0xffffffff) >>> 0 : 0;
  w.scc = o.scc ?? 0;
  for (const [k, v] of Object.entries(o.sgpr ?? {})) w.s[Number(k)] = v >>> 0;
  for (const [k, v] of Object.entries(o.vgpr ?? {})) for (let l = 0; l < ws; l++) w.v[Number(k) * ws + l] = (typeof v === 'number' ? v : v[l] ?? 0) >>> 0;
  for (const [k, v] of Object.entries(o.vgprF32 ?? {})) for (let l = 0; l < ws; l++) w.vf[Number(k) * ws + l] = typeof v === 'number' ? v : v[l] ?? 0;
  let trapProgram: Program | null = null;
  if (o.trapHandler) {
    const tw = Uint32Array.from(assembleWithLongs(o.trapHandler.source, target));
    mem.map(TRAP_VA, Math.max(4096, Math.ceil(tw.length * 4 / 4096) * 4096), 'trap');
    mem.writeBytes(TRAP_VA, new Uint8Array(tw.buffer.slice(0)));
    trapProgram = new Program(target, TRAP_VA, tw, env);
    installTrap(w, { code: tw, tba: TRAP_VA, tma: o.trapHandler.tma ?? 0 });
  }
  o.onWave?.(w);
  const budget = o.maxInstructions ?? 100000;
  const blocks = env.engine !== 'interp' && o.blocks !== false;
  let n = 0;
  while ((w.state === 'ready' || w.state === 'sleep') && n < budget) {
    if (w.state === 'sleep') {
      // A lone wave: the clock runs on to its wake-up time.
      if (clk.t < w.sleepUntil) clk.t = w.sleepUntil;
      w.state = 'ready';
    }
    if (blocks && !w.vgprsReleased) {
      // The fast engine runs whole basic blocks, as dispatch does (block.ts).
      const b = blockAt(trapProgram !== null && w.pc >= TRAP_VA && w.pc < TRAP_VA + trapProgram.words.length * 4 ? trapProgram : program, w.pc);
      if (b !== null) {
        n += b.fn(w, clk, wc, budget - n, b.ops, b.args, 0);
        if ((w.state as string) === 'barrier') w.state = 'ready';
        continue;
      }
    }
    let op;
    try {
      op = (trapProgram !== null && w.pc >= TRAP_VA && w.pc < TRAP_VA + trapProgram.words.length * 4 ? trapProgram : program).opAt(w.pc, w);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      // An illegal instruction: the trap handler runs when installed, else the wave halts.
      diag.report({ id: 'gfx11.illegal-instruction', severity: 'error', where: { pc: w.pc, wave: w.id }, message: e.message, seed: WAVE_STATE_SEED });
      if (!raiseException(w, TRAPSTS.ILLEGAL_INST, w.pc)) w.state = 'halted';
      n++;
      continue;
    }
    if (wc !== null) wc.step(w, op);
    w.pc += op.inst.size;
    op.run(w);
    n++;
    clk.t++;
    if ((w.state as string) === 'barrier') w.state = 'ready'; // a lone wave passes barriers
  }
  return {
    wave: w, mem, diags: diag.list, instructions: n, waitcnt: wc,
    v: (r, l = 0) => w.v[r * ws + l]!,
    vf: (r, l = 0) => f32(w.v[r * ws + l]!),
    s: (e) => w.s[e]!,
  };
}

/** `n` GFX11 instruction lines from `draw`, redrawing any the assembler refuses (random operand mixes can break the constant-bus limit). */
export function encodableProgram(draw: () => string, n: number): string[] {
  const out: string[] = [];
  while (out.length < n) {
    const line = draw();
    try {
      assemble(gfx11, line);
      out.push(line);
    } catch {
      // not encodable: draw again
    }
  }
  return out;
}
