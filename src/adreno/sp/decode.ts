/**
 * ir3 decode-once for the shader processor (SP): each 64-bit instruction is decoded ONCE per
 * shader by isaspec's generic decoder (src/adreno/ir3/disasm.ts `Decoder`, over the generated
 * tables) into a flat field map, and from that into a plain record the executor runs. The BigInt
 * decoder runs only here, at bind time; nothing in the hot loop touches it.
 *
 * Field names are isaspec's own (SRC1, SRC1.SRC.GPR, SRC1.ABSNEG, REPEAT, SS, SY, JP...). A
 * bitset-typed field records the sub-bitset it matched (e.g. SRC1 = '#multisrc-const'), which is
 * how an operand's kind (gpr, const, immediate, relative) is known without a second table.
 */
export { f16 as f16ToF32 } from '../../core/float.js';
import { InputError } from '../../core/errors.js';
import { Decoder, type Scope } from '../ir3/disasm.js';
import type { Bitset } from '../ir3/isa.js';

/** Operand kinds. */
export const K = { NONE: 0, GPR: 1, CONST: 2, IMM: 3, RELGPR: 4, RELCONST: 5 } as const;

/** One decoded operand. `n` is the component index (reg*4+comp) for GPR/CONST, the offset for relative. */
export interface Operand {
  kind: number;
  n: number;
  half: boolean;
  neg: boolean;
  abs: boolean;
  /** (r): the register advances with each (rpt) repetition. */
  r: boolean;
  /** Immediate bits (as the op's type reads them). */
  imm: number;
}

/** Mesa's type_t numbers, as #type has them. */
export const T = { F16: 0, F32: 1, U16: 2, U32: 3, S16: 4, S32: 5, U8: 6, S8: 7 } as const;

export interface Instr {
  readonly pc: number;
  readonly lo: number;
  readonly hi: number;
  /** The leaf bitset name (isaspec's instruction name: add.f, mov-gpr, ldib.b, ...). */
  readonly name: string;
  /** ir3 category 0..7 from bits 61..63. */
  readonly cat: number;
  readonly f: Readonly<Record<string, number | string>>;
  readonly dst: Operand;
  readonly src: readonly Operand[];
  readonly rpt: number;
  readonly ss: boolean;
  readonly sy: boolean;
  readonly jp: boolean;
  readonly ul: boolean;
  readonly sat: boolean;
  /** (nopN) after the instruction (cat2/cat3 NOP field). */
  readonly nop: number;
  /** Branch target (instruction index) for cat0 branches. */
  readonly target: number;
  /** cat6 IBO / UBO slot operand (SSBO field: immediate or register), else undefined. */
  readonly ibo: Operand | undefined;
  /** Executor handler, bound after decode. */
  exec: ((w: never, i: Instr, c: never) => void) | undefined;
}

const SIGNED = new Set(['int', 'branch', 'offset']);

function chainFieldNames(b: Bitset): string[] {
  const names: string[] = [];
  for (let x: Bitset | undefined = b; x; x = x.parent) for (const c of x.cases) for (const f of c.fields) if (f.kind !== 'assert' && !names.includes(f.name)) names.push(f.name);
  return names;
}

function collect(dec: Decoder, scope: Scope, prefix: string, out: Record<string, number | string>, depth: number): void {
  if (depth > 4) return;
  for (const name of chainFieldNames(scope.bitset)) {
    const r = dec.resolveField(scope, name);
    if (!r) continue;
    const key = prefix + name;
    if (r.field.kind === 'bitset') {
      const sub = dec.findBitset(r.field.type, r.val);
      out[key] = sub ? sub.name : '?';
      if (sub) collect(dec, { parent: scope, val: r.val, bitset: sub, params: r.field.params, cache: undefined }, key + '.', out, depth + 1);
    } else {
      let v = Number(r.val & 0xffffffffn);
      if (SIGNED.has(r.field.type) && r.field.width < 64) {
        const w = r.field.width;
        v = w >= 32 ? v | 0 : (v << (32 - w)) >> (32 - w);
      }
      out[key] = v >>> 0 === v || v < 0 ? v : v >>> 0;
    }
  }
}

const num = (f: Record<string, number | string>, k: string): number => {
  const v = f[k];
  return typeof v === 'number' ? v : 0;
};

const FLUT = [0.0, 0.5, 1.0, 2.0, Math.E, Math.PI, 1 / Math.PI, 1 / Math.LOG2E, Math.LOG2E, 1 / Math.log2(10), Math.log2(10), 4.0];

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);
function f32bits(x: number): number {
  f32buf[0] = x;
  return u32buf[0]!;
}

const none = (): Operand => ({ kind: K.NONE, n: 0, half: false, neg: false, abs: false, r: false, imm: 0 });

