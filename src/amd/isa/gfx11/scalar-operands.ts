/**
 * Printing and parsing of scalar-encoding operands the way LLVM's AMDGPU printer and assembler do:
 * SGPR tuples (LLVM prints a misaligned tuple at its aligned-down base), 8-bit scalar sources with
 * the 32-bit literal, and the symbolic immediates (s_waitcnt, s_waitcnt_depctr, s_delay_alu,
 * sendmsg, hwreg, s_version). Target-neutral: the name tables come from the generated SPECIALS.
 */
import {
  inlineFloatText, inlineInt, parseIntText, parseReg, sregName, srcName, SRC, type OperandSpace,
} from '../operands.js';
import type { NamedField, ScalarSpecials } from './scalar-layout.js';

// ---------------------------------------------------------------------------------------------
// Registers and sources

/** The value whose name is `null` in this space (124 on GFX11, 125 on GFX10). */
export function nullValue(space: OperandSpace): number {
  for (const [v, n] of Object.entries(space.specials)) if (n === 'null') return Number(v);
  return -1;
}

/**
 * LLVM's text for a scalar register field `v` (< 128) that names `n` dwords, or null when invalid.
 * Tuples are printed at the base aligned down to min(n, 4) dwords, as llvm-objdump does.
 */
export function sregText(space: OperandSpace, v: number, n: number): string | null {
  if (n === 1) return sregName(space, v, 1);
  if (space.specials[v] === 'null') return 'null';
  const a = Math.min(n, 4);
  if (v < space.sgprs) return sregName(space, v & ~(a - 1), n);
  if (v >= SRC.TTMP0 && v <= SRC.TTMP15) return sregName(space, SRC.TTMP0 + ((v - SRC.TTMP0) & ~(a - 1)), n);
  if (n === 2) return space.pairs[v] ?? null;
  return null;
}

const FLOAT_BITS: Readonly<Record<number, string>> = {
  0x3f000000: '0.5', 0xbf000000: '-0.5', 0x3f800000: '1.0', 0xbf800000: '-1.0',
  0x40000000: '2.0', 0xc0000000: '-2.0', 0x40800000: '4.0', 0xc0800000: '-4.0', 0x3e22f983: '0.15915494',
};

/** LLVM's text for a 32-bit literal in an operand of `n` dwords (integer-typed SALU operands). */
export function literalText(lit: number, n: number): string {
  const u = lit >>> 0;
  if (n === 2) return u <= 64 ? String(u) : '0x' + u.toString(16);
  const s = u | 0;
  if (s >= -16 && s <= 64) return String(s);
  return FLOAT_BITS[u] ?? '0x' + u.toString(16);
}

/** LLVM's text for an 8-bit scalar source of `n` dwords, or null when invalid. */
export function ssrcText(space: OperandSpace, v: number, n: number, literal: number | undefined): string | null {
  if (v < 128) return sregText(space, v, n);
  if (v === SRC.LITERAL) return literal === undefined ? null : literalText(literal, n);
  return srcName(space, v, n, n === 2 ? 'i64' : 'i32');
}

/** `-0x10`, `0x10`. */
export function signedHex(v: number): string {
  return v < 0 ? '-0x' + (-v).toString(16) : '0x' + v.toString(16);
}

/** Parse a scalar register of `n` dwords (or `null`); returns its field value, or null. */
export function parseSreg(space: OperandSpace, text: string, n: number): number | null {
  const t = text.trim().toLowerCase();
  const nv = nullValue(space);
  if (t === 'null') return nv;
  const r = parseReg(space, t);
  if (!r || r.count !== n || r.value >= 128) return null;
  if (r.file === 's' || r.file === 'ttmp') {
    const a = Math.min(n, 4);
    const rel = r.file === 's' ? r.value : r.value - SRC.TTMP0;
    if (rel % a !== 0) return null;
  }
  return r.value;
}

/** A parsed scalar source: its field value and the literal it needs, if any. */
export interface ParsedSrc {
  readonly value: number;
  readonly literal?: number;
}

