/**
 * The R600/Evergreen conditional-execution model (seed 003_ea00a3a93da820dc.txt), on one
 * workgroup's wavefronts:
 *
 * - Per work-item (the seed's "pixel") state: the VALID bit (cleared by KILL, never set again) and
 *   the 2-bit active state: Active, Inactive-Branch, Inactive-Continue, Inactive-Break.
 * - PRED_SET* with UPDATE_EXEC_MASK change the active state only at the beginning of the next CF
 *   instruction (the executor applies them when the ALU clause's CF instruction finishes).
 * - CF instructions evaluate a condition test per work-item (COND, WHOLE_QUAD_MODE,
 *   VALID_PIXEL_MODE) and then execute for passing items, modify the state, push/pop the CF stack,
 *   or jump when every item fails.
 * - The CF stack holds full entries (loops, calls) and subentries (branch pushes, 4 per entry on
 *   64-wide chips, 8 on narrower ones: R600_CHIPS stackSubentries);
 *   its size is STACK_SIZE from SQ_PGM_RESOURCES unless overridden. Exceeding it is reported
 *   (`r600.cf.stack-overflow`) and execution continues with an unbounded model stack.
 *
 * Where the document leaves a choice open, the choice is written next to the code.
 *
 * This file holds a wavefront's state and the seed's state rules (condition tests, CF stack push
 * and pop, ELSE). The clauses run in `alu-clause.ts`, `fetch-clause.ts`, `gds-clause.ts` and
 * `export.ts` (CF_ALLOC_EXPORT), and `cf.ts` walks the CF program through its handler table
 * (`stepCf`); imports flow machine <- clauses <- cf <- dispatch.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { AluGroup, AluInst, CfInst, R600Gen, R600Program } from '../isa/decode.js';
import type { CfOp } from './cf.js';

export const SEED = '003_ea00a3a93da820dc.txt';

export const WAVE_SIZE = 64;

/** Per-work-item active states. */
export const STATE = { ACTIVE: 0, INACTIVE_BRANCH: 1, INACTIVE_CONTINUE: 2, INACTIVE_BREAK: 3 } as const;
export type ActiveState = (typeof STATE)[keyof typeof STATE];

/** LDS output queue depth per work-item. */
export const QUEUE = 16;

export interface StackEntry {
  readonly kind: 'branch' | 'loop' | 'call';
  /** Subentries this entry uses (branch pushes: 1, or 2 for the first non-WQM push on Evergreen); full entries count 4. */
  readonly cost: number;
  readonly state: Uint8Array;
  /** loop: index of LOOP_START; call: return CF index. */
  readonly pc: number;
  counter: number;
  aL: number;
  readonly inc: number;
  readonly dx10: boolean;
}

/** Global memory and other resources shared by all waves of a dispatch. */
export interface R600Resources {
  /** UAV / global memory: RAT 0 and vertex buffer 1 address it with byte addresses. */
  readonly global: Uint8Array;
  /** Read-only data of the code object (.text): vertex buffer 2 (the __constant address space). */
  readonly constData: Uint8Array;
  /** Constant buffers by bank (CB0 holds the dispatch sizes and kernel arguments). */
  readonly constBuffers: ReadonlyMap<number, Uint32Array>;
  /** Boolean constants for COND BOOL/NOT_BOOL, by CF_CONST. */
  readonly bools: number;
  /** Integer loop constants (count, init, inc) by CF_CONST, for LOOP_START / LOOP_START_NO_AL. */
  readonly loopConsts: readonly { count: number; init: number; inc: number }[];
  /** 64 KiB global data share. */
  readonly gds: Uint8Array;
  /**
   * EXPORT / EXPORT_DONE results: target ("PIXEL0", "POS1", "PARAM3"...) -> work-item (wave id * 64
   * + lane) -> the four exported dwords (channels a SEL_* of 7 masks keep their previous value, 0).
   */
  readonly exports: Map<string, Map<number, Uint32Array>>;
  /** Buffers MEM_RING* / MEM_STREAM* / MEM_EXPORT* write, by CF instruction name (created on first use). */
  readonly memBuffers: Map<string, Uint8Array>;
  /** Per-work-item scratch (MEM_WRITE_SCRATCH) size in dwords. */
  readonly scratchDwords: number;
  /** Texture resources (eight SQ_TEX_RESOURCE_WORD dwords each) by RESOURCE_ID; texels live in `global`. */
  readonly textures?: ReadonlyMap<number, Uint32Array>;
  /** Samplers (three SQ_TEX_SAMPLER_WORD dwords each) by SAMPLER_ID. */
  readonly samplers?: ReadonlyMap<number, Uint32Array>;
  /** Border colors (RGBA) by SAMPLER_ID for BORDER_COLOR_TYPE 3 (register). */
  readonly borderColors?: ReadonlyMap<number, ArrayLike<number>>;
  /**
   * RAT bindings by RAT id (0..11): the seven CB_COLORn_BASE, PITCH, SLICE, VIEW, INFO, ATTRIB, DIM
   * dwords (exec/rat.ts). A bound RAT addresses global memory from BASE * 256 and STORE_TYPED converts
   * to its format; RAT 0 unbound is global memory with raw dwords (STORE_TYPED included).
   */
  readonly rats?: ReadonlyMap<number, Uint32Array>;
}

