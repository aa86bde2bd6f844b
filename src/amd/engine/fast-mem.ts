/**
 * Generated memory fast paths (engine 'fast'): each FLAT/GLOBAL dword load or store and each DS
 * dword load, store, 2addr form and 32-bit atomic is compiled at bind time into one JavaScript
 * function with its register rows, offsets and sizes as constants (`compile`, cached by source
 * text, so identical instructions share optimised code and every call site inside is monomorphic).
 *
 * A handler checks before it writes: for a global access, that every active lane falls in the
 * segment holding the first active lane's address (one `Memory.find` per instruction; the 64-bit
 * address's high dwords all equal, so a lane's byte offset is its low dword plus one constant),
 * dword-aligned; for LDS, that every lane's address is aligned and inside the allocation. Any lane
 * failing hands the whole instruction to the reference handler as if nothing was written, so
 * faults, diagnostics and partial effects stay the interpreter's. The copy between the VGPR file
 * and the segment's (or the LDS's) Uint32Array runs lane by lane in the reference's order (same
 * last-writer for lanes sharing an address). DS atomics, and DS loads overwriting their address
 * register, check every lane in a first pass. Other accesses check and copy in one pass and may
 * stop at a failing lane: the reference redo
 * then rewrites every active lane's destination (loads), or the same bytes at the same addresses
 * (stores); a load overwriting its own address registers first puts back the address dwords of
 * the lanes it already loaded (kept as it went).
 */
import type { Wave } from '../wave/wave.js';
import { APERTURE, CNT_MAX, popcount } from '../exec/vmem.js';
import { generated, markFast } from './fast-registry.js';
import { HAND_BACK, handBackIf, stmts, type Code, type Piece } from './code.js';
import type { Inline } from './registry.js';

type Run = (w: Wave) => void;

/** Times a generated memory handler (s_load's included) handed an instruction to the reference (tests, reports). */
export const memFallbacks = { n: 0 };

/** The address rows an in-place load overwrote, per lane (low dwords, then high dwords at 64). */
const SV = new Uint32Array(128);

/** Lane loops: EXEC all ones without a test, else one test per lane; `body` uses `l`. */
function lanes(ws: number, body: string | Code): Piece[] {
  const b: Code = typeof body === 'string' ? [body] : body;
  const half = (from: number, mask: string | null): Piece[] =>
    [`for (let l = ${from}; l < ${from + 32}; l++) {${mask ? ` if (((${mask} >>> (l & 31)) & 1) === 0) continue;` : ''} `, ...b, ' }'];
  if (ws === 32) return ['if (full) { ', ...half(0, null), ' } else { ', ...half(0, 'el'), ' }'];
  return ['if (full) { for (let l = 0; l < 64; l++) { ', ...b, ' } } else { ', ...half(0, 'el'), ' ', ...half(32, 'eh'), ' }'];
}

function execHead(ws: number): (string | Code)[] {
  return [
    'const s = w.s, v = w.v;',
    ws === 64 ? 'const el = s[126], eh = s[127];' : 'const el = s[126], eh = 0;',
    handBackIf('el === 0 && eh === 0'),
    ws === 64 ? 'const full = el === 4294967295 && eh === 4294967295;' : 'const full = el === 4294967295;',
  ];
}

const laneCount = (ws: number) => `w.laneOps += full ? ${ws} : popcount(el)${ws === 64 ? ' + popcount(eh)' : ''};`;
const bump = (c: string) => `if (w.${c} < ${CNT_MAX}) w.${c}++;`;

/** A generated handler and its source, which a basic block may inline (block.ts). */
export interface FastMem {
  readonly run: Run;
  readonly inline: Inline;
}

/**
 * Build the handler. Every handler hands back (`ref` counts the fallback in memFallbacks and runs
 * the reference handler); the vector ones count lanes with `popcount` (`lanes`); `extra` are further
 * free names.
 */
function build(name: string, code: readonly (string | Code)[], refRun: Run, extra: Record<string, unknown> = {}, lanes = true): FastMem {
  const names = Object.keys(extra);
  const params = ['ref', ...(lanes ? ['popcount'] : []), ...names];
  const ref = (w: Wave) => { memFallbacks.n++; refRun(w); };
  const args = [ref, ...(lanes ? [popcount] : []), ...names.map((k) => extra[k])];
  const g = generated(name, stmts(code), params, args);
  markFast(g.run);
  return g;
}