/** Parse an 8-bit scalar source of `n` dwords: a register, an inline constant or a 32-bit literal. */
export function parseSsrc(space: OperandSpace, text: string, n: number): ParsedSrc | null {
  const t = text.trim().toLowerCase();
  const r = parseSreg(space, t, n);
  if (r !== null) return { value: r };
  const ref = parseReg(space, t);
  if (ref) {
    if (ref.file === 'special' && ref.value >= 128 && ref.value !== 254) return { value: ref.value };
    return null;
  }
  const i = parseIntText(t);
  if (i !== null) {
    const inl = inlineInt(i);
    if (inl !== null) return { value: inl };
    if (i < -0x80000000 || i > 0xffffffff) return null;
    const u = i >>> 0;
    if (n === 1) {
      const f = FLOAT_BITS[u];
      if (f !== undefined) return { value: inlineFloatText(f)! };
    }
    return { value: SRC.LITERAL, literal: u };
  }
  if (n === 2 && t === '0.15915494') return null;
  const fl = inlineFloatText(t);
  if (fl !== null) return { value: fl };
  const x = Number(t);
  if (n === 1 && /^-?\d+\.\d*(e[-+]?\d+)?$/.test(t) && Number.isFinite(x)) {
    const b = new DataView(new ArrayBuffer(4));
    b.setFloat32(0, x);
    return { value: SRC.LITERAL, literal: b.getUint32(0) };
  }
  return null;
}

/**
 * Parse a 32-bit integer literal operand (s_setreg_imm32_b32). llvm-mc takes float text there as
 * the low 32 bits of the IEEE double (so `1.0` is 0 and `0.15915494` is 0x6725feed).
 */
export function parseLiteral32(text: string): number | null {
  const t = text.trim().toLowerCase();
  const i = parseIntText(t);
  // llvm-mc keeps the low 32 bits of any 64-bit integer here.
  if (i !== null) return Number.isSafeInteger(i) ? Number(BigInt.asUintN(32, BigInt(i))) : null;
  const x = Number(t);
  if (!/^-?\d+\.\d*(e[-+]?\d+)?$/.test(t) || !Number.isFinite(x)) return null;
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x, true);
  return b.getUint32(0, true);
}

/** Parse a 16-bit immediate (signed or unsigned spelling) to its 16-bit encoding. */
export function parseImm16(text: string, truncate = false): number | null {
  const i = parseIntText(text);
  if (i === null) return null;
  if (truncate) return Number.isSafeInteger(i) ? Number(BigInt.asUintN(16, BigInt(i))) : null;
  if (i < -0x8000 || i > 0xffff) return null;
  return i & 0xffff;
}

// ---------------------------------------------------------------------------------------------
// Symbolic immediates: printing

/** Field value `x` placed at its encoding bits (contiguous, or scattered per `split`). */
function place(f: NamedField, x: number): number {
  if (!f.split) return (x & ((1 << f.bits) - 1)) << f.lo;
  let v = 0;
  f.split.forEach((b, k) => { v |= ((x >>> k) & 1) << b; });
  return v;
}
const maskOf = (f: NamedField): number => place(f, -1);
function get(v: number, f: NamedField): number {
  if (!f.split) return (v >>> f.lo) & ((1 << f.bits) - 1);
  let x = 0;
  f.split.forEach((b, k) => { x |= ((v >>> b) & 1) << k; });
  return x;
}
const put = (v: number, f: NamedField, x: number): number => (v & ~maskOf(f)) | place(f, x);

export function printWaitcnt(sp: ScalarSpecials, v: number): string {
  const all = sp.waitcnt.every((f) => get(v, f) === f.dflt);
  return sp.waitcnt.filter((f) => all || get(v, f) !== f.dflt).map((f) => `${f.name}(${get(v, f)})`).join(' ');
}

export function printDepctr(sp: ScalarSpecials, v: number): string {
  let used = 0;
  let nonDefault = false;
  for (const f of sp.depctr) {
    used |= maskOf(f);
    if (get(v, f) !== f.dflt) nonDefault = true;
  }
  if (v & ~used) return '0x' + v.toString(16);
  return sp.depctr.filter((f) => !nonDefault || get(v, f) !== f.dflt).map((f) => `${f.name}(${get(v, f)})`).join(' ');
}

