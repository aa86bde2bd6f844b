/**
 * ALU clauses (CF_ALU_WORD0/1: ALU, ALU_PUSH_BEFORE, ALU_POP_AFTER, ALU_POP2_AFTER, ALU_ELSE_AFTER,
 * ALU_CONTINUE, ALU_BREAK, ALU_VALID_PIXEL_MODE and the ALU_EXTENDED prefix): VLIW instruction
 * groups with read-before-write semantics, PV/PS, kcache constants, the LDS output queue and
 * LDS_IDX_OP, PRED_SET* (the predicate and the pending active-state update, which takes effect at
 * the next CF instruction, seed 003), KILL* (the VALID bit), MOVA*, and the multi-slot ops (DOT4,
 * *_PREV, 64-bit pairs, interpolation).
 *
 * `bindAluClause` turns each decoded instruction into an AluOp once per program: its kind, the
 * semantics function, and everything the group decides (the 64-bit pair mate, the previous slot,
 * the interpolation slots), so the per-lane loop never looks at an opcode name.
 */
import { ALU_OPS, type AluOpInfo } from '../isa/opcodes.gen.js';
import { SRC, type AluGroup, type AluInst, type CfInst } from '../isa/decode.js';
import { ALU_FN, B, F, PREV_FN, compareOf, predCounterFn, type AluFn } from '../exec/alu.js';
import { D, F64_FN, F64_TRANS_FN, FOUR_SLOT_F64, type F64Fn } from '../exec/f64.js';
import { DS_RMW, type DsRmwFn } from '../exec/ds.js';
import { QUEUE, STATE, type StepResult, type Wave } from './machine.js';
import type { CfHandler, CfOp } from './cf.js';

// How the executor handles an instruction (decided once per decoded instruction).
const K_PLAIN = 0;
const K_LDS = 1;
const K_PRED = 2;
const K_KILL = 3;
const K_MOVA = 4;
const K_NONE = 5;
const K_CFIDX = 6;
const K_VEC4 = 7;
const K_PREV = 8;
const K_F64 = 9;
const K_F64T = 10;
const K_INTERP = 11;
/** No semantics: `r600.alu.unknown` (no op) or `r600.alu.unsupported` (no function). */
const K_UNKNOWN = 12;
const K_UNSUPPORTED = 13;

const INTERP_OPS: ReadonlySet<AluOpInfo> = new Set(ALU_OPS.filter((o) => o.name.startsWith('INTERP_')));

/** LDS_IDX_OP semantics for one lane: a the address, b and c the data, off IDX_OFFSET; returns the value PV sees. */
type LdsFn = (w: Wave, l: number, a: number, b: number, c: number, off: number) => number;

/** An interpolation op bound to its group (see interpOp). */
interface InterpOp {
  /** Why the parameter operand is not a parameter (reported), or undefined. */
  readonly badParam: string | undefined;
  readonly param: number;
  /** INTERP_LOAD_P0/P10/P20: the vector (0, 1, 2) and channel read; -1 for the interpolating ops. */
  readonly load: number;
  readonly chan: number;
  /** Why the op is not issued in all its slots (reported), or undefined. */
  readonly missing: string | undefined;
  /** This slot has no defined result: the message for a write from it, or undefined. */
  readonly noResult: string | undefined;
  /** The instructions carrying the barycentric I (even slot) and J (odd slot). */
  readonly even: AluInst | undefined;
  readonly odd: AluInst | undefined;
}

/** One ALU instruction bound to its semantics, once per program. */
export interface AluOp {
  readonly inst: AluInst;
  readonly kind: number;
  /** The op's ISA-document name (messages only). */
  readonly name: string;
  readonly nsrc: number;
  /** K_PLAIN: the per-lane function. */
  readonly fn: AluFn | undefined;
  /** K_PRED / K_KILL: the compare; predicate-counter ops: the counter function. */
  readonly cmp: ((a: number, b: number) => boolean) | undefined;
  readonly ctr: ((a: number, b: number) => [boolean, number]) | undefined;
  /** PRED_SETE_64 / GT_64 / GE_64: 1, 2, 3 (0: not a 64-bit predicate op). */
  readonly pred64: number;
  /** Needs FMA / double-precision hardware (`r600.alu.no-fp64` on other chips). */
  readonly needsFp64: boolean;
  /** OMOD or CLAMP applies. */
  readonly post: boolean;
  /** Writes its GPR unless the kind says otherwise (op3, or op2 with WRITE_MASK). */
  readonly baseWrite: boolean;
  /** K_PREV: the index in the group of the previous slot's instruction (-1: none); its function. */
  readonly prev: number;
  readonly prevFn: ((a: number, b: number, p: number, lane: number) => number) | undefined;
  /** K_F64 / K_PRED 64-bit: the pair mate (x/y, z/w), or Cayman's four-slot z and w; the function. */
  readonly mate: AluInst | undefined;
  readonly wide: readonly [AluInst, AluInst] | undefined;
  readonly fourSlot: boolean;
  readonly f64Fn: F64Fn | undefined;
  /** K_F64T: the function; the group holds the op in slots x, y and z with the same sources (Cayman's rule). */
  readonly f64TransFn: ((hi: number, lo: number) => [number, number]) | undefined;
  readonly xyzGroup: boolean;
  /** K_INTERP */
  readonly interp: InterpOp | undefined;
  /** K_VEC4: the group's vector-slot instructions of this op; 0 MAX4, 1 DOT4, 2 DOT4_IEEE. */
  readonly vec4: readonly AluInst[] | undefined;
  readonly vec4Mode: number;
  /** K_LDS */
  readonly lds: LdsFn | undefined;
  /** K_MOVA: 0 MOVA_INT, 1 MOVA (round), 2 MOVA_FLOOR; K_CFIDX: 0 CF_IDX0, 1 CF_IDX1. */
  readonly sub: number;
  /**
   * Each source's operand class (S_GPR: a GPR without relative addressing, S_CONST: an inline
   * constant or literal, S_KC: a kcache constant, S_PV: PV or PS, S_OTHER: read by readSrc) and its
   * argument: the GPR row reg * 4 + chan, the constant's value with ABS and NEG applied, the kcache
   * set << 12 | index << 2 | chan, or the PV row (0..3, 4 for PS).
   */
  readonly srcKind: readonly number[];
  readonly srcArg: readonly number[];
  /** S_GPR, S_KC, S_PV: ABS as an AND mask, NEG as an XOR mask. */
  readonly srcAnd: readonly number[];
  readonly srcXor: readonly number[];
}