export interface WaveOptions {
  readonly gen: R600Gen;
  readonly program: R600Program;
  readonly resources: R600Resources;
  readonly diag: Diagnostics;
  /** CF stack size in entries (SQ_PGM_RESOURCES.STACK_SIZE). */
  readonly stackSize: number;
  /** CF index CALL_FS jumps to (the fetch shader), if any. */
  readonly fetchShader?: number;
  /** The chip has FMA and the 64-bit float ops (R600_CHIPS); undefined: assume it does. */
  readonly fp64?: boolean;
  /**
   * The index of RAT atomics on global memory (not stores, not MSKOR) is a byte address, as
   * clang-19 emits it (default); false: an element (dword) index, as Mesa's own compiler emits
   * it. See docs/r600.md "RAT atomics".
   */
  readonly atomicByteAddress?: boolean;
  /** Called before each CF instruction with `wave W cf N <text> | active=<lane mask hex> valid=<hex> stack=<depth>`. */
  readonly trace?: (line: string) => void;
  /** Work-items per wavefront (the chip's R600_CHIPS waveSize; default 64). */
  readonly waveSize?: number;
  /** CF stack subentries per full entry (the chip's R600_CHIPS stackSubentries; default 4). */
  readonly stackSubentries?: number;
}

/** A lane mask as hex, one bit per lane of the wave (lane 0 = bit 0): 16 digits for 64 lanes, 8 for 32. */
export function maskHex(bits: Uint8Array, test: (v: number) => boolean): string {
  let out = '';
  for (let base = 0; base < bits.length; base += 32) {
    let w = 0;
    for (let l = 0; l < 32 && base + l < bits.length; l++) if (test(bits[base + l]!)) w |= 1 << l;
    out = (w >>> 0).toString(16).padStart(Math.min(8, Math.ceil((bits.length - base) / 4)), '0') + out;
  }
  return out;
}

export type StepResult = 'ok' | 'barrier' | 'end';

/** Counts for run.json. */
export interface R600Stats {
  cfInstructions: number;
  aluGroups: number;
  aluInstructions: number;
  laneOps: number;
  fetches: number;
  ratOps: number;
  ldsOps: number;
  gdsOps: number;
  exports: number;
}