/** Register operand from a #reg-gpr / #reg-const prefix. */
function regOp(f: Record<string, number | string>, p: string, kind: number, half: boolean): Operand {
  const o = none();
  o.kind = kind;
  o.half = half;
  o.n = (kind === K.CONST ? num(f, p + '.CONST') : num(f, p + '.GPR')) * 4 + num(f, p + '.SWIZ');
  return o;
}

/** A source operand, whatever root bitset encodes it (#multisrc, #cat3-src, #cat1-*-src, #reg-gpr, #cat6-src). */
function srcOp(f: Record<string, number | string>, p: string, halfDefault: boolean): Operand {
  const b = f[p];
  if (typeof b !== 'string') return none();
  const half = f[p + '.HALF'] !== undefined ? num(f, p + '.HALF') !== 0 : halfDefault;
  let o: Operand;
  switch (b) {
    case '#multisrc-gpr':
    case '#cat1-gpr-src':
      o = regOp(f, p + '.SRC', K.GPR, half);
      break;
    case '#cat3-src-gpr':
      o = regOp(f, p + '.SRC', K.GPR, half);
      break;
    case '#reg-gpr':
    case '#cat6-src':
    case '#cat1-multi-src':
      if (f[p + '.IMMED'] !== undefined) {
        o = none();
        o.kind = K.IMM;
        o.imm = num(f, p + '.IMMED');
      } else o = regOp(f, p, K.GPR, half);
      break;
    case '#multisrc-const':
      o = regOp(f, p + '.SRC', K.CONST, half);
      break;
    case '#cat5-src1':
    case '#cat5-src2':
    case '#cat5-src3':
      o = f[p + '.SRC.GPR'] !== undefined ? regOp(f, p + '.SRC', K.GPR, half) : none();
      break;
    case '#cat6-src-const-or-gpr': {
      // SRC_CONST comes in as the instruction's <p>_CONST param (a7xx ldg.a/stg.a encode it).
      const isConst = num(f, p + '_CONST') !== 0;
      o = none();
      o.kind = isConst ? K.CONST : K.GPR;
      o.n = num(f, p + '.GPR') * 4 + num(f, p + '.SWIZ');
      break;
    }
    case '#cat1-const-src':
      o = regOp(f, p + '.CONST', K.CONST, half);
      break;
    case '#cat3-src-const-or-immed':
      if (f[p + '.IMMED'] !== undefined) {
        o = none();
        o.kind = K.IMM;
        o.imm = num(f, p + '.IMMED');
      } else o = regOp(f, p, K.CONST, half);
      break;
    case '#mulitsrc-immed':
    case '#cat1-immed-src':
      o = none();
      o.kind = K.IMM;
      o.imm = num(f, p + '.IMMED');
      break;
    case '#multisrc-immed-flut-full':
    case '#multisrc-immed-flut-half': {
      o = none();
      o.kind = K.IMM;
      const x = FLUT[num(f, p + '.IMMED')] ?? 0;
      o.imm = b.endsWith('half') ? f32ToF16(x) : f32bits(x);
      break;
    }
    case '#multisrc-relative-gpr':
    case '#cat1-relative-gpr-src':
      o = none();
      o.kind = K.RELGPR;
      o.n = num(f, p + '.SRC.OFFSET');
      break;
    case '#cat3-src-relative-gpr':
      o = none();
      o.kind = K.RELGPR;
      o.n = num(f, p + '.OFFSET');
      break;
    case '#multisrc-relative-const':
    case '#cat1-relative-const-src':
      o = none();
      o.kind = K.RELCONST;
      o.n = num(f, p + '.SRC.OFFSET');
      break;
    case '#cat3-src-relative-const':
      o = none();
      o.kind = K.RELCONST;
      o.n = num(f, p + '.OFFSET');
      break;
    default:
      throw new InputError(`ir3: operand encoding ${b} (${p}) is not executable`);
  }
  o.half = half;
  const an = num(f, p + '.ABSNEG');
  o.neg = (an & 1) !== 0;
  o.abs = (an & 2) !== 0;
  return o;
}