const S_OTHER = 0;
const S_GPR = 1;
const S_CONST = 2;
const S_KC = 3;
const S_PV = 4;

/** A source's class and argument (see AluOp.srcKind), decided once per program. */
function bindSrc(inst: AluInst, k: number, lits: readonly number[], ngpr: number): [number, number] {
  const s = inst.src[k];
  if (!s) return [S_OTHER, 0];
  // (A GPR past the allocation goes through readSrc, which reports it.)
  if (s.sel < 128) return s.rel || s.sel >= ngpr ? [S_OTHER, 0] : [S_GPR, s.sel * 4 + s.chan];
  const kc = s.sel < 192 ? (s.sel - 128) >> 5 : s.sel >= 256 && s.sel < 320 ? 2 + ((s.sel - 256) >> 5) : -1;
  if (kc >= 0) return [S_KC, (kc << 12) | (((s.sel - (kc < 2 ? 128 : 256)) & 31) << 2) | s.chan];
  if (s.sel === SRC.PV || s.sel === SRC.PS) return [S_PV, s.sel === SRC.PS ? 4 : s.chan];
  let v: number;
  switch (s.sel) {
    case SRC.ZERO: v = 0; break;
    case SRC.ONE: v = 0x3f800000; break;
    case SRC.ONE_INT: v = 1; break;
    case SRC.M_ONE_INT: v = 0xffffffff; break;
    case SRC.HALF: v = 0x3f000000; break;
    case SRC.LITERAL: v = lits[s.chan] ?? 0; break;
    default: return [S_OTHER, 0];
  }
  if (s.abs) v &= 0x7fffffff;
  if (s.neg) v ^= 0x80000000;
  return [S_CONST, v >>> 0];
}

/** An instruction group with its bound instructions. */
export interface AluGroupOp {
  readonly grp: AluGroup;
  readonly ops: readonly AluOp[];
}

const PREV_OPS = new Set(Object.keys(PREV_FN));
const F64_OPS = new Set(Object.keys(F64_FN));
const F64_TRANS_OPS = new Set(Object.keys(F64_TRANS_FN));

function kindOf(inst: AluInst): number {
  const name = inst.op?.name ?? '';
  if (!inst.op) return K_UNKNOWN;
  if (inst.enc === 'lds') return K_LDS;
  if (name.startsWith('PRED_SET')) return K_PRED;
  if (name.startsWith('KILL')) return K_KILL;
  if (name === 'MOVA_INT' || name === 'MOVA' || name === 'MOVA_FLOOR') return K_MOVA;
  if (name === 'GROUP_BARRIER' || name === 'NOP' || name === 'GROUP_SEQ_BEGIN' || name === 'GROUP_SEQ_END') return K_NONE;
  if (name === 'SET_CF_IDX0' || name === 'SET_CF_IDX1') return K_CFIDX;
  if (name === 'DOT4' || name === 'DOT4_IEEE' || name === 'MAX4') return K_VEC4;
  if (PREV_OPS.has(name)) return K_PREV;
  if (F64_OPS.has(name)) return K_F64;
  if (F64_TRANS_OPS.has(name)) return K_F64T;
  if (name.startsWith('INTERP_')) return K_INTERP;
  return Object.hasOwn(ALU_FN, name) ? K_PLAIN : K_UNSUPPORTED;
}

/** The instruction in the other slot of a 64-bit pair (x/y, z/w), if it is the same op. */
function f64Mate(grp: AluGroup, inst: AluInst): AluInst | undefined {
  if (inst.slot > 3) return undefined;
  const want = inst.slot ^ 1;
  return grp.insts.find((x) => x.slot === want && x.op === inst.op);
}
/** Cayman: the 64-bit trans op sits in slots x, y and z of its group with the same sources. */
function f64TransCayman(grp: AluGroup, inst: AluInst): boolean {
  const same = (x: AluInst): boolean => x.op === inst.op && x.src.every((s, k) => k >= (inst.op?.srcs ?? 0) || s.sel === inst.src[k]!.sel && s.chan === inst.src[k]!.chan && s.neg === inst.src[k]!.neg && s.abs === inst.src[k]!.abs);
  return [0, 1, 2].every((slot) => grp.insts.some((x) => x.slot === slot && same(x)));
}
/** The z and w instructions of a group holding `inst`'s op in all four vector slots. */
function f64Quad(grp: AluGroup, inst: AluInst): [AluInst, AluInst] | undefined {
  const at = [0, 1, 2, 3].map((s) => grp.insts.find((x) => x.slot === s && x.op === inst.op));
  return at.every((x) => x) ? [at[2]!, at[3]!] : undefined;
}