export class Wave {
  /** Work-items per wavefront (R600_CHIPS waveSize: 64, 32 on cedar/palm/rv710/rv730, 16 on rs880...). */
  readonly W: number;
  readonly id: number;
  readonly group: number;
  /** GPR file: gpr[(reg * 4 + chan) * 64 + lane], raw 32-bit patterns. */
  readonly gpr: Uint32Array;
  /** GPRs allocated: the highest the program names + 1, or all 128 when it addresses relatively. */
  readonly ngpr: number;
  /** VALID mask bit per work-item: 1 until KILL clears it (or the item is past the group's end). */
  readonly valid: Uint8Array;
  /** Active state per work-item (STATE). */
  readonly state: Uint8Array;
  /** Predicate bit per work-item (PRED_SET* with UPDATE_PRED). */
  readonly pred: Uint8Array;
  /** Pending exec result from PRED_SET* with UPDATE_EXEC_MASK: -1 none, 0 fail, 1 pass. */
  readonly pendingExec: Int8Array;
  /** AR.x per work-item (MOVA_INT). */
  /** AR.x/y/z/w per work-item: ar[chan * 64 + lane] (MOVA* writes the channel of its destination). */
  readonly ar: Int32Array;
  /** PV (slots x,y,z,w) and PS (slot 4) of the previous instruction group: pv[slot * 64 + lane]. */
  readonly pv: Uint32Array;
  pvValid = false;
  /** LDS output queue A per work-item. */
  readonly oq: Uint32Array;
  readonly oqHead: Uint8Array;
  readonly oqCount: Uint8Array;
  readonly stack: StackEntry[] = [];
  /** CF_IDX0/1 (SET_CF_IDX0/1) for JUMPTABLE. */
  readonly cfIdx = [0, 0];
  pc = 0;
  /** Resume point inside an ALU clause (group index) after a GROUP_BARRIER. */
  resumeGroup = -1;
  /** Set by the scheduler when every wave of the group has reached the barrier. */
  barrierReleased = false;
  done = false;
  private firstPushDone = false;
  /** RAT writes issued with TYPE 2/3 (write with ACK) not yet covered by a WAIT_ACK. */
  pendingAcks = 0;
  /** Export types opened with EXPORT and closed with EXPORT_DONE. */
  readonly exportOpen = new Set<string>();
  readonly exportDone = new Set<string>();
  /** MEM_WRITE_SCRATCH storage, allocated on first use. */
  scratch: Uint32Array | undefined;
  readonly ldsView: DataView;
  readonly globalView: DataView;
  readonly constView: DataView;
  readonly gdsView: DataView;
  /** Per-group scratch (no allocation per instruction group). */
  readonly res: Uint32Array;
  readonly doWrite: Uint8Array;
  readonly newPv: Uint32Array;
  readonly arNew: Int32Array;
  /** KC2/KC3 sets and the KCACHE_BANK_INDEX_MODEs of the ALU_EXTENDED before the current clause. */
  ext: { readonly sets: CfInst['kcache']; readonly modes: readonly number[] } | undefined;
  extPending: CfInst | undefined;
  readonly srcv = [0, 0, 0];
  readonly reportedGroups = new Set<AluGroup>();
  readonly constReported = new Set<AluGroup>();
  readonly noFp64Reported = new Set<AluInst>();
  private overflowReported = false;
  /** Per-clause execute mask (the ALU clause's active test, once per clause). */
  readonly exec: Uint8Array;
  /** Texture sources of every lane (helper lanes included: derivatives read whole quads). */
  readonly texSrc: Float64Array;
  readonly texSrcBits: Uint32Array;
  readonly texOut: Uint32Array;
  /** SET_GRADIENTS_H / _V (and KEEP_GRADIENTS) state: grad[(h ? 0 : 4) + chan) * 64 + lane]. */
  readonly grad: Float64Array;
  /** SET_TEXTURE_OFFSETS state for GATHER4_O / GATHER4_C_O: integer texel offsets, texOffsets[chan * W + lane]. */
  readonly texOffsets: Int32Array;
  readonly texAcc = new Float64Array(4);
  /** PUSH's condition test per work-item, before the state changes. */
  readonly pass: Uint8Array;
  /** The program's CF instructions bound to their handlers (cf.ts bindProgram, once per program), set on the first step. */
  cfOps: readonly CfOp[] | undefined = undefined;
  /** The chip is Cayman (VLIW4: MOVA_INT targets, AR.x only, four-slot 64-bit ops). */
  readonly cayman: boolean;
  /** Evergreen or Cayman (fine derivatives with INST_MOD 1). */
  readonly evergreenUp: boolean;
  readonly stats: R600Stats = { cfInstructions: 0, aluGroups: 0, aluInstructions: 0, laneOps: 0, fetches: 0, ratOps: 0, ldsOps: 0, gdsOps: 0, exports: 0 };

  readonly opts: WaveOptions;
  /** The workgroup's LDS, shared by its waves. */
  readonly lds: Uint8Array;

