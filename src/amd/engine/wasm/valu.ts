/**
 * Translation of a straight run of VALU ops to one WebAssembly function (issue 24's wasm tier).
 * The function takes the byte offset of the wave's register block in the heap (heap.ts: the SGPRs
 * at 0, MODE at 3076, the VGPRs at 3328, as wave.ts lays them out) and the wave's Memory's segment
 * table (for GLOBAL accesses, global.ts), and runs the ops one after another, each over its lanes
 * (EXEC read at the op, as per-op stepping reads it), writing VGPRs and lane masks in place. It
 * returns `done | trips << 8 | lanes << 16`: how many ops of the run it completed and how many
 * lane-ops they counted (a loop body's run, ending in its back branch: branch.ts, takes further
 * trips while its limit allows; `trips` counts the back branches taken and `done` is the op
 * reached in the last trip). An op it does not complete is handed back before it wrote anything
 * (a GLOBAL access may have moved some lanes, which its handler then moves again: global.ts): the
 * caller runs it and the rest of the run through their JavaScript handlers (which hand back to the
 * reference interpreter in turn).
 *
 * Ops taken: every VALU lane description the fast tier binds (fast-valu.ts valuLane: the integer
 * ops of exec/valu-int.ts, 32- and 64-bit, the f32 ops and conversions of exec/valu-f32.ts, the
 * compares of exec/valu-cmp-ops.ts to VCC, SGPRs or EXEC) and VOPD pairs, in the plain forms the
 * fast JavaScript handlers take (VGPRs, SGPRs, inline constants and literals as sources; no DPP,
 * abs/neg, op_sel, clamp or omod; carry-in/out masks in SGPRs or VCC); with them GLOBAL, DS and
 * scalar loads, SALU ops and waits (global.ts, lds.ts, smem.ts, salu.ts). Consecutive integer ops
 * share one lane loop (groupsOf). Each lane's statements are the description's own text, compiled
 * by jsub.ts / lower.ts. The f32 rules are the fast tier's: MODE must be
 * round-to-nearest-even with denormals kept (else hand back); a NaN result (or, for min/max, a NaN
 * source) hands the op back. A result x with remainder e (the exact value is x + e) is stored as
 * f32.demote(x): round-to-nearest of x equals round-to-nearest of x + e unless x lies exactly
 * halfway between two binary32 values (core/float.ts roundF32 handles that tie), and every such
 * halfway point has at most 25 significant bits, i.e. its low 28 binary64 fraction bits are zero:
 * a lane with e != 0 whose x has those bits zero hands the op back (a superset of the ties; about
 * one random lane in 2^28).
 */
import type { Op } from '../types.js';
import { baseMnemonic } from '../registry.js';
import { valuOperands } from '../../exec/valu-core.js';
import { valuLane, type Ex } from '../fast-valu.js';
import type { VopdInfo } from '../../isa/gfx11/vopd.js';
import { FuncBuilder, encodeModule, OP, SIMD, F64, I32, I64, V128 } from './encoder.js';
import { VecLowerer, vectorizable } from './simd.js';
import { IntVecLowerer, readsName, type VName } from './simd-int.js';
import { parseStatements, SubsetError, type Stmt } from './jsub.js';
import { Lowerer, type Var } from './lower.js';
import { lowerGlobal, wasmGlobal, wasmWait, type RunFrame, type WGlobal, type WWait } from './global.js';
import { lowerDs, wasmDs, type WDs } from './lds.js';
import { lowerSalu, wasmSalu, type WSalu } from './salu.js';
import { lowerSmem, wasmSmem, type WSmem } from './smem.js';
import { lowerBack, type WBack } from './branch.js';
import { HEAP_MAX_PAGES, heap, sccSlot } from './heap.js';

/** Byte offsets inside a wave's register block (wave.ts). */
export const REG = { S: 0, MODE: 3072 + 4, V: 3328 } as const;
/** This thread's scratch row in the heap (one f32 result per lane: heap.ts), as translations bake it in. */
function scratchRow(): number {
  return heap()?.scratch ?? 0;
}

/**
 * A bound source: a VGPR row (a 64-bit source's high dword in the next row), a scalar source where
 * the register block holds it (byte offsets of its low and high dwords, -1: a high dword of 0), or
 * a literal (high dword 0).
 */
type SrcBind = { readonly vgpr: true; readonly base: number } | { readonly vgpr: false; readonly at: number; readonly hiAt: number } | { readonly vgpr: false; readonly lit: number };

/** One op as the translator needs it: a VALU op, a VOPD pair, a GLOBAL or DS access, an SALU op, an s_load, an s_waitcnt or a no-op. */
export type WOp = WValu | WDual | WGlobal | WDs | WSalu | WSmem | WWait | WBack;

/**
 * A VALU op (or a VOPD half) as the translator needs it. 'i32': result `r`, 'i64': `r` and `rh`
 * (the next VGPR row), 'fcvt': `r` from f32 sources (the f32 MODE check), 'f32': `x` and its
 * remainder `e`, 'cmp': the lane's bit `c` (to the mask `cout`).
 */
export interface WValu {
  readonly body: readonly Stmt[];
  readonly kind: 'i32' | 'i64' | 'f32' | 'fcvt' | 'cmp';
  readonly ordered: boolean;
  /** A float compare: reads MODE's f32 input denormal flush (hands back when it is on). */
  readonly fcmp: boolean;
  readonly srcs: readonly SrcBind[];
  /** Which sources the body reads as f32 values (their bits are always loaded). */
  readonly useF: readonly boolean[];
  /** Which sources the body reads the high dword of (64-bit sources). */
  readonly useH: readonly boolean[];
  readonly D: number;
  readonly cin: number | null;
  /** The lane mask written (carry-out, a compare's result; 126 for v_cmpx_*), 124: none. */
  readonly cout: number | null;
  /** An f32 op whose statements lower over pairs of lanes (simd.ts): a full EXEC row runs that way. */
  readonly vec: boolean;
}

/** A VOPD pair: both halves read every source before either writes (isa/gfx11/vopd.ts). */
export interface WDual {
  readonly dual: readonly [WValu, WValu];
  readonly vec: false;
}