function bindInterp(grp: AluGroup, inst: AluInst, name: string): InterpOp {
  const isLoad = name.startsWith('INTERP_LOAD_');
  const pSrc = isLoad ? inst.src[0]! : inst.src[1]!;
  const param = pSrc.sel - SRC.PARAM;
  const badParam = param < 0 || param >= 32 ? `${name} reads ${pSrc.sel < 128 ? `T${pSrc.sel}` : `source ${pSrc.sel}`}, not a parameter (Param0..Param31)` : undefined;
  const base = { badParam, param, chan: pSrc.chan, missing: undefined, noResult: undefined, even: undefined, odd: undefined };
  if (isLoad) return { ...base, load: name === 'INTERP_LOAD_P0' ? 0 : name === 'INTERP_LOAD_P10' ? 1 : 2 };
  const slots = name === 'INTERP_X' ? [0, 1] : name === 'INTERP_Z' ? [2, 3] : [0, 1, 2, 3];
  const results = name === 'INTERP_XY' ? [0, 1] : name === 'INTERP_ZW' ? [2, 3] : name === 'INTERP_X' ? [0] : [2];
  const mates = slots.map((s) => grp.insts.find((x) => x.slot === s && x.op === inst.op));
  if (mates.some((x) => !x)) {
    return { ...base, load: -1, missing: `${name} issues in slots ${slots.map((s) => 'xyzw'[s]).join(', ')} together; slot ${slots.filter((_, k) => !mates[k]).map((s) => 'xyzw'[s]).join(', ')} missing` };
  }
  if (!results.includes(inst.slot)) {
    return { ...base, load: -1, noResult: `${name} slot ${'xyzw'[inst.slot]} has no defined result (the result slots are ${results.map((s) => 'xyzw'[s]).join(', ')}); write dropped` };
  }
  return { ...base, load: -1, even: mates[slots.indexOf(inst.slot & 2)]!, odd: mates[slots.indexOf((inst.slot & 2) + 1)]! };
}

function bindAlu(grp: AluGroup, i: number, ngpr: number): AluOp {
  const inst = grp.insts[i]!;
  const kind = kindOf(inst);
  const name = inst.op?.name ?? '';
  let prev = -1;
  if (kind === K_PREV) for (let j = 0; j < i; j++) if (grp.insts[j]!.slot === inst.slot - 1) prev = j;
  const fourSlot = kind === K_F64 && FOUR_SLOT_F64.has(name);
  const wide = fourSlot ? f64Quad(grp, inst) : undefined;
  const pred64 = kind === K_PRED && name.endsWith('_64') ? (name === 'PRED_SETE_64' ? 1 : name === 'PRED_SETGT_64' ? 2 : 3) : 0;
  const srcs = [0, 1, 2].map((k) => bindSrc(inst, k, grp.literals, ngpr));
  return {
    inst, kind, name,
    nsrc: inst.op?.srcs ?? 0,
    fn: kind === K_PLAIN ? ALU_FN[name] : undefined,
    cmp: kind === K_PRED || kind === K_KILL ? compareOf(name) : undefined,
    ctr: kind === K_PRED ? predCounterFn(name) : undefined,
    pred64,
    needsFp64: kind === K_F64 || kind === K_F64T || name === 'FMA' || pred64 !== 0,
    post: inst.omod !== 0 || inst.clamp,
    baseWrite: inst.enc === 'op3' || inst.writeMask,
    prev,
    prevFn: kind === K_PREV ? PREV_FN[name] : undefined,
    mate: (kind === K_F64 && !wide) || pred64 !== 0 ? f64Mate(grp, inst) : undefined,
    wide, fourSlot,
    f64Fn: kind === K_F64 ? F64_FN[name] : undefined,
    f64TransFn: kind === K_F64T ? F64_TRANS_FN[name] : undefined,
    xyzGroup: kind === K_F64T && f64TransCayman(grp, inst),
    interp: kind === K_INTERP ? bindInterp(grp, inst, name) : undefined,
    vec4: kind === K_VEC4 ? grp.insts.filter((x) => x.slot <= 3 && x.op?.name === name) : undefined,
    vec4Mode: name === 'MAX4' ? 0 : name === 'DOT4' ? 1 : 2,
    lds: kind === K_LDS ? ldsFn(name) : undefined,
    sub: kind === K_MOVA ? (name === 'MOVA_INT' ? 0 : name === 'MOVA' ? 1 : 2) : kind === K_CFIDX ? (name === 'SET_CF_IDX0' ? 0 : 1) : 0,
    srcKind: srcs.map((x) => x[0]),
    srcArg: srcs.map((x) => x[1]),
    srcAnd: [0, 1, 2].map((k) => (inst.src[k]?.abs ? 0x7fffffff : 0xffffffff)),
    srcXor: [0, 1, 2].map((k) => (inst.src[k]?.neg ? 0x80000000 : 0)),
  };
}

/** Bind an ALU clause's groups, once per program; `ngpr` is the wave's GPR allocation (Wave.ngpr). */
export function bindAluClause(groups: readonly AluGroup[], ngpr: number): AluGroupOp[] {
  return groups.map((grp) => ({ grp, ops: grp.insts.map((_, i) => bindAlu(grp, i, ngpr)) }));
}

// --- the CF_ALU instructions ----------------------------------------------------------------------

/** ALU_EXTENDED: a prefix; its KC0/KC1 fields are the next clause's KC2/KC3, its ADDR bits 11:4 the four KCACHE_BANK_INDEX_MODEs. */
function aluExtended(w: Wave, op: CfOp): StepResult {
  w.extPending = op.c;
  w.pc++;
  return w.finish(op.c);
}

