/**
 * The AMD scalar/vector source-operand space shared by every encoding: the 9-bit SRC field
 * (0..255 scalar sources, inline constants and specials; 256..511 VGPRs) and the 7/8-bit SDST
 * field. Naming and parsing follow LLVM's AMDGPU assembly syntax exactly (`s[4:5]`, `vcc`,
 * `ttmp[2:3]`, `src_shared_base`, `0.15915494`...). What differs per generation is data in
 * `OperandSpace`, not code.
 */

/** Per-generation layout of the scalar operand space. */
export interface OperandSpace {
  readonly gfx: 9 | 10 | 11;
  /** Number of addressable general SGPRs (s0..s{n-1}). */
  readonly sgprs: number;
  /** One past the last SGPR a multi-dword range may reach (GFX9: s[100:103] is printed), if not `sgprs`. */
  readonly sgprTupleEnd?: number;
  /** Special scalar registers by encoding value (single-dword names). */
  readonly specials: Readonly<Record<number, string>>;
  /** Names of 64-bit pairs that start at an encoding value (vcc, exec, flat_scratch...). */
  readonly pairs: Readonly<Record<number, string>>;
  /** Special source operands (constants and read-only registers) by encoding value. */
  readonly sources: Readonly<Record<number, string>>;
}

export const GFX11_SPACE: OperandSpace = {
  gfx: 11,
  sgprs: 106,
  specials: { 106: 'vcc_lo', 107: 'vcc_hi', 124: 'null', 125: 'm0', 126: 'exec_lo', 127: 'exec_hi' },
  pairs: { 106: 'vcc', 126: 'exec', 124: 'null' },
  sources: {
    235: 'src_shared_base', 236: 'src_shared_limit', 237: 'src_private_base', 238: 'src_private_limit',
    239: 'src_pops_exiting_wave_id', 251: 'src_vccz', 252: 'src_execz', 253: 'src_scc',
  },
};

export const GFX10_SPACE: OperandSpace = {
  gfx: 10,
  sgprs: 106,
  specials: { 106: 'vcc_lo', 107: 'vcc_hi', 124: 'm0', 125: 'null', 126: 'exec_lo', 127: 'exec_hi' },
  pairs: { 106: 'vcc', 126: 'exec', 125: 'null' },
  sources: {
    235: 'src_shared_base', 236: 'src_shared_limit', 237: 'src_private_base', 238: 'src_private_limit',
    239: 'src_pops_exiting_wave_id', 251: 'src_vccz', 252: 'src_execz', 253: 'src_scc', 254: 'src_lds_direct',
  },
};

export const GFX9_SPACE: OperandSpace = {
  gfx: 9,
  sgprs: 102,
  sgprTupleEnd: 106,
  specials: {
    102: 'flat_scratch_lo', 103: 'flat_scratch_hi', 104: 'xnack_mask_lo', 105: 'xnack_mask_hi',
    // LLVM 19 prints 125 as `null` on GFX9 too (llvm-mc refuses it there).
    106: 'vcc_lo', 107: 'vcc_hi', 124: 'm0', 125: 'null', 126: 'exec_lo', 127: 'exec_hi',
  },
  pairs: { 102: 'flat_scratch', 104: 'xnack_mask', 106: 'vcc', 126: 'exec', 125: 'null' },
  sources: {
    235: 'src_shared_base', 236: 'src_shared_limit', 237: 'src_private_base', 238: 'src_private_limit',
    239: 'src_pops_exiting_wave_id', 251: 'src_vccz', 252: 'src_execz', 253: 'src_scc', 254: 'src_lds_direct',
  },
};

/** Encoding values with a fixed meaning on every generation. */
export const SRC = {
  TTMP0: 108,
  TTMP15: 123,
  INLINE_INT_ZERO: 128,
  INLINE_INT_MAX: 192, // 64
  INLINE_INT_NEG_MIN: 193, // -1
  INLINE_INT_NEG_MAX: 208, // -16
  DPP8: 233,
  DPP8FI: 234,
  FLOAT_FIRST: 240,
  INV_2PI: 248,
  DPP16: 250,
  LITERAL: 255,
  VGPR0: 256,
} as const;