/** Ops translated with a two-lanes-at-a-time row for EXEC all ones (this thread; tests). */
export const simdStats = { ops: 0 };
/** Integer ops translated with a four-lanes-at-a-time row (simd-int.ts: hot runs, half the lanes active or more; this thread, tests). */
export const intVecStats = { ops: 0 };
/** Groups of integer ops translated into one lane loop, and their ops (this thread; tests). */
export const groupStats = { groups: 0, ops: 0 };

const SGPR_OK = (enc: number) => enc <= 107 || (enc >= 124 && enc <= 248 && enc !== 239);

/** As fast-valu.ts binds a source of `type` (the register block holds 64-bit inline constants at 1024/2048). */
function bindSrc(enc: number, type: string, literal: number | undefined, vgprs: number, ws: number): SrcBind | undefined {
  const wide = type === 'b64';
  if (enc >= 256) return enc - 256 + (wide ? 1 : 0) < vgprs ? { vgpr: true, base: (enc - 256) * ws } : undefined;
  if (enc === 255) return { vgpr: false, lit: (literal ?? 0) >>> 0 };
  if (!SGPR_OK(enc)) return undefined;
  if (!wide) return { vgpr: false, at: enc * 4, hiAt: -1 };
  if (enc >= 128) return { vgpr: false, at: 1024 + enc * 4, hiAt: 2048 + enc * 4 };
  if ((enc & 1) === 1) return undefined;
  if (enc === 124) return { vgpr: false, lit: 0 };
  return { vgpr: false, at: enc * 4, hiAt: (enc + 1) * 4 };
}

/** Where a lane mask goes (as fast-valu.ts maskWrite accepts it); undefined: not taken. */
function maskOk(m: number, ws: number): boolean {
  if (m === 124) return true;
  if (m >= 108 && m <= 123) return false;
  if (m > 127 || m < 0) return false;
  return ws === 32 || (m & 1) === 0;
}

const parsed = new Map<string, readonly Stmt[] | null>();
function parseOnce(key: string, text: () => string): readonly Stmt[] | null {
  let p = parsed.get(key);
  if (p === undefined) {
    try {
      p = parseStatements(text());
    } catch (e) {
      if (!(e instanceof SubsetError)) throw e;
      p = null;
    }
    parsed.set(key, p);
  }
  return p;
}

const srcNames = (n: number): Ex[] => Array.from({ length: n }, (_, k) => ({ u: `S${k}u`, f: `S${k}f`, h: `S${k}h` }));

/**
 * What the translator reads off an op's lane text with `n` sources, once per text: which sources
 * it reads as f32 values and which it reads the high dword of, and, for an f32 op (`f32`), whether
 * its statements lower over pairs of lanes (simd.ts: no source read as bits).
 */
interface Shape {
  readonly useF: readonly boolean[];
  readonly useH: readonly boolean[];
  readonly vec: boolean;
}
const shapes = new Map<string, Shape>();
function shapeOf(text: string, body: readonly Stmt[], n: number, f32: boolean): Shape {
  const key = `${n}|${f32}|${text}`;
  let sh = shapes.get(key);
  if (sh === undefined) {
    // The source names the text reads (S<k>u, S<k>f, S<k>h as whole words), in one scan.
    const named = new Set(text.match(/\bS\d+[ufh]\b/g) ?? []);
    const uses = (suffix: string) => Array.from({ length: n }, (_, k) => named.has(`S${k}${suffix}`));
    const vec = f32 && !uses('u').some(Boolean) && vectorizable(body, ['x', 'e', ...Array.from({ length: n }, (_, k) => `S${k}f`)]);
    sh = { useF: uses('f'), useH: uses('h'), vec };
    shapes.set(key, sh);
  }
  return sh;
}

/**
 * The lane op of description `name` over the instruction's source encodings `encs0` (its literal
 * `literal`), result in VGPR `vdst`, carry-in mask `cin`, mask out `cout`; undefined when not taken.
 */
function laneOp(name: string, encs0: readonly number[], literal: number | undefined, vdst: number, cin: number | null, cout: number | null, vgprs: number, ws: number): WValu | undefined {
  const d = valuLane(name);
  if (d === undefined) return undefined;
  let encs = encs0.slice(0, d.srcs.length);
  if (d.remap === 'mk') encs = [encs0[0]!, 255, encs0[1]!];
  else if (d.remap === 'ak') encs = [encs0[0]!, encs0[1]!, 255];
  const types: string[] = [...d.srcs];
  if (d.accum) {
    types.push('f32');
    encs.push(256 + vdst);
  }
  if (encs.length < types.length || encs.some((e) => e < 0)) return undefined;
  const srcs: SrcBind[] = [];
  for (let k = 0; k < types.length; k++) {
    const s = bindSrc(encs[k]!, types[k]!, literal, vgprs, ws);
    if (s === undefined) return undefined;
    srcs.push(s);
  }
  const kind: WValu['kind'] = d.kind === 'i32' && d.fcvt === true ? 'fcvt' : d.kind;
  if (kind !== 'cmp' && (vdst < 0 || vdst + (kind === 'i64' ? 1 : 0) >= vgprs)) return undefined;
  if (d.cin === true) {
    if (cin === null || !(cin <= 107 || cin === 124 || cin === 126 || cin === 127) || (ws === 64 && (cin & 1) === 1)) return undefined;
  } else cin = null;
  if (kind === 'cmp' || d.cout === true) {
    if (cout === null || !maskOk(cout, ws)) return undefined;
  } else cout = null;
  const text = d.text(srcNames(srcs.length));
  const body = parseOnce(text, () => text);
  if (body === null) return undefined;
  const ordered = d.ordered === true;
  const sh = shapeOf(text, body, srcs.length, kind === 'f32' && !ordered);
  return { body, kind, ordered, fcmp: d.fcmp === true, srcs, useF: sh.useF, useH: sh.useH, D: Math.max(0, vdst) * ws, cin, cout, vec: sh.vec };
}