/**
 * An ALU clause. `push`: ALU_PUSH_BEFORE; `vpm`: ALU_VALID_PIXEL_MODE; `to`: the state items whose
 * PRED_SET* failed go to (Inactive-Continue for ALU_CONTINUE, Inactive-Break for ALU_BREAK);
 * `after`: 1 / 2 pops (ALU_POP_AFTER / ALU_POP2_AFTER), 3 ELSE (ALU_ELSE_AFTER).
 */
function aluClauseCf(push: boolean, vpm: boolean, to: number, after: 0 | 1 | 2 | 3): CfHandler {
  return (w, op) => {
    const c = op.c;
    const groups = op.alu!;
    if (w.resumeGroup < 0) {
      const e = w.extPending;
      w.ext = e ? { sets: e.kcache, modes: [(e.addr >>> 4) & 3, (e.addr >>> 6) & 3, (e.addr >>> 8) & 3, (e.addr >>> 10) & 3] } : undefined;
      w.extPending = undefined;
      if (push) w.push('branch');
      w.pvValid = false;
    }
    const exec = w.exec;
    for (let l = 0; l < w.W; l++) exec[l] = w.activeTest(l, c.wholeQuadMode, vpm) ? 1 : 0;
    for (let g = w.resumeGroup < 0 ? 0 : w.resumeGroup; g < groups.length; g++) {
      const grp = groups[g]!;
      if (grp.grp.barrier) {
        if (!w.barrierReleased) {
          w.resumeGroup = g;
          w.stats.cfInstructions--; // counted again when resumed
          return 'barrier';
        }
        w.barrierReleased = false;
      }
      execGroup(w, grp, exec, c);
    }
    w.resumeGroup = -1;
    // PRED_SET* exec-mask updates take effect now, at the start of the next CF instruction.
    for (let l = 0; l < w.W; l++) {
      const p = w.pendingExec[l]!;
      if (p === 0 && w.state[l] === STATE.ACTIVE) w.state[l] = to;
      w.pendingExec[l] = -1;
    }
    if (after) {
      if (after === 3) w.elseOp();
      else w.pop(after);
      w.retest(c, vpm);
    }
    w.pc++;
    return w.finish(c);
  };
}

/** The CF_ALU instructions by ISA-document name (cf.ts indexes them by CF_INST per generation). */
export const ALU_CF_HANDLERS: Readonly<Record<string, CfHandler>> = {
  ALU: aluClauseCf(false, false, STATE.INACTIVE_BRANCH, 0),
  ALU_PUSH_BEFORE: aluClauseCf(true, false, STATE.INACTIVE_BRANCH, 0),
  ALU_POP_AFTER: aluClauseCf(false, false, STATE.INACTIVE_BRANCH, 1),
  ALU_POP2_AFTER: aluClauseCf(false, false, STATE.INACTIVE_BRANCH, 2),
  ALU_ELSE_AFTER: aluClauseCf(false, false, STATE.INACTIVE_BRANCH, 3),
  ALU_CONTINUE: aluClauseCf(false, false, STATE.INACTIVE_CONTINUE, 0),
  ALU_BREAK: aluClauseCf(false, false, STATE.INACTIVE_BREAK, 0),
  ALU_VALID_PIXEL_MODE: aluClauseCf(false, true, STATE.INACTIVE_BRANCH, 0),
  ALU_EXTENDED: aluExtended,
};

// --- operands -----------------------------------------------------------------------------------------

function kcacheRead(w: Wave, c: CfInst, set: number, index: number, chan: number): number {
  const k = set < 2 ? c.kcache[set]! : w.ext?.sets[set - 2];
  if (!k || k.mode === 0) {
    w.diag('r600.alu.kcache-unlocked', `KC${set} read but the clause locks no constant lines for it${set >= 2 ? ' (KC2/KC3 need an ALU_EXTENDED before the clause)' : ''}`, 'error');
    return 0;
  }
  // ALU_EXTENDED's KCACHE_BANK_INDEX_MODEn: 1 adds CF_IDX0, 2 CF_IDX1 to the bank.
  const im = w.ext?.modes[set] ?? 0;
  const cb = w.opts.resources.constBuffers.get(k.bank + (im === 1 ? w.cfIdx[0]! : im === 2 ? w.cfIdx[1]! : 0));
  const idx = (k.addr * 16 + index) * 4 + chan;
  return cb && idx < cb.length ? cb[idx]! : 0;
}