/** IEEE f32 value -> f16 bits, round to nearest even (also used for every f16 result). */
export function f32ToF16(x: number): number {
  f32buf[0] = x;
  const b = u32buf[0]!;
  const s = (b >>> 16) & 0x8000;
  const e = (b >>> 23) & 0xff;
  let m = b & 0x7fffff;
  if (e === 0xff) return s | 0x7c00 | (m ? 0x200 : 0);
  let ue = e - 127 + 15;
  if (ue >= 31) return s | 0x7c00;
  if (ue <= 0) {
    if (ue < -10) return s;
    m |= 0x800000;
    const shift = 14 - ue;
    let h = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h++;
    return s | h;
  }
  let h = (ue << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  ue = 0;
  return s | h;
}

/** Decode a whole shader once. Throws InputError naming the PC and dwords for unknown words. */
export function decodeShader(words: Uint32Array, gpuId: number): Instr[] {
  const n = words.length >>> 1;
  const dec = new Decoder(gpuId, n, false, false, undefined);
  const out: Instr[] = [];
  for (let pc = 0; pc < n; pc++) {
    const lo = words[pc * 2]! >>> 0;
    const hi = words[pc * 2 + 1]! >>> 0;
    dec.n = pc;
    const val = (BigInt(hi) << 32n) | BigInt(lo);
    const b = dec.findBitset('#instruction', val);
    if (!b) {
      // Padding or data after `end` is fine until something executes it (step() raises).
      out.push(build(pc, lo, hi, 'raw', {}));
      continue;
    }
    const f: Record<string, number | string> = {};
    collect(dec, { parent: undefined, val, bitset: b, params: undefined, cache: undefined }, '', f, 0);
    out.push(build(pc, lo, hi, b.name, f));
  }
  return out;
}

function build(pc: number, lo: number, hi: number, name: string, f: Record<string, number | string>): Instr {
  const cat = hi >>> 29;
  const src: Operand[] = [];
  let dst = none();
  const full = f['FULL'] !== undefined ? num(f, 'FULL') !== 0 : true;
  const halfSrc = !full;
  if (cat === 1) {
    // movmsk and friends have no types: 32-bit.
    const st = f['SRC_TYPE'] === undefined ? T.U32 : num(f, 'SRC_TYPE');
    const dt = f['DST_TYPE'] === undefined ? T.U32 : num(f, 'DST_TYPE');
    const sh = f['HALF'] !== undefined ? num(f, 'HALF') !== 0 : st === T.F16 || st === T.U16 || st === T.S16 || st === T.U8 || st === T.S8;
    const dh = f['DST_HALF'] !== undefined ? num(f, 'DST_HALF') !== 0 : dt === T.F16 || dt === T.U16 || dt === T.S16 || dt === T.U8 || dt === T.S8;
    if (f['SRC'] !== undefined) src.push(srcOp(f, 'SRC', sh));
    if (f['SRC0'] !== undefined) src.push(srcOp(f, 'SRC0', sh));
    const dp = f['DST'] !== undefined ? 'DST' : 'DST0';
    if (f[dp] === '#cat1-dst' || f[dp] === '#cat1-multi-dst') {
      if (f[dp + '.DST'] !== undefined) dst = regOp(f, dp + '.DST', K.GPR, dh);
      else if (f[dp + '.REG'] !== undefined) dst = regOp(f, dp + '.REG', K.GPR, dh);
      else {
        dst.kind = K.RELGPR;
        dst.n = num(f, dp + '.OFFSET');
        dst.half = dh;
      }
    }
    if (name === 'mov-gpr' || name === 'mov-const' || name === 'mov-immed' || name === 'mov-relgpr' || name === 'mov-relconst') {
      // mova / mova1 write a0.x / a1.x (their DST field is an assert).
      if (f['DST'] === undefined) {
        dst = none();
        dst.kind = K.GPR;
        dst.n = dt === T.S16 ? 61 * 4 : 61 * 4 + 1;
        dst.half = true;
      }
    }
    if (src[0]) src[0].r = num(f, 'SRC_R') !== 0;
  } else {
    const dh = f['DST_HALF'] !== undefined ? num(f, 'DST_HALF') !== 0 : false;
    if (f['DST'] === '#reg-gpr') dst = regOp(f, 'DST', K.GPR, dh);
    for (const p of ['SRC1', 'SRC2', 'SRC3', 'SRC']) {
      if (f[p] === undefined) continue;
      const o = srcOp(f, p, cat === 6 ? false : halfSrc);
      o.r = num(f, p + '_R') !== 0;
      if (num(f, p + '_NEG')) o.neg = true;
      src.push(o);
    }
  }
  const target = cat === 0 ? pc + num(f, 'IMMED') : 0;
  return {
    pc,
    lo,
    hi,
    name,
    cat,
    f,
    dst,
    src,
    rpt: num(f, 'REPEAT'),
    ss: num(f, 'SS') !== 0,
    sy: num(f, 'SY') !== 0,
    jp: num(f, 'JP') !== 0,
    ul: num(f, 'UL') !== 0,
    sat: num(f, 'SAT') !== 0,
    nop: f['NOP'] !== undefined ? num(f, 'NOP') : 0,
    target,
    ibo: f['SSBO'] !== undefined ? srcOp(f, 'SSBO', false) : undefined,
    exec: undefined,
  };
}