/** Float inline constants 240..247 as LLVM prints them. */
const FLOAT_CONSTS = ['0.5', '-0.5', '1.0', '-1.0', '2.0', '-2.0', '4.0', '-4.0'] as const;

/**
 * How an operand's value is typed, which decides how LLVM prints the 1/(2*pi) inline constant and
 * literals: 'b16'/'f16' 16-bit, 'b32'/'f32' 32-bit, 'b64'/'f64' 64-bit, 'bf16', packed 'v2f16' etc.
 */
export type OperandType = 'i16' | 'f16' | 'bf16' | 'i32' | 'f32' | 'i64' | 'f64' | 'v2i16' | 'v2f16';

/** LLVM's text for the 1/(2*pi) inline constant in an operand of the given type. */
export function inv2piText(t: OperandType): string {
  switch (t) {
    case 'f64': case 'i64': return '0.15915494309189532';
    case 'f16': case 'i16': case 'v2f16': case 'v2i16': case 'bf16': return '0.15915494';
    default: return '0.15915494';
  }
}

/** Name of a register range `base..base+count-1` in the scalar space (base < 128), or null if invalid. */
export function sregName(space: OperandSpace, base: number, count: number): string | null {
  if (count === 1) {
    if (base < space.sgprs) return `s${base}`;
    if (base >= SRC.TTMP0 && base <= SRC.TTMP15) return `ttmp${base - SRC.TTMP0}`;
    return space.specials[base] ?? null;
  }
  if (base < space.sgprs) {
    if (base + count > (space.sgprTupleEnd ?? space.sgprs)) return null;
    return `s[${base}:${base + count - 1}]`;
  }
  if (base >= SRC.TTMP0 && base <= SRC.TTMP15) {
    if (base + count - 1 > SRC.TTMP15) return null;
    return `ttmp[${base - SRC.TTMP0}:${base - SRC.TTMP0 + count - 1}]`;
  }
  if (count === 2) return space.pairs[base] ?? null;
  return null;
}

/** Name of VGPR range v[base..base+count-1]. */
export function vregName(base: number, count: number): string {
  return count === 1 ? `v${base}` : `v[${base}:${base + count - 1}]`;
}

/**
 * LLVM's text for a 9-bit source operand (scalar, inline constant, special, or VGPR when >= 256).
 * `count` is the operand's width in dwords; `literal` the instruction's literal dword, if any.
 * Returns null when the value names nothing valid at this width.
 */