function readSrc(w: Wave, inst: AluInst, k: number, l: number, lits: readonly number[], c: CfInst): number {
  const s = inst.src[k]!;
  let v: number;
  const sel = s.sel;
  if (sel < 128) {
    let r = sel;
    if (s.rel) r += relIndex(w, inst, l);
    if (r < 0 || r >= w.ngpr) {
      w.diag('r600.alu.gpr-out-of-range', `relative GPR T${r} out of range`, 'error', { lane: l });
      v = 0;
    } else v = w.gpr[(r * 4 + s.chan) * w.W + l]!;
  } else if (sel < 160) v = kcacheRead(w, c, 0, sel - 128, s.chan);
  else if (sel < 192) v = kcacheRead(w, c, 1, sel - 160, s.chan);
  else if (sel >= 256 && sel < 288) v = kcacheRead(w, c, 2, sel - 256, s.chan);
  else if (sel >= 288 && sel < 320) v = kcacheRead(w, c, 3, sel - 288, s.chan);
  else if (sel >= SRC.PARAM && sel < SRC.PARAM + 32) {
    // Parameters are read by the interpolation ops themselves (interpOp).
    if (!INTERP_OPS.has(inst.op!)) w.diag('r600.alu.unsupported-source', `Param${sel - SRC.PARAM} read by ${inst.op?.name}: only the INTERP_* ops read the parameter cache`, 'warning');
    v = 0;
  } else {
    switch (sel) {
      case SRC.ZERO: v = 0; break;
      case SRC.ONE: v = 0x3f800000; break;
      case SRC.ONE_INT: v = 1; break;
      case SRC.M_ONE_INT: v = 0xffffffff; break;
      case SRC.HALF: v = 0x3f000000; break;
      case SRC.LITERAL: v = lits[s.chan] ?? 0; break;
      case SRC.LOOP_IDX: v = w.loopIndex() >>> 0; break;
      case SRC.PV:
      case SRC.PS:
        v = pvRead(w, sel === SRC.PS ? 4 : s.chan, l);
        break;
      case SRC.LDS_OQ_A_POP:
      case SRC.LDS_OQ_A: {
        if (w.oqCount[l] === 0) {
          w.diag('r600.lds.queue-underflow', 'read of the LDS output queue while it is empty', 'error', { lane: l });
          v = 0;
        } else {
          v = w.oq[l * QUEUE + w.oqHead[l]!]!;
          if (sel === SRC.LDS_OQ_A_POP) {
            w.oqHead[l] = (w.oqHead[l]! + 1) % QUEUE;
            w.oqCount[l]!--;
          }
        }
        break;
      }
      default:
        w.diag('r600.alu.unsupported-source', `ALU source select ${sel} is not modelled`, 'warning');
        v = 0;
    }
  }
  if (s.abs) v &= 0x7fffffff;
  if (s.neg) v ^= 0x80000000;
  return v >>> 0;
}

/** PV (row 0..3) or PS (row 4) of the previous group; reported when there is none in this clause. */
function pvRead(w: Wave, row: number, l: number): number {
  if (!w.pvValid) w.diag('r600.alu.pv-undefined', 'PV/PS read in the first instruction group of a clause', 'warning');
  return w.pv[row * w.W + l]!;
}

/**
 * Source k of `x`, one instruction of a multi-slot op (64-bit pair, interpolation), for lane l:
 * the executing instruction's own sources are already in srcv, the others are read here.
 */
function pairSrc(w: Wave, x: AluInst, inst: AluInst, k: number, l: number, lits: readonly number[], c: CfInst): number {
  return x === inst ? w.srcv[k]! : readSrc(w, x, k, l, lits, c);
}

/** The relative-addressing index INDEX_MODE selects: 0..3 AR.x/y/z/w (MOVA*), 4 the loop index aL. */
function relIndex(w: Wave, inst: AluInst, l: number): number {
  const m = inst.indexMode;
  if (m === 4) return w.loopIndex();
  if (m > 4) {
    w.diag('r600.alu.index-mode', `INDEX_MODE ${m} (global) is not modelled; using AR.x`, 'warning');
    return w.ar[l]!;
  }
  if (m > 0 && w.cayman) w.diag('r600.alu.index-mode', `INDEX_MODE ${m} (AR.${'xyzw'[m]}): Cayman has only AR.x`, 'error');
  return w.ar[m * w.W + l]!;
}

// --- multi-slot ops -----------------------------------------------------------------------------------

/**
 * Interpolation from the LDS parameter cache (Evergreen/Cayman). Parameter n (source PARAMn) is
 * 12 floats at LDS byte 48n: P0, P10 = P1 - P0, P20 = P2 - P0, four channels each (gpusim's
 * layout, in the order of INTERP_LOAD_P0/P10/P20; `interpParams` fills it as the SPI would).
 * - INTERP_LOAD_P0/P10/P20: that vector's channel the source names.
 * - INTERP_XY (x,y,z,w) / INTERP_ZW (x,y,z,w) / INTERP_X (x,y) / INTERP_Z (z,w): slot pairs x/y and
 *   z/w; the even slot's src0 is the barycentric I, the odd slot's J (Mesa's operand order). The
 *   result slots are x and y (XY), z and w (ZW), x (X), z (Z): channel c = P0.c + I*P10.c +
 *   J*P20.c, each step rounded to single precision (P0 + I*P10, then + J*P20). The other slots
 *   have no defined result: a write from one is reported and nothing is written. All slots of the
 *   op must be issued (`r600.alu.interp`). Returns undefined when the slot writes nothing.
 */
function interpOp(w: Wave, a: AluOp, l: number, lits: readonly number[], c: CfInst, report: boolean): number | undefined {
  const ip = a.interp!;
  const inst = a.inst;
  if (ip.badParam !== undefined) {
    if (report) w.diag('r600.alu.interp', ip.badParam, 'error', { offset: inst.offset });
    return 0;
  }
  const read = (vec: number, ch: number): number => {
    const addr = ip.param * 48 + vec * 16 + ch * 4;
    if (addr + 4 > w.lds.length) {
      w.diag('r600.lds.out-of-range', `parameter ${ip.param} at LDS byte ${addr} outside the ${w.lds.length}-byte LDS`, 'error', { lane: l, addr });
      return 0;
    }
    return w.ldsView.getUint32(addr, true);
  };
  if (ip.load >= 0) return read(ip.load, ip.chan);
  if (ip.missing !== undefined) {
    if (report) w.diag('r600.alu.interp', ip.missing, 'error', { offset: inst.offset });
    return undefined;
  }
  if (ip.noResult !== undefined) {
    if (inst.writeMask && report) w.diag('r600.alu.interp', ip.noResult, 'warning', { offset: inst.offset });
    return undefined;
  }
  const i = F(pairSrc(w, ip.even!, inst, 0, l, lits, c));
  const j = F(pairSrc(w, ip.odd!, inst, 0, l, lits, c));
  const ch = inst.slot;
  return B(Math.fround(Math.fround(F(read(0, ch)) + Math.fround(i * F(read(1, ch)))) + Math.fround(j * F(read(2, ch)))));
}