/** The op in the translator's terms, or undefined when the wasm tier does not take it. */
export function wasmOp(op: Op, ws: number, vgprs: number, heapMemory: boolean): WOp | undefined {
  if (op.cls === 'other') return wasmWait(op);
  // Only ops the fast tier bound to a generated handler (its operand checks passed).
  if (op.inline === undefined) return undefined;
  if (op.inline.global !== undefined) return heapMemory ? wasmGlobal(op) : undefined;
  if (op.inline.ds !== undefined) return wasmDs(op);
  if (op.inline.salu !== undefined) return wasmSalu(op);
  if (op.inline.smem !== undefined) return heapMemory ? wasmSmem(op) : undefined;
  if (op.cls !== 'valu') return undefined;
  const inst = op.inst;
  const enc = inst.encoding;
  if (enc === 'VOPD') return wasmVopd(op, ws, vgprs);
  if (enc !== 'VOP1' && enc !== 'VOP2' && enc !== 'VOPC' && enc !== 'VOP3' && enc !== 'VOP3SD') return undefined;
  if (inst.variant === 'dpp16' || inst.variant === 'dpp8' || inst.variant === 'sdwa' || /_(dpp|sdwa)$/.test(inst.mnemonic)) return undefined;
  const ops = valuOperands(inst);
  if (ops.dpp || ops.abs !== 0 || ops.neg !== 0 || ops.opsel !== 0 || ops.clamp || ops.omod !== 0) return undefined;
  const name = baseMnemonic(inst.mnemonic);
  // The masks as fast-valu.ts binds them: a compare's to VCC (VOPC), its SDST (VOP3) or EXEC
  // (v_cmpx_*); a carry's to VCC (VOP2) or SDST; a carry-in from VCC (VOP2) or SRC2.
  const cmp = name.startsWith('v_cmp');
  const cout = cmp ? (name.startsWith('v_cmpx_') ? 126 : enc === 'VOPC' ? 106 : ops.vdst) : enc === 'VOP2' ? 106 : ops.sdst;
  const cin = enc === 'VOP2' ? 106 : ops.src[2]!;
  return laneOp(name, ops.src, ops.literal, ops.vdst, cin ?? null, cout, vgprs, ws);
}

/** A VOPD pair whose halves are both taken (as fast-valu.ts bindVopd binds them: no carry-out). */
function wasmVopd(op: Op, ws: number, vgprs: number): WDual | undefined {
  const info = op.inst.info as VopdInfo | undefined;
  if (info === undefined) return undefined;
  const f = op.inst.fields;
  const halves: WValu[] = [];
  for (const [o, src0, vsrc1, vdst] of [[info.x, f.srcX0, f.vsrcX1, f.vdstX], [info.y, f.srcY0, f.vsrcY1, f.vdstY]] as const) {
    if (src0 === undefined || vdst === undefined) return undefined;
    const hasV1 = o.shape.includes('vsrc1');
    if (hasV1 && vsrc1 === undefined) return undefined;
    const encs = hasV1 ? [src0, 256 + vsrc1!] : [src0];
    const h = laneOp(o.mnemonic.replace(/^v_dual_/, 'v_'), encs, op.inst.literal, vdst, 106, null, vgprs, ws);
    if (h === undefined || (h.kind !== 'i32' && h.kind !== 'f32') || h.cout !== null) return undefined;
    halves.push(h);
  }
  return { dual: [halves[0]!, halves[1]!], vec: false };
}

/**
 * An integer op's identity for the integer SIMD lowering: its statements (one parsed body per
 * text), which sources are VGPRs and whether it reads a carry-in (what decides how it lowers).
 */
const bodyIds = new WeakMap<readonly Stmt[], number>();
function vecKey(op: WValu): string {
  let id = bodyIds.get(op.body);
  if (id === undefined) bodyIds.set(op.body, (id = nextBodyId++));
  return `${id}:${op.srcs.map((s) => (s.vgpr ? 'v' : 's')).join('')}${op.cin !== null ? 'c' : ''}`;
}
let nextBodyId = 0;
/** vecKey lists whose ops the integer SIMD lowering did not take (not tried again). */
const noIntVec = new Set<string>();

/** A group of fusable run ops (translateRun lowerGroup): per op, the group op whose mask is its carry-in (-1: none). */
interface Group {
  readonly ops: readonly WValu[];
  readonly cinFrom: readonly number[];
}

/** Whether a run's code differs with translateRun's `hot`: integer VALU ops, GLOBAL or DS accesses. */
export function hasHotCode(run: readonly WOp[]): boolean {
  return run.some((x) => fusable(x) || 'global' in x || 'ds' in x);
}

/** An integer VALU op: it never hands back (no MODE test, no NaN rule). */
const intOp = (x: WValu): boolean => x.kind === 'i32' || x.kind === 'i64' || (x.kind === 'cmp' && !x.fcmp);
const fusable = (x: WOp): x is WValu => 'useF' in x && intOp(x);

/**
 * The groups of two or more consecutive fusable ops of a run, by first index: a group ends before
 * an op that reads, as a uniform value, an SGPR an earlier op of it writes as a mask (the masks are
 * stored after the loop), or whose carry-in is part of such a mask; and after an op writing EXEC
 * (every op reads EXEC before the loop).
 */
function groupsOf(run: readonly WOp[], ws: number): Map<number, Group> {
  const out = new Map<number, Group>();
  for (let i = 0; i < run.length;) {
    const ops: WValu[] = [];
    const cinFrom: number[] = [];
    const writer = new Map<number, number>();
    for (let j = i; j < run.length; j++) {
      const x = run[j]!;
      if (!fusable(x)) break;
      const reads = x.srcs.flatMap((s) => (s.vgpr || 'lit' in s ? [] : s.hiAt >= 0 ? [s.at >> 2, s.hiAt >> 2] : [s.at >> 2]));
      if (reads.some((r) => writer.has(r))) break;
      let from = -1;
      if (x.cin !== null && x.cin !== 124) {
        const w = writer.get(x.cin);
        if (w === undefined ? ws === 64 && writer.has(x.cin + 1) : ops[w]!.cout !== x.cin) break;
        from = w ?? -1;
      }
      ops.push(x);
      cinFrom.push(from);
      if (x.cout !== null && x.cout !== 124) {
        writer.set(x.cout, ops.length - 1);
        if (ws === 64) writer.set(x.cout + 1, ops.length - 1);
        if (x.cout === 126 || x.cout === 127) break;
      }
    }
    if (ops.length >= 2) out.set(i, { ops, cinFrom });
    i += Math.max(1, ops.length);
  }
  return out;
}

/**
 * The wasm module (bytes) of a run: export `run(regOff: i32, table: i32, start: i32, limit: i32,
 * lds: i32, ldsSize: i32) -> i32`, over the heap (heap.ts): it runs the run's ops [start, limit);
 * `table` is the wave's Memory's segment table (0: none), for GLOBAL accesses, `lds` its LDS's
 * offset in the heap (-1: not there), for DS accesses. `hot`: a run called many times (tier.ts
 * hotRun), with integer ops four lanes at a time (simd-int.ts) and memory lanes tested four at a
 * time (global.ts testRows); else lane by lane: less to translate, and code Liftoff runs faster.
 */