export interface FlatDwordSpec {
  readonly ws: number;
  /** FLAT (apertures route elsewhere; counts LGKM too) rather than GLOBAL. */
  readonly flat: boolean;
  /** Even SGPR of the 64-bit base (GLOBAL saddr form), or -1: a 64-bit VGPR address. */
  readonly saddr: number;
  /** Row offsets (reg * waveSize) of the address VGPRs (hi unused with saddr). */
  readonly lo: number;
  readonly hi: number;
  /** Immediate byte offset (already sign- or zero-extended). */
  readonly off: number;
  readonly count: number;
  readonly store: boolean;
  /** Data rows of a store, destination row of a load. */
  readonly data: readonly number[];
  readonly d: number;
  /** The counter a store increments (target/space.ts storeCounter: VS_CNT, or VM_CNT on GFX9). */
  readonly storeCnt: 'vscnt' | 'vmcnt';
  /** A byte load instead (count 1, no alignment): zero- or sign-extended into the destination. */
  readonly byte?: 'u8' | 'i8';
}

/**
 * A FLAT/GLOBAL dword-multiple load or store, or a u8/i8 load (`byte`), on the unaligned
 * alignment mode (the reference must already raise MEMVIOL itself).
 */
export function fastFlatDword(sp: FlatDwordSpec, ref: Run): FastMem {
  const { ws, lo, hi, count } = sp;
  const byte = sp.byte !== undefined && !sp.store && count === 1 ? sp.byte : undefined;
  const span = byte !== undefined ? 1 : 4 * count;
  const c = execHead(ws);
  c.push('const f = el !== 0 ? 31 - Math.clz32(el & -el) : 63 - Math.clz32(eh & -eh);');
  if (sp.saddr >= 0) c.push(`const B = s[${sp.saddr}] + s[${sp.saddr + 1}] * 4294967296 + ${sp.off};`);
  else c.push(`const h0 = v[${hi} + f];`, `const B = h0 * 4294967296 + ${sp.off};`);
  c.push(
    `const seg = w.mem.find(v[${lo} + f] + B, ${span});`,
    handBackIf(`seg === null || ${byte !== undefined ? '' : 'seg.u32 === null || '}seg.size > 4294967296`),
  );
  // FLAT routes the apertures to LDS/scratch: a segment overlapping them is not plain memory.
  if (sp.flat) c.push(handBackIf(`seg.end > ${APERTURE.PRIVATE} && seg.base < ${APERTURE.SHARED + APERTURE.SIZE}`));
  const moves: string[] = [];
  if (byte !== undefined) moves.push(`v[${sp.d} + l] = ${byte === 'u8' ? 'u8[i]' : '((u8[i] << 24) >> 24) >>> 0'};`);
  else {
    for (let k = 0; k < count; k++) {
      const at = k === 0 ? 'i' : `i + ${k}`;
      moves.push(sp.store ? `u32[${at}] = v[${sp.data[k]!} + l];` : `v[${sp.d + k * ws} + l] = u32[${at}];`);
    }
  }
  // Lane byte offset in the segment = low address dword + C, aligned when a multiple of 4.
  // Bytes need no alignment (mask 0) and index the segment's bytes (shift 0).
  const amask = byte !== undefined ? 0 : 3;
  const shift = byte !== undefined ? 0 : 2;
  c.push(`const ${byte !== undefined ? 'u8 = seg.u8' : 'u32 = seg.u32'}, C = B - seg.base, last = seg.size - ${span};`);
  const rows = (r: number) => r >= sp.d && r < sp.d + count * ws;
  const extra: Record<string, unknown> = {};
  if (sp.store || !(rows(lo) || (sp.saddr < 0 && rows(hi)))) {
    // One pass: a load that does not overwrite its address, or a store, may stop at a failing
    // lane: the reference then redoes the whole instruction, rewriting every active lane's
    // destination (loads) or the same bytes at the same addresses in the same order (stores).
    c.push(lanes(ws, [`const o = v[${lo} + l] + C; `, ...handBackIf(`o < 0 || o > last || ((o & ${amask}) | ${sp.saddr >= 0 ? '0' : `(v[${hi} + l] ^ h0)`}) !== 0`), ` const i = o >>> ${shift}; ${moves.join(' ')}`]));
  } else {
    // A load overwriting its own address rows: one pass too, each lane's address read before its
    // destination is written and kept in SV; a failing lane restores the address rows of the lanes
    // before it, then hands back (the other destination rows the reference rewrites, as above).
    const keepLo = rows(lo);
    const keepHi = sp.saddr < 0 && rows(hi);
    const keep = `${keepLo ? 'SV[l] = x;' : ''}${keepHi ? ' SV[64 + l] = xh;' : ''}`;
    const put = `${keepLo ? `v[${lo} + j] = SV[j];` : ''}${keepHi ? ` v[${hi} + j] = SV[64 + j];` : ''}`;
    const on = ws === 64 ? '(j < 32 ? el : eh)' : 'el';
    const restore = `for (let j = 0; j < l; j++) { if (full || ((${on} >>> (j & 31)) & 1) !== 0) { ${put} } }`;
    c.push(lanes(ws, [
      `const x = v[${lo} + l]${sp.saddr >= 0 ? '' : `, xh = v[${hi} + l]`}; const o = x + C; `,
      `if (o < 0 || o > last || ((o & ${amask}) | ${sp.saddr >= 0 ? '0' : '(xh ^ h0)'}) !== 0) { ${restore} `, HAND_BACK, ' }',
      ` ${keep} const i = o >>> ${shift}; ${moves.join(' ')}`,
    ]));
    extra['SV'] = SV;
  }
  const cnt = sp.store ? sp.storeCnt : 'vmcnt';
  c.push(bump(cnt));
  if (sp.flat) c.push(bump('lgkmcnt'));
  c.push(laneCount(ws));
  const g = build(sp.flat ? 'fastFlat' : 'fastGlobal', c, ref, extra);
  // A GLOBAL dword access: the wasm tier takes its spec (wasm/valu.ts).
  return sp.flat || byte !== undefined ? g : { run: g.run, inline: { ...g.inline, global: sp } };
}