/** DOT4-style ops read src0/src1 of all four vector slots of the group. */
function vec4Op(w: Wave, a: AluOp, l: number, lits: readonly number[], c: CfInst): number {
  const max = a.vec4Mode === 0;
  let acc = max ? -Infinity : 0;
  for (const inst of a.vec4!) {
    const x = F(readSrc(w, inst, 0, l, lits, c));
    if (max) acc = Math.max(acc, x);
    else {
      const y = F(readSrc(w, inst, 1, l, lits, c));
      acc = Math.fround(acc + (a.vec4Mode === 1 && (x === 0 || y === 0) ? 0 : Math.fround(x * y)));
    }
  }
  return B(acc);
}

// --- the instruction group ----------------------------------------------------------------------------

function execGroup(w: Wave, g: AluGroupOp, exec: Uint8Array, c: CfInst): void {
  const grp = g.grp;
  w.stats.aluGroups++;
  if (grp.slotError && !w.reportedGroups.has(grp)) {
    w.reportedGroups.add(grp);
    w.diag('r600.alu.slot-conflict', `illegal instruction group at byte ${grp.offset}: ${grp.slotError}`, 'error', { offset: grp.offset });
  }
  if (grp.bankError && !w.reportedGroups.has(grp)) {
    w.reportedGroups.add(grp);
    w.diag('r600.alu.bank-swizzle', `read-port conflict in the instruction group at byte ${grp.offset}: ${grp.bankError}`, 'error', { offset: grp.offset });
  }
  if (grp.constError && !w.constReported.has(grp)) {
    w.constReported.add(grp);
    w.diag('r600.alu.const-read', `constant-read rule broken in the instruction group at byte ${grp.offset}: ${grp.constError}`, 'error', { offset: grp.offset });
  }
  const ops = g.ops;
  const n = ops.length;
  const W = w.W;
  w.stats.aluInstructions += n;
  const res = w.res;
  const doWrite = w.doWrite;
  doWrite.fill(0, 0, n * W);
  const newPv = w.newPv;
  newPv.set(w.pv);
  const srcv = w.srcv;
  const lits = grp.literals;
  const arNew = w.arNew;
  arNew.set(w.ar);
  // Instruction by instruction, lane by lane: each lane still sees its own predicate, queue and
  // KILL updates in slot order, and nothing is written to GPRs before the whole group has read.
  for (let i = 0; i < n; i++) {
    const a = ops[i]!;
    const inst = a.inst;
    const kind = a.kind;
    if (kind === K_UNKNOWN) {
      w.diag('r600.alu.unknown', `unknown ALU ${inst.enc} opcode ${inst.code}`, 'error');
      continue;
    }
    if (kind === K_UNSUPPORTED) {
      w.diag('r600.alu.unsupported', `${a.name} is not modelled`, 'warning');
      continue;
    }
    if (a.needsFp64 && w.opts.fp64 === false && !w.noFp64Reported.has(inst)) {
      w.noFp64Reported.add(inst);
      w.diag('r600.alu.no-fp64', `${a.name} needs FMA / double-precision hardware, which this chip does not have`, 'error', { offset: inst.offset });
    }
    const nsrc = a.nsrc;
    const predSel = inst.predSel;
    const srcKind = a.srcKind, srcArg = a.srcArg, srcAnd = a.srcAnd, srcXor = a.srcXor;
    const gpr = w.gpr;
    let reported = false;
    let lanes = 0;
    for (let l = 0; l < W; l++) {
      if (!exec[l]) continue;
      // A predicated-off instruction reads nothing (no LDS queue pop) and writes nothing.
      if (predSel === 2 ? w.pred[l] !== 0 : predSel === 3 ? w.pred[l] !== 1 : false) continue;
      for (let k = 0; k < nsrc; k++) {
        const sk = srcKind[k];
        srcv[k] = sk === S_GPR ? ((gpr[srcArg[k]! * W + l]! & srcAnd[k]!) ^ srcXor[k]!) >>> 0
          : sk === S_CONST ? srcArg[k]!
          : sk === S_KC ? ((kcacheRead(w, c, srcArg[k]! >>> 12, (srcArg[k]! >>> 2) & 31, srcArg[k]! & 3) & srcAnd[k]!) ^ srcXor[k]!) >>> 0
          : sk === S_PV ? ((pvRead(w, srcArg[k]!, l) & srcAnd[k]!) ^ srcXor[k]!) >>> 0
          : readSrc(w, inst, k, l, lits, c);
      }
      let r = 0;
      let write = a.baseWrite;
      lanes++;
      switch (kind) {
        case K_PLAIN:
          r = a.fn!(srcv[0]!, srcv[1]!, srcv[2]!);
          break;
        case K_LDS:
          w.stats.ldsOps++;
          r = a.lds ? a.lds(w, l, srcv[0]!, srcv[1]!, srcv[2]!, inst.ldsOffset) : ldsUnsupported(w, a);
          write = false;
          break;
        case K_PRED:
        case K_KILL: {
          let pass = false;
          // The predicate-counter ops (*_PUSH, POP, RESTORE, INV, CLR) compute a new counter; the
          // plain compares write 1.0 / 0.0.
          const ctr = a.ctr ? a.ctr(srcv[0]!, srcv[1]!) : undefined;
          if (ctr) {
            pass = ctr[0];
            r = ctr[1];
          } else if (a.pred64 !== 0) {
            // PRED_SETE/GT/GE_64: a double compare on a slot pair like SETE_64 (even slot: high
            // dwords, odd slot: low); both slots set the predicate, and write 1.0 / 0.0 as a double.
            const mate = a.mate;
            if (!mate) {
              if (!reported && (reported = true)) w.diag('r600.alu.f64-pair', `${a.name} in slot ${'xyzwt'[inst.slot]} needs its pair slot (x/y or z/w) to hold ${a.name} too`, 'error', { offset: inst.offset });
            } else {
              const even = inst.slot % 2 === 0 ? inst : mate;
              const odd = even === inst ? mate : inst;
              const x = D(pairSrc(w, even, inst, 0, l, lits, c), pairSrc(w, odd, inst, 0, l, lits, c));
              const y = D(pairSrc(w, even, inst, 1, l, lits, c), pairSrc(w, odd, inst, 1, l, lits, c));
              pass = a.pred64 === 1 ? x === y : a.pred64 === 2 ? x > y : x >= y;
            }
            r = pass && inst.slot % 2 === 1 ? 0x3ff00000 : 0;
          } else {
            if (a.cmp) pass = a.cmp(srcv[0]!, srcv[1]!);
            r = pass ? 0x3f800000 : 0;
          }
          if (kind === K_KILL) {
            if (pass) w.valid[l] = 0;
          } else {
            if (inst.updatePred) w.pred[l] = pass ? 1 : 0;
            if (inst.updateExecMask) w.pendingExec[l] = pass ? 1 : 0;
          }
          break;
        }
        case K_MOVA: {
          const v = a.sub === 0 ? srcv[0]! | 0 : a.sub === 1 ? Math.round(F(srcv[0]!)) : Math.floor(F(srcv[0]!));
          // Cayman's MOVA_INT picks its target with DST_GPR: 0 AR.x, 2 CF_IDX0, 3 CF_IDX1.
          if (w.cayman && inst.dstGpr >= 2) w.cfIdx[inst.dstGpr - 2] = v;
          else arNew[(w.cayman ? 0 : inst.dstChan) * W + l] = v;
          r = srcv[0]!;
          write = false;
          break;
        }
        case K_PREV:
          // *_PREV: the other operand is the result of the previous slot of this group.
          if (a.prev < 0) {
            if (!reported && (reported = true)) w.diag('r600.alu.prev-slot', `${a.name} in slot ${'xyzwt'[inst.slot]} has no previous slot in its group`, 'error', { offset: inst.offset });
            r = 0;
          } else r = a.prevFn!(srcv[0]!, srcv[1]!, res[a.prev * W + l]!, l);
          break;
        case K_F64: {
          // 64-bit float ops run on a slot pair (x,y or z,w): the even slot's sources hold the
          // high dwords, the odd slot's the low dwords (Mesa's fp64 channel order); the even slot
          // gets the low dword of the result, the odd slot the high one.
          // MUL_64 and FMA_64 are four-slot ops on Cayman (r600_isa.h AF_4V) and Mesa issues them
          // four-wide on every chip: x, y, z carry the high dwords, w the low ones, x and y take
          // the result. In such a group the z/w pair computes and every slot gets its half.
          const wide = a.wide;
          if (!wide && a.fourSlot && w.cayman && !reported && (reported = true)) {
            w.diag('r600.alu.f64-pair', `${a.name} on Cayman uses all four slots (x, y, z with the high dwords, w with the low); slot ${'xyzw'[inst.slot]} is not in such a group`, 'error', { offset: inst.offset });
          }
          const mate = a.mate;
          if (!wide && !mate) {
            if (!reported && (reported = true)) w.diag('r600.alu.f64-pair', `${a.name} in slot ${'xyzwt'[inst.slot]} needs its pair slot (x/y or z/w) to hold ${a.name} too`, 'error', { offset: inst.offset });
            r = 0;
            break;
          }
          const even = wide ? wide[0] : inst.slot % 2 === 0 ? inst : mate!;
          const odd = wide ? wide[1] : even === inst ? mate! : inst;
          const hi = [0, 1, 2].map((k) => (k < nsrc ? pairSrc(w, even, inst, k, l, lits, c) : 0));
          const lo = [0, 1, 2].map((k) => (k < nsrc ? pairSrc(w, odd, inst, k, l, lits, c) : 0));
          const out = a.f64Fn!(hi, lo);
          r = inst.slot % 2 === 0 ? out[0] : out[1];
          break;
        }
        case K_F64T: {
          // Cayman issues the former trans ops in slots x, y and z (r600_isa.h AF_S); x and y carry
          // the low and high dwords of the double.
          if (w.cayman && !reported && !a.xyzGroup) {
            reported = true;
            w.diag('r600.alu.f64-pair', `${a.name} on Cayman issues in slots x, y and z together (x writes the low dword, y the high); slot ${'xyzw'[inst.slot]} is alone`, 'error', { offset: inst.offset });
          }
          const out = a.f64TransFn!(srcv[0]!, srcv[1]!);
          r = inst.dstChan % 2 === 0 ? out[0] : out[1];
          break;
        }
        case K_INTERP: {
          const v = interpOp(w, a, l, lits, c, !reported);
          reported = true;
          if (v === undefined) write = false;
          else r = v;
          break;
        }
        case K_NONE:
          write = false;
          break;
        case K_CFIDX:
          w.cfIdx[a.sub] = w.ar[l]!;
          write = false;
          break;
        default:
          r = vec4Op(w, a, l, lits, c);
      }
      if (a.post) {
        if (inst.omod) r = B(F(r) * [1, 2, 4, 0.5][inst.omod]!);
        if (inst.clamp) {
          const f = F(r);
          r = Number.isNaN(f) ? 0 : f < 0 ? 0 : f > 1 ? 0x3f800000 : r;
        }
      }
      res[i * W + l] = r >>> 0;
      doWrite[i * W + l] = write ? 1 : 0;
      newPv[inst.slot * W + l] = r >>> 0;
    }
    w.stats.laneOps += lanes;
  }
  // All slots read before any writes: commit the group.
  for (let i = 0; i < n; i++) {
    const inst = ops[i]!.inst;
    for (let l = 0; l < W; l++) {
      if (!doWrite[i * W + l]) continue;
      let reg = inst.dstGpr;
      if (inst.dstRel) reg += relIndex(w, inst, l);
      if (reg < 0 || reg >= w.ngpr) {
        w.diag('r600.alu.gpr-out-of-range', `relative destination T${reg} out of range: write dropped`, 'error', { lane: l });
        continue;
      }
      w.gpr[(reg * 4 + inst.dstChan) * W + l] = res[i * W + l]!;
    }
  }
  w.pv.set(newPv);
  w.pvValid = true;
  w.ar.set(arNew);
}