  constructor(opts: WaveOptions, id: number, group: number, lds: Uint8Array, lanes: number) {
    this.opts = opts;
    this.lds = lds;
    const W = (this.W = opts.waveSize ?? WAVE_SIZE);
    this.valid = new Uint8Array(W);
    this.state = new Uint8Array(W);
    this.pred = new Uint8Array(W);
    this.pendingExec = new Int8Array(W).fill(-1);
    this.ar = new Int32Array(4 * W);
    this.pv = new Uint32Array(5 * W);
    this.oq = new Uint32Array(W * QUEUE);
    this.oqHead = new Uint8Array(W);
    this.oqCount = new Uint8Array(W);
    this.res = new Uint32Array(5 * W);
    this.doWrite = new Uint8Array(5 * W);
    this.newPv = new Uint32Array(5 * W);
    this.arNew = new Int32Array(4 * W);
    this.exec = new Uint8Array(W);
    this.pass = new Uint8Array(W);
    this.texSrc = new Float64Array(4 * W);
    this.texSrcBits = new Uint32Array(4 * W);
    this.texOut = new Uint32Array(4 * W);
    this.grad = new Float64Array(8 * W);
    this.texOffsets = new Int32Array(3 * W);
    this.ngpr = Math.max(2, opts.program.gprCount); // cf.ts binds GPR operands against the same count
    this.gpr = new Uint32Array(this.ngpr * 4 * this.W);
    this.ldsView = new DataView(lds.buffer, lds.byteOffset, lds.byteLength);
    const g = opts.resources.global;
    const k = opts.resources.constData;
    this.globalView = new DataView(g.buffer, g.byteOffset, g.byteLength);
    this.constView = new DataView(k.buffer, k.byteOffset, k.byteLength);
    const gd = opts.resources.gds;
    this.gdsView = new DataView(gd.buffer, gd.byteOffset, gd.byteLength);
    this.id = id;
    this.group = group;
    this.cayman = opts.gen === 'cayman';
    this.evergreenUp = this.cayman || opts.gen === 'evergreen';
    for (let l = 0; l < this.W; l++) {
      this.valid[l] = l < lanes ? 1 : 0;
      // Work-items past the group's end behave like items disabled by an enclosing branch.
      this.state[l] = l < lanes ? STATE.ACTIVE : STATE.INACTIVE_BRANCH;
    }
  }

  diag(id: string, message: string, severity: 'error' | 'warning' | 'info' = 'error', extra: Record<string, number | string> = {}): void {
    this.opts.diag.report({ id, severity, where: { cf: this.pc, wave: this.id, group: this.group, ...extra }, message, seed: SEED });
  }

  // --- condition tests ---------------------------------------------------------------------------

  /** Is work-item `l` active for the purposes of an instruction with these mode bits? */
  activeTest(l: number, wqm: boolean, vpm: boolean): boolean {
    if (wqm) {
      // WHOLE_QUAD_MODE: true iff the quad contains an active pixel.
      const q = l & ~3;
      return this.state[q] === STATE.ACTIVE || this.state[q + 1] === STATE.ACTIVE || this.state[q + 2] === STATE.ACTIVE || this.state[q + 3] === STATE.ACTIVE;
    }
    if (vpm) return this.state[l] === STATE.ACTIVE && this.valid[l] === 1;
    return this.state[l] === STATE.ACTIVE;
  }

  /**
   * The CF condition test. COND_ACTIVE is the active test; COND_BOOL / COND_NOT_BOOL test the
   * CF_CONST boolean. Choice: BOOL/NOT_BOOL are combined with the active test, so a CF
   * instruction never makes an item active that the program had disabled.
   */
  condTest(l: number, c: CfInst, wqm = c.wholeQuadMode): boolean {
    const act = this.activeTest(l, wqm, c.validPixelMode);
    switch (c.cond) {
      case 0: return act;
      case 1: return false;
      case 2: return act && ((this.opts.resources.bools >>> c.cfConst) & 1) === 1;
      default: return act && ((this.opts.resources.bools >>> c.cfConst) & 1) === 0;
    }
  }

  anyPass(c: CfInst): boolean {
    for (let l = 0; l < this.W; l++) if (this.condTest(l, c)) return true;
    return false;
  }

  anyActive(): boolean {
    for (let l = 0; l < this.W; l++) if (this.state[l] === STATE.ACTIVE) return true;
    return false;
  }

  // --- the CF stack --------------------------------------------------------------------------------

  private stackUse(): { full: number; sub: number } {
    let full = 0;
    let sub = 0;
    for (const e of this.stack) if (e.kind === 'branch') sub += e.cost; else full++;
    return { full, sub };
  }

