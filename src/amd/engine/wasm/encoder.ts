/**
 * A small WebAssembly binary encoder (the MVP binary format plus the non-trapping float-to-int
 * conversions, memory.copy): one module of function types, an imported memory, functions and their exports.
 * Only what the wasm tier emits is here; a leaf module: it imports nothing. Modules it writes are
 * checked with WebAssembly.validate by test/amd/wasm-encoder.test.ts.
 */

/** Value types. */
export const I32 = 0x7f;
export const I64 = 0x7e;
export const F32 = 0x7d;
export const F64 = 0x7c;
/** SIMD (wasm's 128-bit vector type). */
export const V128 = 0x7b;
export type ValType = typeof I32 | typeof I64 | typeof F32 | typeof F64 | typeof V128;
/** A block with no result. */
export const VOID = 0x40;

/** Opcodes used by the tier (names as in the spec's text format). */
export const OP = {
  unreachable: 0x00, block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, br_if: 0x0d, return: 0x0f,
  drop: 0x1a, select: 0x1b,
  local_get: 0x20, local_set: 0x21, local_tee: 0x22,
  i32_load: 0x28, i64_load: 0x29, f32_load: 0x2a, f64_load: 0x2b, i32_store: 0x36, i64_store: 0x37, f32_store: 0x38, f64_store: 0x39,
  i32_const: 0x41, i64_const: 0x42, f32_const: 0x43, f64_const: 0x44,
  i32_eqz: 0x45, i32_eq: 0x46, i32_ne: 0x47, i32_lt_s: 0x48, i32_lt_u: 0x49, i32_gt_s: 0x4a, i32_gt_u: 0x4b, i32_le_s: 0x4c, i32_le_u: 0x4d, i32_ge_s: 0x4e, i32_ge_u: 0x4f,
  i64_eqz: 0x50, i64_eq: 0x51, i64_ne: 0x52, i64_lt_s: 0x53, i64_lt_u: 0x54, i64_gt_s: 0x55, i64_gt_u: 0x56, i64_le_s: 0x57, i64_le_u: 0x58, i64_ge_s: 0x59, i64_ge_u: 0x5a,
  f64_eq: 0x61, f64_ne: 0x62, f64_lt: 0x63, f64_gt: 0x64, f64_le: 0x65, f64_ge: 0x66,
  i32_ctz: 0x68, i32_popcnt: 0x69, i32_add: 0x6a, i32_sub: 0x6b, i32_mul: 0x6c, i32_and: 0x71, i32_or: 0x72, i32_xor: 0x73, i32_shl: 0x74, i32_shr_s: 0x75, i32_shr_u: 0x76,
  i64_ctz: 0x7a, i64_add: 0x7c, i64_sub: 0x7d, i64_mul: 0x7e, i64_and: 0x83, i64_or: 0x84, i64_shl: 0x86, i64_shr_s: 0x87, i64_shr_u: 0x88,
  f64_abs: 0x99, f64_neg: 0x9a, f64_trunc: 0x9d, f64_add: 0xa0, f64_sub: 0xa1, f64_mul: 0xa2, f64_div: 0xa3, f64_min: 0xa4, f64_max: 0xa5,
  i32_wrap_i64: 0xa7, i64_extend_i32_s: 0xac, i64_extend_i32_u: 0xad, f32_demote_f64: 0xb6, f64_convert_i32_s: 0xb7, f64_convert_i32_u: 0xb8, f64_convert_i64_s: 0xb9, f64_promote_f32: 0xbb,
  i32_reinterpret_f32: 0xbc, i64_reinterpret_f64: 0xbd, f32_reinterpret_i32: 0xbe,
} as const;

