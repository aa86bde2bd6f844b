/**
 * VALU compares, one description per source type, read by both execution tiers: the reference
 * interpreter (valu-cmp.ts compiles each into the row function of its v_cmp/v_cmpx binders) and
 * the fast tier (engine/fast-valu.ts inlines the same statements into its handlers). A leaf
 * module: it imports nothing.
 *
 * `outcome(s)` is the JavaScript statement text that computes one lane's outcome `o`: 1 less,
 * 2 equal, 4 greater, 8 unordered (a NaN). `s[k].u` is source k's low dword (a uint32; 16-bit
 * sources zero-extended), `s[k].h` its high dword (64-bit sources), `s[k].f` its f32 value (f32
 * sources, after MODE's input denormal flush). Free names: `f16`, `f64` (core/float.ts). A
 * relation is the set of outcomes it accepts; the float n* relations include unordered.
 */

export type CmpSrc = 'b16' | 'b32' | 'b64' | 'f16' | 'f32' | 'f64';

/** Source k of a lane, as expressions. */
export interface CmpSrcExpr {
  readonly u: string;
  readonly h: string;
  readonly f: string;
}

export interface CmpType {
  readonly srcs: readonly [CmpSrc, CmpSrc];
  /** Float compares: the relations are FREL's (with unordered), sources flushed per MODE. */
  readonly float: boolean;
  readonly outcome: (s: readonly CmpSrcExpr[]) => string;
}

const ORD = 'p < q ? 1 : p === q ? 2 : 4';
const FORD = 'p < q ? 1 : p === q ? 2 : p > q ? 4 : 8';
/** 64-bit compares: exact through (hi, lo) ordering, not through a lossy double. */
const ORD64 = 'p < q ? 1 : p > q ? 4 : y < z ? 1 : y === z ? 2 : 4';

/** Compare types by mnemonic suffix. */
export const CMP_TYPES: ReadonlyMap<string, CmpType> = new Map<string, CmpType>([
  ['u32', { srcs: ['b32', 'b32'], float: false, outcome: ([a, b]) => `{ const p = ${a!.u}, q = ${b!.u}; o = ${ORD}; }` }],
  ['i32', { srcs: ['b32', 'b32'], float: false, outcome: ([a, b]) => `{ const p = ${a!.u} | 0, q = ${b!.u} | 0; o = ${ORD}; }` }],
  ['u64', { srcs: ['b64', 'b64'], float: false, outcome: ([a, b]) => `{ const p = ${a!.h}, q = ${b!.h}, y = ${a!.u}, z = ${b!.u}; o = ${ORD64}; }` }],
  ['i64', { srcs: ['b64', 'b64'], float: false, outcome: ([a, b]) => `{ const p = ${a!.h} | 0, q = ${b!.h} | 0, y = ${a!.u}, z = ${b!.u}; o = ${ORD64}; }` }],
  ['u16', { srcs: ['b16', 'b16'], float: false, outcome: ([a, b]) => `{ const p = ${a!.u}, q = ${b!.u}; o = ${ORD}; }` }],
  ['i16', { srcs: ['b16', 'b16'], float: false, outcome: ([a, b]) => `{ const p = (${a!.u} << 16) >> 16, q = (${b!.u} << 16) >> 16; o = ${ORD}; }` }],
  ['f32', { srcs: ['f32', 'f32'], float: true, outcome: ([a, b]) => `{ const p = ${a!.f}, q = ${b!.f}; o = ${FORD}; }` }],
  ['f64', { srcs: ['f64', 'f64'], float: true, outcome: ([a, b]) => `{ const p = f64(${a!.u}, ${a!.h}), q = f64(${b!.u}, ${b!.h}); o = ${FORD}; }` }],
  ['f16', { srcs: ['f16', 'f16'], float: true, outcome: ([a, b]) => `{ const p = f16(${a!.u}), q = f16(${b!.u}); o = ${FORD}; }` }],
]);

/** Integer relations (outcome sets); 'f' and 't' exist for 32/64-bit types only. */
export const IREL: readonly (readonly [string, number])[] = [['f', 0], ['lt', 1], ['eq', 2], ['le', 3], ['gt', 4], ['ne', 5], ['ge', 6], ['t', 7]];
/** Float relations: the n* forms are negations (true on NaN), o/u orderability. */
export const FREL: readonly (readonly [string, number])[] = [
  ['f', 0], ['lt', 1], ['eq', 2], ['le', 3], ['gt', 4], ['lg', 5], ['ge', 6], ['o', 7],
  ['u', 8], ['nge', 9], ['nlg', 10], ['ngt', 11], ['nle', 12], ['neq', 13], ['nlt', 14], ['t', 15],
];

export interface CmpOp {
  readonly type: CmpType;
  /** The outcomes accepted (a lane's bit is 1 when `o & rel` is not 0). */
  readonly rel: number;
}

/** Every v_cmp_<rel>_<type> (v_cmpx_* are the same ops writing EXEC), in definition order. */
export const CMP_OPS: ReadonlyMap<string, CmpOp> = (() => {
  const m = new Map<string, CmpOp>();
  for (const [suffix, type] of CMP_TYPES) {
    for (const [n, rel] of type.float ? FREL : IREL) {
      if (type.srcs[0] === 'b16' && (n === 'f' || n === 't')) continue;
      m.set(`v_cmp_${n}_${suffix}`, { type, rel });
    }
  }
  return m;
})();