/** Whether a load of `dwords` rows from row `d` overwrites the address row `addr`. */
const overwrites = (addr: number, d: number, dwords: number, ws: number): boolean => addr >= d && addr < d + dwords * ws;

/** LDS check pass: every lane's (VGPR + off) mod 2^32 aligned, `bytes` inside the allocation. */
function ldsCheck(ws: number, addr: number, off: number, bytes: number): (string | Code)[] {
  return [
    `const lds = w.ldsU32, limit = w.lds.length - ${bytes};`,
    'let mx = 0, bad = 0;',
    lanes(ws, `const a = (v[${addr} + l] + ${off}) >>> 0; if (a > mx) mx = a; bad |= a;`),
    handBackIf('(bad & 3) !== 0 || mx > limit'),
  ];
}

export interface DsDwordSpec {
  readonly ws: number;
  readonly addr: number;
  readonly off: number;
  readonly count: number;
  readonly store: boolean;
  readonly data: readonly number[];
  readonly d: number;
}

/** ds_load_b32..b128 / ds_store_b32..b128 (unaligned mode, destination in range). */
export function fastDsDword(sp: DsDwordSpec, ref: Run): FastMem {
  const { ws, count } = sp;
  const moves: string[] = [];
  for (let k = 0; k < count; k++) {
    const at = k === 0 ? 'i' : `i + ${k}`;
    moves.push(sp.store ? `lds[${at}] = v[${sp.data[k]!} + l];` : `v[${sp.d + k * ws} + l] = lds[${at}];`);
  }
  const c = [...execHead(ws)];
  if (sp.store || !overwrites(sp.addr, sp.d, count, ws)) {
    c.push(`const lds = w.ldsU32, limit = w.lds.length - ${4 * count};`,
      lanes(ws, [`const a = (v[${sp.addr} + l] + ${sp.off}) >>> 0; `, ...handBackIf('a > limit || (a & 3) !== 0'), ` const i = a >>> 2; ${moves.join(' ')}`]));
  } else {
    c.push(...ldsCheck(ws, sp.addr, sp.off, 4 * count), lanes(ws, `const i = (v[${sp.addr} + l] + ${sp.off}) >>> 2; ${moves.join(' ')}`));
  }
  c.push(bump('lgkmcnt'), laneCount(ws));
  const g = build('fastDs', c, ref);
  // The wasm tier takes its spec (wasm/lds.ts).
  return { run: g.run, inline: { ...g.inline, ds: { two: false, sp } } };
}

export interface Ds2Spec {
  readonly ws: number;
  readonly addr: number;
  /** Byte offsets of the two accesses (dword multiples). */
  readonly o0: number;
  readonly o1: number;
  readonly dw: 1 | 2;
  readonly store: boolean;
  /** Data rows of each half (stores), destination row (loads). */
  readonly data0: readonly number[];
  readonly data1: readonly number[];
  readonly d: number;
}