export function translateRun(run: readonly WOp[], ws: 32 | 64, hot = true): Uint8Array {
  const fb = new FuncBuilder(6);
  const R = 0; // param: the register block's byte offset
  const T = 1; // param: the segment table
  const S = 2, L = 3; // params: run ops [S, L) (a block enters and cuts a run anywhere)
  const D = 4, DL = 5; // params: the LDS's heap offset (-1: not in the heap) and size
  const l = fb.local(I32), la = fb.local(I32), el = fb.local(I32), eh = fb.local(I32), lanes = fb.local(I32);
  const coLo = fb.local(I32), coHi = fb.local(I32);
  // The integer SIMD rows' constants (intRow sets them): zero, and each lane's EXEC bit.
  const vk = { zero: fb.local(V128), bits: fb.local(V128) };
  // The EXEC lanes still to run in a lane loop (el | eh << 32).
  const m = fb.local(I64);
  const ld = (off: number) => fb.get(R).mem(OP.i32_load, 2, off);
  // A loop body's run ending in its back branch (branch.ts): the trips taken so far in this call.
  const back = run.length > 0 && 'back' in run[run.length - 1]! ? run[run.length - 1] as WBack : undefined;
  const trips = fb.local(I32);
  /** With the value on the stack (the op reached in the current trip): the result, `done | trips << 8 | lanes << 16`. */
  const pack = () => {
    if (back !== undefined) fb.get(trips).i32(8).op(OP.i32_shl, OP.i32_or);
    fb.get(lanes).i32(16).op(OP.i32_shl, OP.i32_or);
  };
  /** Return: `done` ops completed. */
  const ret = (done: number) => {
    fb.i32(done);
    pack();
    fb.op(OP.return);
  };
  /** Leaves whether EXEC is all ones (i32). */
  const full = () => {
    fb.get(el).i32(-1).op(OP.i32_eq);
    if (ws === 64) fb.get(eh).i32(-1).op(OP.i32_eq, OP.i32_and);
  };
  const loopOver = (body: () => void) => {
    // EXEC's set bits, lowest first (a lane's l and la from the next one's ctz): a partial EXEC
    // (a reduction's one-lane tail, a guarded edge) costs its active lanes, not the row.
    fb.get(el).op(OP.i64_extend_i32_u);
    if (ws === 64) fb.get(eh).op(OP.i64_extend_i32_u).i64(32).op(OP.i64_shl, OP.i64_or);
    fb.set(m);
    fb.op(OP.block, 0x40).op(OP.loop, 0x40);
    fb.get(m).op(OP.i64_eqz).br(OP.br_if, 1);
    fb.get(m).op(OP.i64_ctz, OP.i32_wrap_i64).tee(l).i32(2).op(OP.i32_shl).get(R).op(OP.i32_add).set(la);
    body();
    fb.get(m).get(m).i64(1).op(OP.i64_sub, OP.i64_and).set(m).br(OP.br, 0);
    fb.op(OP.end, OP.end);
  };
  /**
   * Loop over active lanes: body() runs with l and la (R + 4 l) set; with `fullRow`, that instead
   * when EXEC is all ones. (One copy of the body: a second, unmasked one for a full EXEC doubled
   * an integer op's wasm, and V8's compiles grow with it.)
   */
  const laneLoop = (body: () => void, fullRow?: () => void) => {
    if (fullRow === undefined) {
      loopOver(body);
      return;
    }
    full();
    fb.op(OP.if, 0x40);
    fullRow();
    fb.op(OP.else);
    loopOver(body);
    fb.op(OP.end);
  };
  /** Scratch row `k` (0, 1: a VOPD pair's halves) of this thread: one result dword per lane. */
  const row = (k: number) => scratchRow() + k * 256;
  /** Op i's f32 row over pairs of lanes into the scratch row; hands the op back if a lane must. */
  const simdRow = (op: WValu, i: number) => {
    simdStats.ops++;
    const x = fb.local(V128), e = fb.local(V128), bad = fb.local(V128);
    const names = new Map<string, number>([['x', x], ['e', e]]);
    const loads: (() => void)[] = [];
    op.srcs.forEach((s, k) => {
      if (!op.useF[k]) return;
      const v = fb.local(V128);
      names.set(`S${k}f`, v);
      if (s.vgpr) loads.push(() => void fb.get(la).simdMem(SIMD.v128_load64_zero, 3, REG.V + s.base * 4).simd(SIMD.f64x2_promote_low_f32x4).set(v));
      else {
        if ('lit' in s) fb.i32(s.lit);
        else ld(s.at);
        fb.op(OP.f32_reinterpret_i32, OP.f64_promote_f32).simd(SIMD.f64x2_splat).set(v);
      }
    });
    fb.v128f64(0).set(bad);
    fb.i32(0).set(l).get(R).set(la);
    fb.op(OP.loop, 0x40);
    for (const g of loads) g();
    fb.v128f64(0).set(x).v128f64(0).set(e);
    new VecLowerer(fb, names).stmts(op.body);
    // As the scalar loop: a NaN, or a possible tie (e != 0, x finite, its low 28 bits zero).
    fb.get(x).get(x).simd(SIMD.f64x2_ne).get(bad).simd(SIMD.v128_or).set(bad);
    fb.get(e).v128f64(0).simd(SIMD.f64x2_ne);
    fb.get(x).get(x).simd(SIMD.f64x2_sub).v128f64(0).simd(SIMD.f64x2_eq).simd(SIMD.v128_and);
    fb.get(x).v128i64(0x0fffffff).simd(SIMD.v128_and).v128i64(0).simd(SIMD.i64x2_eq).simd(SIMD.v128_and);
    fb.get(bad).simd(SIMD.v128_or).set(bad);
    fb.get(l).i32(2).op(OP.i32_shl).get(x).simd(SIMD.f32x4_demote_f64x2_zero).simdMem(SIMD.v128_store64_lane, 3, row(0), 0);
    fb.get(la).i32(8).op(OP.i32_add).set(la);
    fb.get(l).i32(2).op(OP.i32_add).tee(l).i32(ws).op(OP.i32_lt_u).br(OP.br_if, 0);
    fb.op(OP.end);
    fb.get(bad).simd(SIMD.v128_any_true).op(OP.if, 0x40);
    ret(i);
    fb.op(OP.end);
  };
  /**
   * Lane code of op `op` (run op i): its uniform sources and carry-in are read now (before the lane
   * loop); `lane()` reads the lane's VGPR sources and runs the statements, handing the op back for
   * a lane that must (f32: a NaN, a possible tie; an ordered op's NaN source); `result()` leaves
   * the lane's result dword (i32), `high()` a 64-bit result's high dword; `bit` holds the lane's
   * carry-out or compare bit.
   */
  const laneCode = (op: WValu, i: number, ciFrom?: { readonly lo: number; readonly hi: number }) => {
    const vr = fb.local(I64), vrh = fb.local(I64), vc = fb.local(I32), vx = fb.local(F64), ve = fb.local(F64);
    const ci = fb.local(I32);
    const ciLo = ciFrom?.lo ?? fb.local(I32), ciHi = ciFrom?.hi ?? fb.local(I32);
    if (op.cin !== null && ciFrom === undefined) {
      if (op.cin === 124) fb.i32(0).set(ciLo).i32(0).set(ciHi);
      else {
        ld(op.cin * 4).set(ciLo);
        if (ws === 64) ld((op.cin + 1) * 4).set(ciHi);
        else fb.i32(0).set(ciHi);
      }
    }
    // Names the lane statements see: sources, the result variables and the carry-in.
    const names = new Map<string, Var>([['r', { local: vr, kind: 'l' }], ['rh', { local: vrh, kind: 'l' }], ['c', { local: vc, kind: 'b' }], ['x', { local: vx, kind: 'f' }], ['e', { local: ve, kind: 'f' }], ['ci', { local: ci, kind: 'u' }]]);
    const laneLoads: (() => void)[] = [];
    // For `vec`: each source's locals (a VGPR source's rows are loaded per four lanes; others are uniform).
    const vsrc: { readonly k: number; readonly u: number; readonly h: number; readonly vgpr: boolean; readonly base: number }[] = [];
    op.srcs.forEach((s, k) => {
      const u = fb.local(I32);
      names.set(`S${k}u`, { local: u, kind: 'u' });
      let f = -1, h = -1;
      if (op.useF[k]) {
        f = fb.local(F64);
        names.set(`S${k}f`, { local: f, kind: 'f' });
      }
      if (op.useH[k]) {
        h = fb.local(I32);
        names.set(`S${k}h`, { local: h, kind: 'u' });
      }
      const toF = () => {
        if (f >= 0) fb.get(u).op(OP.f32_reinterpret_i32, OP.f64_promote_f32).set(f);
      };
      vsrc.push({ k, u, h, vgpr: s.vgpr, base: s.vgpr ? s.base : 0 });
      if (s.vgpr) {
        laneLoads.push(() => {
          fb.get(la).mem(OP.i32_load, 2, REG.V + s.base * 4).set(u);
          if (h >= 0) fb.get(la).mem(OP.i32_load, 2, REG.V + (s.base + ws) * 4).set(h);
          toF();
        });
      } else {
        if ('lit' in s) {
          fb.i32(s.lit).set(u);
          if (h >= 0) fb.i32(0).set(h);
        } else {
          ld(s.at).set(u);
          if (h >= 0) {
            if (s.hiAt < 0) fb.i32(0).set(h);
            else ld(s.hiAt).set(h);
          }
        }
        toF();
      }
    });
    const lane = () => {
      for (const g of laneLoads) g();
      if (op.cin !== null) fb.get(ciLo).get(ciHi).get(l).i32(32).op(OP.i32_lt_u, OP.select).get(l).op(OP.i32_shr_u).i32(1).op(OP.i32_and).set(ci);
      if (op.ordered) {
        // A NaN source: the reference's NaN rule (hand back).
        op.srcs.forEach((_, k) => {
          const v = names.get(`S${k}f`);
          if (v === undefined) return;
          fb.get(v.local).get(v.local).op(OP.f64_ne, OP.if, 0x40);
          ret(i);
          fb.op(OP.end);
        });
      }
      if (op.kind === 'f32') fb.f64(0).set(vx).f64(0).set(ve);
      else fb.i64(0).set(vr).i64(0).set(vrh).i32(0).set(vc);
      new Lowerer(fb, names).stmts(op.body);
      if (op.kind !== 'f32') return;
      // f32: NaN -> hand back; a possible tie with a remainder -> hand back.
      fb.get(vx).get(vx).op(OP.f64_ne, OP.if, 0x40);
      ret(i);
      fb.op(OP.end);
      if (!op.ordered) {
        fb.get(ve).f64(0).op(OP.f64_ne);
        fb.get(vx).get(vx).op(OP.f64_sub).f64(0).op(OP.f64_eq, OP.i32_and);
        fb.get(vx).op(OP.i64_reinterpret_f64).i64(0x0fffffff).op(OP.i64_and, OP.i64_eqz, OP.i32_and, OP.if, 0x40);
        ret(i);
        fb.op(OP.end);
      }
    };
    const result = () => {
      if (op.kind === 'f32') fb.get(vx).op(OP.f32_demote_f64, OP.i32_reinterpret_f32);
      else fb.get(vr).op(OP.i32_wrap_i64);
    };
    const high = () => fb.get(vrh).op(OP.i32_wrap_i64);
    /**
     * Four lanes (l, la at the first) of an integer op as vectors (simd-int.ts): its statements over
     * the lanes' sources, the result rows stored, the carry-out or compare bits into `co`. Throws
     * SubsetError when the statements are not in the integer SIMD subset.
     */
    const vec = (fb: FuncBuilder, pre: FuncBuilder, co: { readonly lo: number; readonly hi: number }, em: number, ex: number, all: boolean) => {
      if (op.kind === 'f32' || op.kind === 'fcvt' || op.useF.some(Boolean)) throw new SubsetError('not an integer op');
      const vn = new Map<string, VName>();
      for (const x of vsrc) {
        if (!x.vgpr) {
          vn.set(`S${x.k}u`, { vec: false, v: { local: x.u, kind: 'u' }, integral: true });
          if (x.h >= 0) vn.set(`S${x.k}h`, { vec: false, v: { local: x.h, kind: 'u' }, integral: true });
          continue;
        }
        const v = fb.local(V128);
        fb.get(la).simdMem(SIMD.v128_load, 4, REG.V + x.base * 4).set(v);
        vn.set(`S${x.k}u`, { vec: true, kind: 'u', lo: v, hi: -1, sk: 'u' });
        if (x.h >= 0) {
          const vh = fb.local(V128);
          fb.get(la).simdMem(SIMD.v128_load, 4, REG.V + (x.base + ws) * 4).set(vh);
          vn.set(`S${x.k}h`, { vec: true, kind: 'u', lo: vh, hi: -1, sk: 'u' });
        }
      }
      if (op.cin !== null) {
        // The four lanes' carry-in bits as 0 or 1.
        const v = fb.local(V128);
        fb.get(ciLo);
        if (ws === 64) fb.get(ciHi).get(l).i32(32).op(OP.i32_lt_u, OP.select);
        fb.get(l).op(OP.i32_shr_u).simd(SIMD.i32x4_splat);
        fb.get(vk.bits).simd(SIMD.v128_and).get(vk.zero).simd(SIMD.i32x4_ne).simd(SIMD.i32x4_neg).set(v);
        vn.set('ci', { vec: true, kind: 'u', lo: v, hi: -1, sk: 'u' });
      }
      // r and rh (lower.ts: exact integers) as pairs where the statements read them back, else
      // only the dword stored.
      const result = (n: string) => {
        const lo = fb.local(V128);
        fb.get(vk.zero).set(lo);
        if (!readsName(op.body, n)) {
          vn.set(n, { vec: true, kind: 's', lo, hi: -1, sk: 'l' });
          return lo;
        }
        const hi = fb.local(V128);
        fb.get(vk.zero).set(hi);
        vn.set(n, { vec: true, kind: 'l', lo, hi, sk: 'l' });
        return lo;
      };
      const r = { lo: result('r') }, rh = { lo: op.kind === 'i64' ? result('rh') : -1 };
      const c = fb.local(V128);
      fb.get(vk.zero).set(c);
      vn.set('c', { vec: true, kind: 'm', lo: c, hi: -1, sk: 'b' });
      new IntVecLowerer(fb, pre, vn, vk.zero).stmts(op.body);
      // The active lanes' results (em: their mask), the others' rows as they were; all four (`all`: EXEC all ones).
      const store = (v: number, off: number) => {
        if (all) fb.get(la).get(v).simdMem(SIMD.v128_store, 4, off);
        else fb.get(la).get(v).get(la).simdMem(SIMD.v128_load, 4, off).get(em).simd(SIMD.v128_bitselect).simdMem(SIMD.v128_store, 4, off);
      };
      if (op.kind !== 'cmp') {
        store(r.lo, REG.V + op.D * 4);
        if (op.kind === 'i64') store(rh.lo, REG.V + (op.D + ws) * 4);
      }
      if (op.cout !== null) {
        // The active lanes' bits (ex: the four EXEC bits); an inactive lane's bit stays 0.
        const vtmp = fb.local(I32);
        fb.get(c).simd(SIMD.i32x4_bitmask);
        if (!all) fb.get(ex).op(OP.i32_and);
        fb.get(l).op(OP.i32_shl).set(vtmp);
        if (ws === 32) fb.get(co.lo).get(vtmp).op(OP.i32_or).set(co.lo);
        else {
          fb.get(l).i32(32).op(OP.i32_lt_u, OP.if, 0x40);
          fb.get(co.lo).get(vtmp).op(OP.i32_or).set(co.lo);
          fb.op(OP.else);
          fb.get(co.hi).get(vtmp).op(OP.i32_or).set(co.hi);
          fb.op(OP.end);
        }
      }
    };
    return { lane, result, high, bit: vc, vec };
  };
  /**
   * Integer ops four lanes at a time: `chunk(em, ex, all)` with l and la at lanes 0, 4, ... for
   * every group of four lanes with an active lane (ex: their four EXEC bits, em: as a lane mask).
   * The statements run for all four (pure integer arithmetic: nothing traps or hands back); only the
   * active lanes' results are kept. With EXEC all ones a second copy (`all`) stores every lane's
   * result and bit unmasked (no EXEC bits to find, no rows to merge: that work was about as much
   * as a 64-bit add's arithmetic).
   */
  const intRow = (chunk: (body: FuncBuilder, pre: FuncBuilder, em: number, ex: number, all: boolean) => void) => {
    const ex = fb.local(I32), em = fb.local(V128);
    // The loops' code (body), and what the statements compute once before them (pre: uniform values).
    const pre = fb.child(), body = fb.child();
    pre.v128i32([0, 0, 0, 0]).set(vk.zero).v128i32([1, 2, 4, 8]).set(vk.bits);
    const loop = (inner: () => void) => {
      body.i32(0).set(l).get(R).set(la);
      body.op(OP.loop, 0x40);
      inner();
      body.get(la).i32(16).op(OP.i32_add).set(la);
      body.get(l).i32(4).op(OP.i32_add).tee(l).i32(ws).op(OP.i32_lt_u).br(OP.br_if, 0);
      body.op(OP.end);
    };
    body.get(el).i32(-1).op(OP.i32_eq);
    if (ws === 64) body.get(eh).i32(-1).op(OP.i32_eq, OP.i32_and);
    body.op(OP.if, 0x40);
    loop(() => chunk(body, pre, em, ex, true));
    body.op(OP.else);
    loop(() => {
      body.op(OP.block, 0x40);
      body.get(el);
      if (ws === 64) body.get(eh).get(l).i32(32).op(OP.i32_lt_u, OP.select);
      body.get(l).op(OP.i32_shr_u).i32(15).op(OP.i32_and).tee(ex).op(OP.i32_eqz).br(OP.br_if, 0);
      body.get(ex).simd(SIMD.i32x4_splat).get(vk.bits).simd(SIMD.v128_and).get(vk.zero).simd(SIMD.i32x4_ne).set(em);
      chunk(body, pre, em, ex, false);
      body.op(OP.end);
    });
    body.op(OP.end);
    fb.append(pre).append(body);
  };
  /**
   * The lanes of integer ops `ops` (one op, or a fused group): in a hot run's translation, four at a
   * time (intRow: `chunk`) when at least half are active and the ops' statements are in the integer
   * SIMD subset (simd-int.ts); else `body` per active lane.
   */
  const intLaneLoop = (ops: readonly WValu[], body: () => void, chunk: (body: FuncBuilder, pre: FuncBuilder, em: number, ex: number, all: boolean) => void, counted = true) => {
    const key = ops.map(vecKey).join(';');
    if (hot && !noIntVec.has(key)) {
      const m = fb.mark();
      try {
        // At least half the lanes active: four at a time; fewer (a reduction's later steps, an
        // edge): the active lanes one by one (warm reduce_tree ran ~20% slower with every EXEC
        // four at a time).
        fb.get(el).op(OP.i32_popcnt).get(eh).op(OP.i32_popcnt, OP.i32_add).i32(ws / 2).op(OP.i32_ge_u, OP.if, 0x40);
        intRow(chunk);
        fb.op(OP.else);
        loopOver(body);
        fb.op(OP.end);
        if (counted) intVecStats.ops += ops.length;
        return;
      } catch (e) {
        if (!(e instanceof SubsetError)) throw e;
        fb.rewind(m);
        noIntVec.add(key);
      }
    }
    loopOver(body);
  };
  /** The MODE test of a float op: f32 round-to-nearest-even with denormals kept, a compare's input denormals kept (fast-valu.ts); else hand back. */
  const modeTest = (op: WValu, i: number) => {
    if (op.fcmp) ld(REG.MODE).i32(0x10).op(OP.i32_and, OP.i32_eqz);
    else if (op.kind === 'f32' || op.kind === 'fcvt') ld(REG.MODE).i32(0x33).op(OP.i32_and).i32(0x30).op(OP.i32_ne);
    else return;
    fb.op(OP.if, 0x40);
    ret(i);
    fb.op(OP.end);
  };
  const readExec = () => {
    ld(126 * 4).set(el);
    if (ws === 64) ld(127 * 4).set(eh);
    else fb.i32(0).set(eh);
  };
  /** Copy scratch rows to their VGPR rows (the whole row when EXEC is all ones). */
  const writeBack = (rows: readonly (readonly [number, number])[]) => {
    full();
    fb.op(OP.if, 0x40);
    for (const [k, d] of rows) fb.get(R).i32(REG.V + d * 4).op(OP.i32_add).i32(row(k)).i32(ws * 4).memoryCopy();
    fb.op(OP.else);
    loopOver(() => {
      for (const [k, d] of rows) fb.get(la).get(l).i32(2).op(OP.i32_shl).mem(OP.i32_load, 2, row(k)).mem(OP.i32_store, 2, REG.V + d * 4);
    });
    fb.op(OP.end);
  };
  const frame: RunFrame = { fb, R, T, D, DL, l, la, el, eh, lanes, V: REG.V, ws, ret, laneLoop: (body) => loopOver(body), full, hot };
  const countLanes = (times = 1) => {
    fb.get(el).op(OP.i32_popcnt).get(eh).op(OP.i32_popcnt, OP.i32_add);
    if (times > 1) fb.i32(times).op(OP.i32_mul);
    fb.get(lanes).op(OP.i32_add).set(lanes);
  };
  /** Store an integer op's lane result (a compare's is only its bit) and set its bit in the mask locals. */
  const storeLane = (op: WValu, lc: ReturnType<typeof laneCode>, co: { readonly lo: number; readonly hi: number }) => {
    if (op.kind !== 'cmp') {
      fb.get(la);
      lc.result();
      fb.mem(OP.i32_store, 2, REG.V + op.D * 4);
      if (op.kind === 'i64') {
        fb.get(la);
        lc.high();
        fb.mem(OP.i32_store, 2, REG.V + (op.D + ws) * 4);
      }
    }
    if (op.cout !== null) {
      fb.get(lc.bit).op(OP.if, 0x40);
      fb.get(l).i32(32).op(OP.i32_lt_u, OP.if, 0x40);
      fb.get(co.lo).i32(1).get(l).op(OP.i32_shl, OP.i32_or).set(co.lo);
      fb.op(OP.else);
      fb.get(co.hi).i32(1).get(l).op(OP.i32_shl, OP.i32_or).set(co.hi);
      fb.op(OP.end, OP.end);
    }
  };
  /** `counted`: in the SIMD statistics (not a group's op run alone: lowerGroup). */
  const lowerValu = (op: WValu, i: number, counted = true) => {
    modeTest(op, i);
    readExec();
    fb.i32(0).set(coLo).i32(0).set(coHi);
    const lc = laneCode(op, i);
    const body = () => {
      lc.lane();
      if (op.kind === 'f32') {
        fb.get(l).i32(2).op(OP.i32_shl);
        lc.result();
        fb.mem(OP.i32_store, 2, row(0));
      } else storeLane(op, lc, { lo: coLo, hi: coHi });
    };
    // An integer op four lanes at a time (simd-int.ts), whatever EXEC. EXEC all ones: an f32 op two
    // lanes at a time (simd.ts), the same statements and hand-back rules; a lane that hands back
    // stops the op after the row (only the scratch row written yet).
    if (intOp(op)) intLaneLoop([op], body, (b, pre, em, ex, all) => lc.vec(b, pre, { lo: coLo, hi: coHi }, em, ex, all), counted);
    else laneLoop(body, op.vec ? () => simdRow(op, i) : undefined);
    // f32: every lane passed; the results go to the destination row.
    if (op.kind === 'f32') writeBack([[0, op.D]]);
    if (op.cout !== null && op.cout !== 124) {
      fb.get(R).get(coLo).mem(OP.i32_store, 2, op.cout * 4);
      if (ws === 64) fb.get(R).get(coHi).mem(OP.i32_store, 2, (op.cout + 1) * 4);
    }
    countLanes();
  };
  /**
   * A group of integer VALU ops (fusable) in one lane loop: each lane runs every op in order, so an
   * op reading a VGPR an earlier one wrote sees that lane's new value, as op-by-op execution gives
   * (no op reads another lane); a carry-in from a mask an earlier op of the group writes is that
   * op's bit for the lane, accumulated so far. Masks are stored after the loop in op order. None
   * hands back. Entered at its first op and run to its end, else (a cut or resumed turn) handed
   * back from where the block entered it, the handlers running the rest of the run; in a hot run
   * its ops from there to the limit run one by one instead, and the run goes on after the group
   * (a loop body resumed inside a group, matmul_naive: ~90 K times a dispatch, gave every op
   * after it to the handlers).
   */
  const lowerGroup = (g: Group, i: number) => {
    const n = g.ops.length;
    groupStats.groups++;
    groupStats.ops += n;
    fb.get(S).i32(i).op(OP.i32_gt_u).get(L).i32(i + n).op(OP.i32_lt_u, OP.i32_or, OP.if, 0x40);
    if (hot) {
      g.ops.forEach((op, j) => {
        // The limit before op i + j: done; entered after it: skipped.
        fb.get(L).i32(i + j).op(OP.i32_le_u, OP.if, 0x40);
        ret(i + j);
        fb.op(OP.end);
        fb.op(OP.block, 0x40);
        fb.get(S).i32(i + j).op(OP.i32_gt_u).br(OP.br_if, 0);
        lowerValu(op, i + j, false);
        fb.op(OP.end);
      });
      fb.op(OP.else);
    } else {
      fb.get(S).i32(i).get(S).i32(i).op(OP.i32_gt_u, OP.select);
      pack();
      fb.op(OP.return);
      fb.op(OP.end);
    }
    readExec();
    const cos = g.ops.map(() => ({ lo: fb.local(I32), hi: fb.local(I32) }));
    for (const c of cos) fb.i32(0).set(c.lo).i32(0).set(c.hi);
    const lcs = g.ops.map((op, j) => laneCode(op, i + j, g.cinFrom[j]! >= 0 ? cos[g.cinFrom[j]!] : undefined));
    intLaneLoop(g.ops, () => {
      g.ops.forEach((op, j) => {
        lcs[j]!.lane();
        storeLane(op, lcs[j]!, cos[j]!);
      });
    }, (b, pre, em, ex, all) => g.ops.forEach((_, j) => lcs[j]!.vec(b, pre, cos[j]!, em, ex, all)));
    g.ops.forEach((op, j) => {
      if (op.cout === null || op.cout === 124) return;
      fb.get(R).get(cos[j]!.lo).mem(OP.i32_store, 2, op.cout * 4);
      if (ws === 64) fb.get(R).get(cos[j]!.hi).mem(OP.i32_store, 2, (op.cout + 1) * 4);
    });
    countLanes(n);
    if (hot) fb.op(OP.end);
  };
  // VOPD: each half's result to its scratch row, lane by lane (every source read before any
  // write), then both rows to their destinations; the lanes counted twice, as the reference does.
  const lowerDual = (op: WDual, i: number) => {
    const [X, Y] = op.dual;
    if (X.kind === 'f32') modeTest(X, i);
    else modeTest(Y, i);
    readExec();
    const lx = laneCode(X, i), ly = laneCode(Y, i);
    loopOver(() => {
      lx.lane();
      ly.lane();
      for (const [k, lc] of [[0, lx], [1, ly]] as const) {
        fb.get(l).i32(2).op(OP.i32_shl);
        lc.result();
        fb.mem(OP.i32_store, 2, row(k));
      }
    });
    writeBack([[0, X.D], [1, Y.D]]);
    countLanes(2);
  };
  const lower = (op: Exclude<WOp, WWait | WBack>, i: number) => {
    if ('salu' in op) lowerSalu(fb, R, op, sccSlot());
    else if ('smem' in op) lowerSmem(frame, op.smem, i);
    else if ('global' in op) {
      lowerGlobal(frame, op.global, i);
      countLanes();
    } else if ('ds' in op) {
      lowerDs(frame, op.ds, i);
      countLanes();
    } else if ('dual' in op) lowerDual(op, i);
    else lowerValu(op, i);
  };
  const groups = groupsOf(run, ws);
  const ops = back !== undefined ? run.length - 1 : run.length;
  // A loop body: one trip per iteration of a wasm loop (the ops' S and L tests see the trip's own
  // start and limit: both move back by the body's length each trip).
  if (back !== undefined) fb.i32(0).set(trips).op(OP.loop, 0x40);
  for (let i = 0; i < ops;) {
    const op = run[i]!;
    if ('wait' in op) {
      i++;
      continue;
    }
    const g = groups.get(i);
    const n = g?.ops.length ?? 1;
    // Past the limit: done; after the start: skipped.
    fb.get(L).i32(i).op(OP.i32_le_u, OP.if, 0x40);
    fb.get(L);
    pack();
    fb.op(OP.return, OP.end);
    fb.op(OP.block, 0x40);
    fb.get(S).i32(i + n - 1).op(OP.i32_gt_u).br(OP.br_if, 0);
    // The op's locals are the next op's to use again (FuncBuilder.scope).
    const sc = fb.scope();
    if (g !== undefined) lowerGroup(g, i);
    else lower(op as Exclude<WOp, WWait | WBack>, i);
    fb.close(sc);
    fb.op(OP.end);
    i += n;
  }
  if (back !== undefined) {
    const nb = run.length, last = nb - 1;
    // The most lane-ops a trip counts: a trip starts only while the result's 15 bits hold them.
    const perTrip = run.reduce((t, x) => t + ('dual' in x ? 2 : 'useF' in x || 'global' in x || 'ds' in x ? 1 : 0), 0) * ws;
    fb.get(L).i32(last).op(OP.i32_le_u, OP.if, 0x40);
    fb.get(L);
    pack();
    fb.op(OP.return, OP.end);
    // Not taken: the body is done, the wave goes on after it.
    lowerBack(fb, R, back, sccSlot());
    fb.op(OP.i32_eqz, OP.if, 0x40);
    ret(nb);
    fb.op(OP.end);
    // Taken: at the body's start again, with the limit a trip nearer.
    fb.get(trips).i32(1).op(OP.i32_add).set(trips);
    fb.i32(0).set(S);
    fb.get(L).i32(nb).op(OP.i32_sub).set(L);
    fb.get(L).i32(0).op(OP.i32_le_s).get(trips).i32(255).op(OP.i32_ge_u, OP.i32_or).get(lanes).i32(0x7fff - perTrip).op(OP.i32_gt_u, OP.i32_or, OP.if, 0x40);
    ret(0);
    fb.op(OP.end);
    fb.br(OP.br, 0).op(OP.end, OP.unreachable);
  } else {
    fb.get(L);
    pack();
  }
  return encodeModule({ memory: { module: 'm', name: 'mem', minPages: 1, ...(heap()?.shared !== false ? { shared: { maxPages: HEAP_MAX_PAGES } } : {}) }, funcs: [{ type: { params: [I32, I32, I32, I32, I32, I32], results: [I32] }, body: fb, export: 'run' }] });
}