// --- LDS_IDX_OP ---------------------------------------------------------------------------------------

function ldsCheck(w: Wave, addr: number, size: number, l: number): boolean {
  if (addr < 0 || addr + size > w.lds.length) {
    w.diag('r600.lds.out-of-range', `LDS access of ${size} bytes at ${addr} outside the ${w.lds.length}-byte LDS`, 'error', { lane: l, addr });
    return false;
  }
  return true;
}

function oqPush(w: Wave, l: number, v: number): void {
  if (w.oqCount[l]! >= QUEUE) {
    w.diag('r600.lds.queue-overflow', 'LDS output queue overflow (more than 16 returns not read)', 'error', { lane: l });
    return;
  }
  w.oq[l * QUEUE + ((w.oqHead[l]! + w.oqCount[l]!) % QUEUE)] = v >>> 0;
  w.oqCount[l]!++;
}

const ldsRd = (w: Wave, l: number, a: number): number => (ldsCheck(w, a, 4, l) ? w.ldsView.getUint32(a, true) : 0);
const ldsWr = (w: Wave, l: number, a: number, v: number): void => {
  if (ldsCheck(w, a, 4, l)) w.ldsView.setUint32(a, v >>> 0, true);
};

function ldsUnsupported(w: Wave, a: AluOp): number {
  w.diag('r600.lds.unsupported', `${a.name} is not modelled`, 'warning');
  return 0;
}