/** ds_load_2addr(_stride64)_b32/b64 and ds_store_2addr(_stride64)_b32/b64. */
export function fastDs2(sp: Ds2Spec, ref: Run): FastMem {
  const { ws, dw, o0, o1 } = sp;
  const bytes = 4 * dw;
  // Sums past 2^32 wrap in the reference (and may land in range): left to it.
  const c: (string | Code)[] = [...execHead(ws), `const lds = w.ldsU32, limit = w.lds.length - ${bytes + Math.max(o0, o1)};`];
  const one = sp.store || !overwrites(sp.addr, sp.d, 2 * dw, ws);
  if (!one) {
    c.push('let mx = 0, bad = 0;', lanes(ws, `const b = v[${sp.addr} + l]; if (b > mx) mx = b; bad |= b;`), handBackIf('(bad & 3) !== 0 || mx > limit'));
  }
  const i0 = o0 >>> 2;
  const i1 = o1 >>> 2;
  const moves: string[] = [];
  for (const [h, base] of [[0, i0], [1, i1]] as const) {
    for (let k = 0; k < dw; k++) {
      const at = `j + ${base + k}`;
      const row = h === 0 ? sp.data0[k]! : sp.data1[k]!;
      moves.push(sp.store ? `lds[${at}] = v[${row} + l];` : `v[${sp.d + (h * dw + k) * ws} + l] = lds[${at}];`);
    }
  }
  if (one) c.push(lanes(ws, [`const b = v[${sp.addr} + l]; `, ...handBackIf('b > limit || (b & 3) !== 0'), ` const j = b >>> 2; ${moves.join(' ')}`]));
  else c.push(lanes(ws, `const j = v[${sp.addr} + l] >>> 2; ${moves.join(' ')}`));
  c.push(bump('lgkmcnt'), laneCount(ws));
  const g = build('fastDs2', c, ref);
  return { run: g.run, inline: { ...g.inline, ds: { two: true, sp } } };
}

export interface DsAtomicSpec {
  readonly ws: number;
  readonly addr: number;
  readonly off: number;
  /** ATOMIC32 key (part of the source text: one factory, one inlinable `op`, per operation). */
  readonly key: string;
  readonly op: (old: number, src: number, cmp: number) => number;
  readonly s0: number;
  readonly s1: number;
  /** Destination row of the returned old value, or -1. */
  readonly d: number;
}

/** 32-bit DS atomics: read-modify-write each lane's dword in lane order, as the reference. */
export function fastDsAtomic32(sp: DsAtomicSpec, ref: Run): FastMem {
  const { ws } = sp;
  const c = [`/* ${sp.key} */`, ...execHead(ws), ...ldsCheck(ws, sp.addr, sp.off, 4)];
  c.push(
    lanes(ws, `const i = (v[${sp.addr} + l] + ${sp.off}) >>> 2; const o = lds[i]; lds[i] = op(o, v[${sp.s0} + l], v[${sp.s1} + l]);${sp.d >= 0 ? ` v[${sp.d} + l] = o;` : ''}`),
    bump('lgkmcnt'), laneCount(ws),
  );
  return build('fastDsAtomic', c, ref, { op: sp.op });
}

export interface ScalarLoadSpec {
  /** Even SGPR of the 64-bit base, the SGPR of the offset (-1: none), the immediate offset. */
  readonly sb: number;
  readonly so: number;
  readonly off: number;
  /** First destination SGPR and dword count. */
  readonly d: number;
  readonly n: number;
  readonly lgkmMax: number;
}

/**
 * s_load_bN with plain SGPR operands: the whole load in one segment, dword-aligned, copies its
 * dwords; anything else is the reference's.
 */
export function fastScalarLoad(sp: ScalarLoadSpec, ref: Run): FastMem {
  const { sb, so, d, n } = sp;
  return build('fastSLoad', [
    'const s = w.s;',
    // Scalar loads ignore the two low address bits; the address wraps at 48 bits.
    `const addr = (s[${sb}] + (s[${sb + 1}] & 0xffff) * 4294967296 + ${sp.off}${so >= 0 ? ` + s[${so}]` : ''}) % 281474976710656;`,
    'const a = addr - (addr % 4);',
    `const seg = w.mem.find(a, ${4 * n});`,
    handBackIf('seg === null || seg.u32 === null || ((a - seg.base) & 3) !== 0'),
    'const u32 = seg.u32, i0 = (a - seg.base) / 4;',
    ...Array.from({ length: n }, (_, i) => `s[${d + i}] = u32[i0 + ${i}];`),
    `if (w.lgkmcnt < ${sp.lgkmMax}) w.lgkmcnt++;`,
  ], ref, {}, false);
}