/** The 0xfc-prefixed saturating truncations. */
/** SIMD opcodes (after the 0xfd prefix), as the WebAssembly SIMD proposal numbers them. */
export const SIMD = {
  v128_load64_zero: 0x5d, v128_store64_lane: 0x5b, v128_const: 0x0c,
  f64x2_splat: 0x14, f64x2_eq: 0x47, f64x2_ne: 0x48,
  v128_not: 0x4d, v128_and: 0x4e, v128_andnot: 0x4f, v128_or: 0x50, v128_bitselect: 0x52, v128_any_true: 0x53,
  f32x4_demote_f64x2_zero: 0x5e, f64x2_promote_low_f32x4: 0x5f,
  i64x2_eq: 0xd6, f64x2_neg: 0xed, f64x2_add: 0xf0, f64x2_sub: 0xf1, f64x2_mul: 0xf2, f64x2_div: 0xf3,
  v128_load: 0x00, v128_store: 0x0b, i8x16_shuffle: 0x0d, i32x4_splat: 0x11, i32x4_extract_lane: 0x1b, i32x4_replace_lane: 0x1c,
  i32x4_eq: 0x37, i32x4_ne: 0x38, i32x4_lt_s: 0x39, i32x4_lt_u: 0x3a, i32x4_gt_s: 0x3b, i32x4_gt_u: 0x3c,
  i32x4_le_s: 0x3d, i32x4_le_u: 0x3e, i32x4_ge_s: 0x3f, i32x4_ge_u: 0x40, v128_xor: 0x51,
  i8x16_popcnt: 0x62, i16x8_extadd_pairwise_i8x16_u: 0x7d, i32x4_extadd_pairwise_i16x8_u: 0x7f,
  i32x4_neg: 0xa1, i32x4_bitmask: 0xa4, i32x4_shl: 0xab, i32x4_shr_s: 0xac, i32x4_shr_u: 0xad, i32x4_add: 0xae, i32x4_sub: 0xb1,
  i32x4_mul: 0xb5, i32x4_min_s: 0xb6, i32x4_min_u: 0xb7, i32x4_max_s: 0xb8, i32x4_max_u: 0xb9,
  i64x2_extmul_low_i32x4_u: 0xde, i64x2_extmul_high_i32x4_u: 0xdf,
} as const;

export const SAT = { i64_trunc_sat_f64_s: 6 } as const;

/**
 * A growing byte buffer (the tier encodes a module per translated run, in a fresh process mostly
 * before V8 optimises the encoder: plain array pushes of spread bytes and a typed array per
 * constant made encoding ~10 ms of a fresh conv2d 256x256 dispatch).
 */
export class Bytes {
  buf = new Uint8Array(256);
  n = 0;
  push(b: number): void {
    if (this.n === this.buf.length) this.grow(1);
    this.buf[this.n++] = b;
  }
  append(b: Bytes | Uint8Array): void {
    const src = b instanceof Bytes ? b.buf.subarray(0, b.n) : b;
    if (this.n + src.length > this.buf.length) this.grow(src.length);
    this.buf.set(src, this.n);
    this.n += src.length;
  }
  private grow(more: number): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + more));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

/** Unsigned LEB128 of a non-negative integer below 2^53. */
export function uleb(out: Bytes, x: number): void {
  if (x < 128) return out.push(x);
  do {
    let b = x % 128;
    x = Math.floor(x / 128);
    if (x !== 0) b |= 0x80;
    out.push(b);
  } while (x !== 0);
}