/** An LDS read-modify-write: the old value goes to the output queue for the _RET forms and to PV. */
function ldsAtomic(rmw: DsRmwFn, ret: boolean): LdsFn {
  return (w, l, a, b, c) => {
    const old = ldsRd(w, l, a);
    ldsWr(w, l, a, rmw(old, b, c));
    if (ret) oqPush(w, l, old);
    return old;
  };
}

/** LDS_IDX_OP semantics by name without _RET (the _RET forms queue the old value). */
const LDS_FN: Readonly<Record<string, LdsFn>> = {
  LDS_WRITE: (w, l, a, b) => (ldsWr(w, l, a, b), 0),
  // Two dwords: B at A and C at A + 4 * IDX_OFFSET (Mesa writes a vec2 with IDX_OFFSET 1).
  LDS_WRITE_REL: (w, l, a, b, c, off) => {
    ldsWr(w, l, a, b);
    const a2 = (a + 4 * off) >>> 0;
    if (ldsCheck(w, a2, 4, l)) w.ldsView.setUint32(a2, c >>> 0, true);
    return 0;
  },
  LDS_BYTE_WRITE: (w, l, a, b) => {
    if (ldsCheck(w, a, 1, l)) w.ldsView.setUint8(a, b & 255);
    return 0;
  },
  LDS_SHORT_WRITE: (w, l, a, b) => {
    if (ldsCheck(w, a, 2, l)) w.ldsView.setUint16(a, b & 0xffff, true);
    return 0;
  },
  LDS_READ: (w, l, a) => (oqPush(w, l, ldsRd(w, l, a)), 0),
  LDS_BYTE_READ: (w, l, a) => (oqPush(w, l, ldsCheck(w, a, 1, l) ? w.ldsView.getInt8(a) >>> 0 : 0), 0),
  LDS_UBYTE_READ: (w, l, a) => (oqPush(w, l, ldsCheck(w, a, 1, l) ? w.ldsView.getUint8(a) : 0), 0),
  LDS_SHORT_READ: (w, l, a) => (oqPush(w, l, ldsCheck(w, a, 2, l) ? w.ldsView.getInt16(a, true) >>> 0 : 0), 0),
  LDS_USHORT_READ: (w, l, a) => (oqPush(w, l, ldsCheck(w, a, 2, l) ? w.ldsView.getUint16(a, true) : 0), 0),
};
const LDS_RMW_OPS = ['ADD', 'SUB', 'RSUB', 'INC', 'DEC', 'MIN_INT', 'MAX_INT', 'MIN_UINT', 'MAX_UINT', 'AND', 'OR', 'XOR', 'MSKOR', 'XCHG', 'CMP_XCHG', 'CMP_STORE'];

/** The bound LDS semantics of an LDS_IDX_OP name (undefined: `r600.lds.unsupported`). */
function ldsFn(name: string): LdsFn | undefined {
  const base = name.replace(/_RET$/, '');
  if (Object.hasOwn(LDS_FN, base)) return LDS_FN[base];
  const rmw = base.startsWith('LDS_') ? base.slice(4) : '';
  return LDS_RMW_OPS.includes(rmw) ? ldsAtomic(DS_RMW[rmw]!, name.endsWith('_RET')) : undefined;
}