export function printDelay(sp: ScalarSpecials, v: number): string {
  const parts: string[] = [];
  for (const f of sp.delay) {
    const x = get(v, f);
    if (x !== 0) parts.push(`${f.name}(${f.names?.[x] ?? x})`);
  }
  return parts.length ? parts.join(' | ') : '0';
}

export function printSendmsg(sp: ScalarSpecials, v: number): string {
  if (sp.sendmsgCodes) {
    // A named message ignores the bits outside its fields; the numeric form only prints exact codes.
    const named = sp.sendmsgCodes[v & sp.sendmsgMask];
    if (named !== undefined && !/^sendmsg\(\d/.test(named)) return named;
    return sp.sendmsgCodes[v] ?? String(v);
  }
  const id = v & sp.sendmsgMask;
  const name = sp.sendmsg[id];
  if (name !== undefined) return `sendmsg(${name})`;
  if (id === v) return `sendmsg(${id}, 0, 0)`;
  return String(v);
}

export function printHwreg(sp: ScalarSpecials, v: number): string {
  const F = sp.hwregFields;
  const id = get(v, F.id);
  const off = get(v, F.offset);
  const size = get(v, F.size) + 1;
  const name = sp.hwreg[id] ?? String(id);
  return off === 0 && size === F.size.dflt + 1 ? `hwreg(${name})` : `hwreg(${name}, ${off}, ${size})`;
}

export function printVersion(sp: ScalarSpecials, v: number): string {
  let flagMask = 0;
  for (const f of sp.versionFlags) flagMask |= 1 << f.bit;
  if (v & ~(sp.versionMask | flagMask)) return v <= 64 ? String(v) : '0x' + v.toString(16);
  const n = v & sp.versionMask;
  let s = sp.version[n] ?? String(n);
  let compound = false;
  for (const f of sp.versionFlags) {
    if (!((v >>> f.bit) & 1)) continue;
    s = (compound ? `(${s})` : s) + '|' + f.name;
    compound = true;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Symbolic immediates: parsing (null = not valid syntax)

/** `name(value)` calls separated by spaces, `&` or `,`; null if the text has anything else. */
function parseCalls(text: string, sep: RegExp): [string, string][] | null {
  const out: [string, string][] = [];
  let rest = text.trim();
  while (rest !== '') {
    const m = /^([A-Za-z_][A-Za-z_0-9]*)\s*\(([^()]*)\)\s*/.exec(rest);
    if (!m) return null;
    out.push([m[1]!.toLowerCase(), m[2]!.trim()]);
    rest = rest.slice(m[0].length);
    const s = sep.exec(rest);
    if (s && s.index === 0) {
      rest = rest.slice(s[0].length).trim();
      // A separator must lead to another counter ("expected a counter name").
      if (rest === '' && s[0].trim() !== '') return null;
    }
  }
  return out;
}

function parseFields(fields: readonly NamedField[], text: string, sep: RegExp, start: number, byName: (f: NamedField, arg: string) => number | null, unique = false): number | null {
  const n = parseImm16(text);
  if (n !== null) return n;
  const calls = parseCalls(text, sep);
  if (!calls || calls.length === 0) return null;
  let v = start;
  const seen = new Set<string>();
  for (const [name, arg] of calls) {
    const f = fields.find((x) => x.name.toLowerCase() === name);
    if (!f) return null;
    // llvm-mc: "duplicate counter name" (s_waitcnt_depctr; s_waitcnt takes the last value).
    if (unique && seen.has(name)) return null;
    seen.add(name);
    const x = byName(f, arg);
    if (x === null || x < 0 || x >= 1 << f.bits) return null;
    v = put(v, f, x);
  }
  return v >>> 0;
}

const defaults = (fs: readonly NamedField[]): number => fs.reduce((a, f) => a | place(f, f.dflt), 0);

export function parseWaitcnt(sp: ScalarSpecials, text: string): number | null {
  return parseFields(sp.waitcnt, text, /^\s*[&,]?\s*/, defaults(sp.waitcnt), (_f, a) => parseIntText(a));
}

export function parseDepctr(sp: ScalarSpecials, text: string): number | null {
  return parseFields(sp.depctr, text, /^\s*[&,]?\s*/, defaults(sp.depctr), (_f, a) => parseIntText(a), true);
}

export function parseDelay(sp: ScalarSpecials, text: string): number | null {
  return parseFields(sp.delay, text, /^\s*\|\s*/, 0, (f, a) => {
    const up = a.toUpperCase();
    for (const [k, n] of Object.entries(f.names ?? {})) if (n === up && !n.startsWith('/*')) return Number(k);
    // Names only: llvm-mc refuses instid0(1) ("expected a value name").
    return up === 'NO_DEP' || up === 'SAME' ? 0 : null;
  });
}

function callArgs(text: string, fn: string): string[] | null {
  const m = new RegExp(`^${fn}\\s*\\((.*)\\)$`, 'i').exec(text.trim());
  return m ? m[1]!.split(',').map((x) => x.trim()) : null;
}

export function parseSendmsg(sp: ScalarSpecials, text: string): number | null {
  const n = parseImm16(text);
  if (n !== null) return n;
  const a = callArgs(text, 'sendmsg');
  if (!a || a.length < 1 || a.length > 3) return null;
  if (sp.sendmsgCodes) return parseSendmsgCode(sp.sendmsgCodes, a);
  let id = parseIntText(a[0]!);
  if (id === null) {
    const e = Object.entries(sp.sendmsg).find(([, nm]) => nm === a[0]!.toUpperCase());
    if (!e) return null;
    id = Number(e[0]);
  }
  // A named message takes no operation or stream on GFX11 ("message does not support operations").
  if (a.length > 1 && parseIntText(a[0]!) === null) return null;
  const op = a.length > 1 ? parseIntText(a[1]!) : 0;
  const stream = a.length > 2 ? parseIntText(a[2]!) : 0;
  if (op === null || stream === null || id < 0 || id > sp.sendmsgMask) return null;
  // Only the message id has a field on GFX11+ (ops/streams were GFX10's GS messages).
  if (op !== 0 || stream !== 0) return null;
  return id;
}

/** Pre-GFX11 sendmsg(id[, op[, stream]]): names or numbers, as LLVM prints them. */
function parseSendmsgCode(codes: Readonly<Record<number, string>>, a: string[]): number | null {
  const want = `sendmsg(${a.join(', ')})`.toUpperCase();
  for (const [k, t] of Object.entries(codes)) if (t.toUpperCase() === want) return Number(k);
  const n = a.map((x) => parseIntText(x));
  if (n.some((x) => x === null)) return null;
  const [id, op = 0, stream = 0] = n as number[];
  if (id! < 0 || id! > 15 || op < 0 || op > 7 || stream < 0 || stream > 3) return null;
  return id! | (op << 4) | (stream << 8);
}

export function parseHwreg(sp: ScalarSpecials, text: string): number | null {
  const n = parseImm16(text);
  if (n !== null) return n;
  const a = callArgs(text, 'hwreg');
  const F = sp.hwregFields;
  if (!a || (a.length !== 1 && a.length !== 3)) return null;
  let id = parseIntText(a[0]!);
  if (id === null) {
    const e = Object.entries(sp.hwreg).find(([, nm]) => nm === a[0]!.toUpperCase());
    if (!e) return null;
    id = Number(e[0]);
  }
  const off = a.length === 3 ? parseIntText(a[1]!) : 0;
  const size = a.length === 3 ? parseIntText(a[2]!) : F.size.dflt + 1;
  if (off === null || size === null) return null;
  if (id < 0 || id >= 1 << F.id.bits || off < 0 || off >= 1 << F.offset.bits || size < 1 || size > 1 << F.size.bits) return null;
  return ((id << F.id.lo) | (off << F.offset.lo) | ((size - 1) << F.size.lo)) >>> 0;
}

export function parseVersion(sp: ScalarSpecials, text: string): number | null {
  const terms = text.replace(/[()]/g, ' ').split('|').map((x) => x.trim());
  let v = 0;
  for (const t of terms) {
    const i = parseImm16(t);
    if (i !== null) { v |= i; continue; }
    const up = t.toUpperCase();
    const e = Object.entries(sp.version).find(([, nm]) => nm === up);
    if (e) { v |= Number(e[0]); continue; }
    const f = sp.versionFlags.find((x) => x.name === up);
    if (f) { v |= 1 << f.bit; continue; }
    return null;
  }
  return v & 0xffff;
}