export function srcName(
  space: OperandSpace, value: number, count: number, type: OperandType, literal?: number,
): string | null {
  if (value >= SRC.VGPR0) return vregName(value - SRC.VGPR0, count);
  if (value < 128) return sregName(space, value, count);
  if (value <= SRC.INLINE_INT_MAX) return String(value - SRC.INLINE_INT_ZERO);
  if (value <= SRC.INLINE_INT_NEG_MAX) return String(SRC.INLINE_INT_NEG_MIN - 1 - value);
  if (value >= SRC.FLOAT_FIRST && value < SRC.INV_2PI) return FLOAT_CONSTS[value - SRC.FLOAT_FIRST]!;
  if (value === SRC.INV_2PI) return inv2piText(type);
  if (value === SRC.LITERAL) return literal === undefined ? null : '0x' + (literal >>> 0).toString(16);
  return space.sources[value] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Parsing (assembler side)

/** A parsed register reference: which file, first index, and dword count. */
export interface RegRef {
  readonly file: 's' | 'v' | 'ttmp' | 'special';
  /** Encoding value in the 9-bit source space (VGPRs are 256+index). */
  readonly value: number;
  readonly count: number;
}

const RANGE_RE = /^(s|v|ttmp|a)\[(\d+)(?::(\d+))?\]$/;
const SINGLE_RE = /^(s|v|ttmp)(\d+)$/;

/** Parse a register operand text (`s5`, `s[4:5]`, `v[0:3]`, `vcc`, `exec_lo`, `ttmp[2:3]`, `m0`...). */
export function parseReg(space: OperandSpace, text: string): RegRef | null {
  const t = text.trim().toLowerCase();
  let m = SINGLE_RE.exec(t);
  if (m) return mkReg(m[1]!, Number(m[2]), 1);
  m = RANGE_RE.exec(t);
  if (m) {
    const lo = Number(m[2]);
    const hi = m[3] === undefined ? lo : Number(m[3]);
    if (hi < lo) return null;
    return mkReg(m[1]!, lo, hi - lo + 1);
  }
  for (const [v, name] of Object.entries(space.pairs)) if (name === t) return { file: 'special', value: Number(v), count: 2 };
  for (const [v, name] of Object.entries(space.specials)) if (name === t) return { file: 'special', value: Number(v), count: 1 };
  for (const [v, name] of Object.entries(space.sources)) if (name === t) return { file: 'special', value: Number(v), count: 1 };
  // LLVM also accepts the un-prefixed spellings of the special sources.
  const alias: Record<string, string> = {
    shared_base: 'src_shared_base', shared_limit: 'src_shared_limit', private_base: 'src_private_base',
    private_limit: 'src_private_limit', pops_exiting_wave_id: 'src_pops_exiting_wave_id', vccz: 'src_vccz',
    execz: 'src_execz', scc: 'src_scc', lds_direct: 'src_lds_direct',
  };
  if (alias[t]) return parseReg(space, alias[t]);
  return null;

  function mkReg(file: string, idx: number, count: number): RegRef | null {
    if (file === 's') return idx + count <= space.sgprs ? { file: 's', value: idx, count } : null;
    if (file === 'v') return idx + count <= 256 ? { file: 'v', value: SRC.VGPR0 + idx, count } : null;
    if (file === 'ttmp') return idx + count <= 16 ? { file: 'ttmp', value: SRC.TTMP0 + idx, count } : null;
    return null;
  }
}

/** Parse an integer the way LLVM's assembler does (decimal, 0x hex, 0b binary, negative, 'h' suffix not supported). */
export function parseIntText(text: string): number | null {
  const t = text.trim();
  const m = /^(-)?(0x[0-9a-f]+|0b[01]+|0o[0-7]+|\d+)$/i.exec(t);
  if (!m) return null;
  const body = m[2]!.toLowerCase();
  let v: number;
  if (body.startsWith('0x')) v = parseInt(body.slice(2), 16);
  else if (body.startsWith('0b')) v = parseInt(body.slice(2), 2);
  else if (body.startsWith('0o')) v = parseInt(body.slice(2), 8);
  else v = parseInt(body, 10);
  return m[1] ? -v : v;
}

/** Inline-constant encoding for an integer in -16..64, else null. */
export function inlineInt(v: number): number | null {
  if (v >= 0 && v <= 64) return SRC.INLINE_INT_ZERO + v;
  if (v >= -16 && v < 0) return SRC.INLINE_INT_NEG_MIN - 1 - v;
  return null;
}

/** Inline-constant encoding for float text LLVM prints (0.5, -4.0, 1/(2pi) spellings), else null. */
export function inlineFloatText(t: string): number | null {
  const i = FLOAT_CONSTS.indexOf(t as (typeof FLOAT_CONSTS)[number]);
  if (i >= 0) return SRC.FLOAT_FIRST + i;
  if (t === '0.15915494' || t === '0.15915494309189532' || t === '0.1592') return SRC.INV_2PI;
  return null;
}

/**
 * Split an operand list at top-level commas (commas inside [], () are kept), trimming each part.
 * `v0, v[2:3], off offset:16` -> ['v0', 'v[2:3]', 'off offset:16'].
 */
export function splitOperands(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/** Split text at top-level whitespace (spaces inside [] or () kept): modifiers after the last operand. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}