/** Signed LEB128 of an integer in [-2^53, 2^53]. */
export function sleb(out: Bytes, x: number): void {
  if (x >= 0 && x < 64) return out.push(x);
  for (;;) {
    const b = ((x % 128) + 128) % 128;
    x = Math.floor(x / 128);
    if ((x === 0 && (b & 0x40) === 0) || (x === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return;
    }
    out.push(b | 0x80);
  }
}

/** Little-endian bytes of constants (one scratch buffer). */
const F64_BYTES = new Float64Array(1);
const F64_U8 = new Uint8Array(F64_BYTES.buffer);

/**
 * A function's locals: their types, those given out in the scopes still open (`live`, in order)
 * and those a closed scope gave back, by type (`free`), for later code to use again.
 */
interface Locals {
  readonly types: ValType[];
  readonly live: number[];
  readonly free: Map<ValType, number[]>;
}

/** A function body under construction: locals by type, then the instruction bytes. */
export class FuncBuilder {
  readonly code = new Bytes();
  private readonly locals: Locals;
  private readonly nParams: number;
  /** `locals`: another builder's (child), so both declare locals of one function. */
  constructor(nParams: number, locals?: Locals) {
    this.nParams = nParams;
    this.locals = locals ?? { types: [], live: [], free: new Map() };
  }

  /**
   * A local of type `t`; its index: one a closed scope gave back (`scope`), else a new one. (Its
   * value is then what that scope left: code writes a local before reading it, as a loop body's
   * next trip already requires.)
   */
  local(t: ValType): number {
    const L = this.locals;
    const idx = L.free.get(t)?.pop() ?? this.nParams + L.types.push(t) - 1;
    L.live.push(idx);
    return idx;
  }

  /**
   * Open a scope: the locals given out until `close(scope)` go back to be used again by later
   * code (translateRun closes one per op: Liftoff's compile time and memory grew with the locals
   * times the blocks, ~0.5 ms a KB of body for runs of several hundred locals).
   */
  scope(): number {
    return this.locals.live.length;
  }
  close(scope: number): void {
    const L = this.locals;
    for (let k = L.live.length - 1; k >= scope; k--) {
      const idx = L.live[k]!;
      const t = L.types[idx - this.nParams]!;
      let f = L.free.get(t);
      if (f === undefined) L.free.set(t, (f = []));
      f.push(idx);
    }
    L.live.length = scope;
  }
  op(...bytes: number[]): this {
    for (let i = 0; i < bytes.length; i++) this.code.push(bytes[i]!);
    return this;
  }
  i32(x: number): this {
    this.code.push(OP.i32_const);
    sleb(this.code, x | 0);
    return this;
  }
  i64(x: number): this {
    this.code.push(OP.i64_const);
    sleb(this.code, x);
    return this;
  }
  f64(x: number): this {
    this.code.push(OP.f64_const);
    F64_BYTES[0] = x;
    this.code.append(F64_U8);
    return this;
  }
  get(i: number): this {
    this.code.push(OP.local_get);
    uleb(this.code, i);
    return this;
  }
  set(i: number): this {
    this.code.push(OP.local_set);
    uleb(this.code, i);
    return this;
  }
  tee(i: number): this {
    this.code.push(OP.local_tee);
    uleb(this.code, i);
    return this;
  }
  /** A load or store with alignment log2 `align` and a constant byte offset. */
  mem(op: number, align: number, offset: number): this {
    this.code.push(op);
    uleb(this.code, align);
    uleb(this.code, offset);
    return this;
  }
  br(op: typeof OP.br | typeof OP.br_if, depth: number): this {
    this.code.push(op);
    uleb(this.code, depth);
    return this;
  }
  sat(sub: number): this {
    this.code.push(0xfc);
    uleb(this.code, sub);
    return this;
  }
  /** A SIMD instruction (0xfd prefix) without immediates. */
  simd(op: number): this {
    this.code.push(0xfd);
    uleb(this.code, op);
    return this;
  }
  /** A SIMD load or store with alignment log2 `align`, a constant byte offset and, for a lane access, its lane. */
  simdMem(op: number, align: number, offset: number, lane?: number): this {
    this.simd(op);
    uleb(this.code, align);
    uleb(this.code, offset);
    if (lane !== undefined) this.code.push(lane);
    return this;
  }
  /** v128.const of the double `x` in both f64x2 lanes. */
  v128f64(x: number): this {
    this.simd(SIMD.v128_const);
    F64_BYTES[0] = x;
    this.code.append(F64_U8);
    this.code.append(F64_U8);
    return this;
  }
  /** v128.const of the 64-bit integer `x` (0 <= x < 2^53) in both i64x2 lanes. */
  v128i64(x: number): this {
    this.simd(SIMD.v128_const);
    const lo = x % 2 ** 32, hi = Math.floor(x / 2 ** 32);
    for (let k = 0; k < 2; k++) {
      for (let b = 0; b < 4; b++) this.code.push((lo >>> (8 * b)) & 0xff);
      for (let b = 0; b < 4; b++) this.code.push((hi >>> (8 * b)) & 0xff);
    }
    return this;
  }
  /** A SIMD instruction with a lane immediate (extract_lane, replace_lane). */
  simdLane(op: number, lane: number): this {
    this.simd(op);
    this.code.push(lane);
    return this;
  }
  /** i8x16.shuffle with its 16 byte-lane indices. */
  shuffle(lanes: readonly number[]): this {
    this.simd(SIMD.i8x16_shuffle);
    for (const x of lanes) this.code.push(x);
    return this;
  }
  /** v128.const of four i32 lanes (`xs[0]` the lowest). */
  v128i32(xs: readonly [number, number, number, number]): this {
    this.simd(SIMD.v128_const);
    for (const x of xs) for (let b = 0; b < 4; b++) this.code.push((x >>> (8 * b)) & 0xff);
    return this;
  }
  /**
   * A builder of another stretch of code for this function: its locals are this one's (declared in
   * the same list), its code goes where `append` puts it (simd-int.ts hoists loop-invariant code).
   */
  child(): FuncBuilder {
    return new FuncBuilder(this.nParams, this.locals);
  }
  /** Append a child's code here. */
  append(c: FuncBuilder): this {
    this.code.append(c.code);
    return this;
  }
  /** Where the body is now (its code length and locals), for `rewind`. */
  mark(): { readonly code: number; readonly locals: number; readonly live: number } {
    return { code: this.code.n, locals: this.locals.types.length, live: this.locals.live.length };
  }
  /**
   * Drop what was emitted, and the locals declared, since `m` (a lowering that threw half way):
   * new ones are forgotten, ones used again go back to be used again.
   */
  rewind(m: { readonly code: number; readonly locals: number; readonly live: number }): void {
    this.code.n = m.code;
    const L = this.locals;
    const last = this.nParams + m.locals;
    for (let k = L.live.length - 1; k >= m.live; k--) {
      const idx = L.live[k]!;
      if (idx < last) L.free.get(L.types[idx - this.nParams]!)!.push(idx);
    }
    L.live.length = m.live;
    L.types.length = m.locals;
  }
  /** memory.copy (bulk memory) of memory 0: operands dest, src, length. */
  memoryCopy(): this {
    this.sat(10);
    this.code.push(0x00);
    this.code.push(0x00);
    return this;
  }
  /** The body as the code section holds it (size first): local declarations (runs of one type), code, end. */
  encode(out: Bytes): void {
    const runs: [number, ValType][] = [];
    for (const t of this.locals.types) {
      const last = runs[runs.length - 1];
      if (last !== undefined && last[1] === t) last[0]++;
      else runs.push([1, t]);
    }
    const head = new Bytes();
    uleb(head, runs.length);
    for (const [n, t] of runs) {
      uleb(head, n);
      head.push(t);
    }
    uleb(out, head.n + this.code.n + 1);
    out.append(head);
    out.append(this.code);
    out.push(OP.end);
  }
}

export interface FuncType {
  readonly params: readonly ValType[];
  readonly results: readonly ValType[];
}

export interface ModuleSpec {
  /**
   * An imported memory `module.name` of at least `minPages` 64 KiB pages; `shared` with at most
   * `maxPages` (a shared memory must declare its maximum).
   */
  readonly memory?: { readonly module: string; readonly name: string; readonly minPages: number; readonly shared?: { readonly maxPages: number } };
  readonly funcs: readonly { readonly type: FuncType; readonly body: FuncBuilder; readonly export?: string }[];
}

function section(out: Bytes, id: number, content: Bytes): void {
  out.push(id);
  uleb(out, content.n);
  out.append(content);
}

function name(out: Bytes, s: string): void {
  const b = new TextEncoder().encode(s);
  uleb(out, b.length);
  out.append(b);
}

/** The module's bytes. */
export function encodeModule(spec: ModuleSpec): Uint8Array {
  const out = new Bytes();
  out.append(Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
  // Types: one per distinct signature.
  const sigs: string[] = [];
  const typeIdx = spec.funcs.map((f) => {
    const k = `${f.type.params.join(',')}>${f.type.results.join(',')}`;
    let i = sigs.indexOf(k);
    if (i < 0) i = sigs.push(k) - 1;
    return i;
  });
  const types = new Bytes();
  uleb(types, sigs.length);
  for (const k of sigs) {
    const [p, r] = k.split('>') as [string, string];
    const ps = p === '' ? [] : p.split(',').map(Number);
    const rs = r === '' ? [] : r.split(',').map(Number);
    types.push(0x60);
    uleb(types, ps.length);
    for (const t of ps) types.push(t);
    uleb(types, rs.length);
    for (const t of rs) types.push(t);
  }
  section(out, 1, types);
  if (spec.memory !== undefined) {
    const imp = new Bytes();
    uleb(imp, 1);
    name(imp, spec.memory.module);
    name(imp, spec.memory.name);
    const sh = spec.memory.shared;
    imp.push(0x02);
    imp.push(sh !== undefined ? 0x03 : 0x00);
    uleb(imp, spec.memory.minPages);
    if (sh !== undefined) uleb(imp, sh.maxPages);
    section(out, 2, imp);
  }
  const fns = new Bytes();
  uleb(fns, spec.funcs.length);
  for (const t of typeIdx) uleb(fns, t);
  section(out, 3, fns);
  const exps = spec.funcs.map((f, i) => [f.export, i] as const).filter((e): e is readonly [string, number] => e[0] !== undefined);
  const ex = new Bytes();
  uleb(ex, exps.length);
  for (const [n, i] of exps) {
    name(ex, n);
    ex.push(0x00);
    uleb(ex, i);
  }
  section(out, 7, ex);
  const code = new Bytes();
  uleb(code, spec.funcs.length);
  for (const f of spec.funcs) f.body.encode(code);
  section(out, 10, code);
  return out.bytes();
}