  push(kind: StackEntry['kind'], pc = 0, loop?: { counter: number; aL: number; inc: number; dx10: boolean }): void {
    let cost = 1;
    if (kind === 'branch' && !this.firstPushDone && !this.cayman) {
      // The first non-WQM push needs an extra subentry on Evergreen (LLVM's stack sizing, from experiment).
      cost = 2;
    }
    if (kind === 'branch') this.firstPushDone = true;
    this.stack.push({ kind, cost: kind === 'branch' ? cost : 4, state: this.state.slice(), pc, counter: loop?.counter ?? 0, aL: loop?.aL ?? 0, inc: loop?.inc ?? 0, dx10: loop?.dx10 ?? false });
    const u = this.stackUse();
    const needed = u.full + Math.ceil(u.sub / (this.opts.stackSubentries ?? 4));
    if (needed > this.opts.stackSize && !this.overflowReported) {
      this.overflowReported = true;
      this.diag('r600.cf.stack-overflow', `CF stack needs ${needed} entries (${u.full} full + ${u.sub} subentries) but STACK_SIZE is ${this.opts.stackSize}`, 'error', { needed, stackSize: this.opts.stackSize });
    }
  }

  /**
   * Pop: restore the per-item state saved by the entry. Items that are in Inactive-Break or
   * Inactive-Continue keep that state: only the end of their loop re-activates them.
   */
  pop(n: number): void {
    for (let k = 0; k < n; k++) {
      const e = this.stack.pop();
      if (!e) {
        this.diag('r600.cf.stack-underflow', `pop of an empty CF stack`);
        return;
      }
      for (let l = 0; l < this.W; l++) {
        const s = this.state[l];
        if (s === STATE.INACTIVE_BREAK || s === STATE.INACTIVE_CONTINUE) continue;
        this.state[l] = e.state[l]!;
      }
    }
  }

  innermostLoop(): number {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.kind === 'loop') return i;
    return -1;
  }

  /** The loop index aL of the innermost loop (0 outside loops). */
  loopIndex(): number {
    return this.stack[this.innermostLoop()]?.aL ?? 0;
  }


  finish(c: CfInst): StepResult {
    if (c.endOfProgram) {
      this.done = true;
      this.checkAcks();
      return 'end';
    }
    return 'ok';
  }

  /** RAT writes with TYPE 2 ask for an acknowledgement; only WAIT_ACK consumes it. */
  checkAcks(): void {
    for (const t of this.exportOpen) if (!this.exportDone.has(t)) this.diag('r600.export.no-done', `the program ended without an EXPORT_DONE for its ${t} exports`, 'warning');
    if (this.pendingAcks > 0) this.diag('r600.rat.ack-without-wait', `${this.pendingAcks} RAT write(s) with ACK were never waited for (no WAIT_ACK before the end)`, 'warning');
    this.pendingAcks = 0;
  }

  /** ELSE: Active items go Inactive-Branch; Inactive-Branch items that were active when the branch was pushed go Active. */
  elseOp(): void {
    const top = this.stack[this.stack.length - 1];
    for (let l = 0; l < this.W; l++) {
      const s = this.state[l];
      if (s === STATE.ACTIVE) this.state[l] = STATE.INACTIVE_BRANCH;
      else if (s === STATE.INACTIVE_BRANCH && (top ? top.state[l] === STATE.ACTIVE : this.valid[l] === 1)) this.state[l] = STATE.ACTIVE;
    }
  }

  /**
   * Seed 003, instructions that unconditionally pop the stack (POP, ELSE, ALU_POP_AFTER,
   * ALU_POP2_AFTER, ALU_ELSE_AFTER): after popping (and ELSE's swap) the condition test runs
   * again on the new state (COND, WHOLE_QUAD_MODE, VALID_PIXEL_MODE) and the items that fail it
   * leave the Active state: ELSE / POP with VALID_PIXEL_MODE keep killed pixels off, COND_FALSE
   * leaves nothing active. `vpm` overrides the instruction's VALID_PIXEL_MODE (the CF_ALU words
   * carry none: ALU_VALID_PIXEL_MODE is an opcode).
   */
  retest(c: CfInst, vpm = c.validPixelMode): void {
    const s = this.state;
    const fail = this.pass;
    for (let l = 0; l < this.W; l++) {
      const act = this.activeTest(l, c.wholeQuadMode, vpm);
      const ok = c.cond === 0 ? act : c.cond === 1 ? false : act && (((this.opts.resources.bools >>> c.cfConst) & 1) === (c.cond === 2 ? 1 : 0));
      fail[l] = ok ? 0 : 1;
    }
    for (let l = 0; l < this.W; l++) if (s[l] === STATE.ACTIVE && fail[l]) s[l] = STATE.INACTIVE_BRANCH;
  }
}
