/**
 * GFX11 DS (LDS/GDS) codec. Word 0: offset0[7:0] offset1[15:8] gds[17] op[25:18] prefix[31:26]=0b110110;
 * word 1: addr[7:0] data0[15:8] data1[23:16] vdst[31:24]. Which operands each opcode prints, their
 * widths and which fields must be zero come from ds.gen.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { vregName } from '../operands.js';
import { DS_ALIASES, DS_OPS, type DsEntry } from './ds.gen.js';
import { allMods, aliasOf, bf, parseIntIn, parseMods, parseVgpr, splitLine, word } from './memory-common.js';

const PREFIX = 0b110110;

function fieldOf(w1: number, f: string): number {
  switch (f) {
    case 'addr': return w1 & 0xff;
    case 'data0': return (w1 >>> 8) & 0xff;
    case 'data1': return (w1 >>> 16) & 0xff;
    default: return w1 >>> 24;
  }
}
const SHIFT: Record<string, number> = { addr: 0, data0: 8, data1: 16, vdst: 24 };

// ---- ds_swizzle offset macros (LLVM's printSwizzle / parseSwizzle) --------------------------

/** LLVM's text for ds_swizzle_b32's offset field (without the `offset:` prefix). */
export function swizzleText(imm: number): string {
  if ((imm & 0xff00) === 0x8000) {
    const l: number[] = [];
    for (let i = 0; i < 4; i++) l.push((imm >> (2 * i)) & 3);
    return `swizzle(QUAD_PERM,${l.join(',')})`;
  }
  if ((imm & 0x8000) === 0) {
    const and = imm & 0x1f;
    const or = (imm >> 5) & 0x1f;
    const xor = (imm >> 10) & 0x1f;
    const pop = (x: number) => { let c = 0; for (; x; x &= x - 1) c++; return c; };
    const pow2 = (x: number) => x > 0 && (x & (x - 1)) === 0;
    if (and === 0x1f && or === 0 && pop(xor) === 1) return `swizzle(SWAP,${xor})`;
    if (and === 0x1f && or === 0 && xor > 0 && pow2(xor + 1)) return `swizzle(REVERSE,${xor + 1})`;
    const group = 0x1f - and + 1;
    if (group > 1 && pow2(group) && or < group && xor === 0) return `swizzle(BROADCAST,${group},${or})`;
    const p0 = ((0 & and) | or) ^ xor;
    const p1 = ((0x1f & and) | or) ^ xor;
    let s = '';
    for (let m = 0x10; m > 0; m >>= 1) {
      const a = p0 & m;
      const b = p1 & m;
      s += a === b ? (a === 0 ? '0' : '1') : a === 0 ? 'p' : 'i';
    }
    return `swizzle(BITMASK_PERM,"${s}")`;
  }
  return String(imm);
}

/** Parse `swizzle(...)` back to the 16-bit offset, or null if malformed. */
export function parseSwizzle(text: string): number | null {
  const m = /^swizzle\(\s*([A-Z_]+)\s*((?:,\s*[^,)]+)*)\)$/i.exec(text.trim());
  if (!m) return null;
  const args = m[2]!.split(',').slice(1).map((x) => x.trim());
  const num = (x: string | undefined) => (x !== undefined && /^\d+$/.test(x) ? Number(x) : -1);
  switch (m[1]!.toUpperCase()) {
    case 'QUAD_PERM': {
      if (args.length !== 4) return null;
      let v = 0x8000;
      for (let i = 0; i < 4; i++) { const a = num(args[i]); if (a < 0 || a > 3) return null; v |= a << (2 * i); }
      return v;
    }
    case 'SWAP': { const n = num(args[0]); return args.length === 1 && n >= 1 && n <= 16 && (n & (n - 1)) === 0 ? 0x1f | (n << 10) : null; }
    case 'REVERSE': { const n = num(args[0]); return args.length === 1 && n >= 2 && n <= 32 && (n & (n - 1)) === 0 ? 0x1f | ((n - 1) << 10) : null; }
    case 'BROADCAST': {
      const g = num(args[0]);
      const l = num(args[1]);
      if (args.length !== 2 || g < 2 || g > 32 || (g & (g - 1)) !== 0 || l < 0 || l >= g) return null;
      return (0x20 - g) | (l << 5);
    }
    case 'BITMASK_PERM': {
      const s = /^"([01pi]{5})"$/.exec(args[0] ?? '');
      if (args.length !== 1 || !s) return null;
      // as llvm-mc encodes it: '0' and '1' force the bit (and=0, or=bit), 'p' keeps it, 'i' inverts it
      let and = 0, or = 0, xor = 0;
      for (let i = 0; i < 5; i++) {
        const bit = 1 << (4 - i);
        const c = s[1]![i]!;
        if (c === '1') or |= bit;
        else if (c === 'p') and |= bit;
        else if (c === 'i') { and |= bit; xor |= bit; }
      }
      return and | (or << 5) | (xor << 10);
    }
    default: return null;
  }
}

// ---- codec ---------------------------------------------------------------------------------

/** The DS codec over a target's generated table (GFX10.3 shares GFX11's DS layout). */
export function makeDsCodec(
  ops: Readonly<Record<number, DsEntry>>, aliases: Readonly<Record<string, string>>, name = 'DS',
  /** Low bits of the opcode and gds fields: GFX10/11 op[25:18] gds[17]; GFX9 op[24:17] gds[16]. */
  layout: { readonly opLo: number; readonly gdsLo: number } = { opLo: 18, gdsLo: 17 },
): Codec {
const { opLo, gdsLo } = layout;
const TABLE: (DsEntry | undefined)[] = [];
const BY_NAME = new Map<string, { op: number; e: DsEntry }>();
for (const [k, e] of Object.entries(ops)) {
  TABLE[Number(k)] = e;
  BY_NAME.set(e.mn, { op: Number(k), e });
}
return {
  name,
  matches: (w0) => w0 >>> 26 === PREFIX,
  decode(words, index, pc): Instruction {
    const w0 = word(words, index, 0, pc);
    const w1 = word(words, index, 1, pc);
    const op = (w0 >>> opLo) & 0xff;
    const e = TABLE[op];
    if (!e) throw new DecodeError(pc, [w0, w1], `DS opcode ${op} is not defined`);
    const gds = (w0 >>> gdsLo) & 1;
    if ((gds && e.gds === 'no') || (!gds && e.gds === 'req')) throw new DecodeError(pc, [w0, w1], `gds=${gds} not allowed for ${e.mn}`);
    const offset0 = w0 & 0xff;
    const offset1 = (w0 >>> 8) & 0xff;
    for (const z of e.zero) {
      const v = z === 'offset' ? offset0 | offset1 : fieldOf(w1, z);
      if (v !== 0) throw new DecodeError(pc, [w0, w1], `field ${z} must be zero for ${e.mn}`);
    }
    for (const [f, n] of e.ops) if (fieldOf(w1, f) + n > 256) throw new DecodeError(pc, [w0, w1], `register range of ${f} exceeds v255`);
    return {
      encoding: 'DS', opcode: op, mnemonic: e.mn, size: 8, words: [w0, w1],
      fields: { op, offset0, offset1, gds, addr: w1 & 0xff, data0: (w1 >>> 8) & 0xff, data1: (w1 >>> 16) & 0xff, vdst: w1 >>> 24 },
      literal: undefined, variant: '', info: e,
    };
  },
  print(inst): string {
    const e = inst.info as DsEntry;
    const f = inst.fields;
    let s = e.mn;
    if (e.ops.length) s += ' ' + e.ops.map(([n, c]) => vregName(f[n]!, c)).join(', ');
    const o0 = f.offset0!;
    const o1 = f.offset1!;
    if (e.off === 'pair') {
      if (o0) s += ` offset0:${o0}`;
      if (o1) s += ` offset1:${o1}`;
    } else if (e.off !== 'none') {
      const off = o0 | (o1 << 8);
      if (off) s += ` offset:${e.off === 'swz' ? swizzleText(off) : off}`;
    }
    if (f.gds) s += ' gds';
    return s;
  },
  assemble(l: AsmLine): number[] | null {
    const hit = BY_NAME.get(l.mnemonic) ?? BY_NAME.get(aliasOf(aliases, l.mnemonic));
    if (!hit) return null;
    const { op, e } = hit;
    let ops: string[];
    let mods: string[];
    if (e.ops.length) ({ ops, mods } = splitLine(l.rest));
    else { ops = []; mods = allMods(l.rest); }
    if (ops.length !== e.ops.length) throw new AsmError(l.line, `${e.mn} takes ${e.ops.length} operands, got ${ops.length}`);
    let w1 = 0;
    e.ops.forEach(([f, n], i) => { w1 |= parseVgpr(l, ops[i]!, n) << SHIFT[f]!; });
    const m = parseMods(l, mods, ['gds'], e.off === 'pair' ? ['offset0', 'offset1'] : e.off === 'none' ? [] : ['offset']);
    let off = 0;
    if (e.off === 'pair') {
      off = (m.vals.has('offset0') ? parseIntIn(l, m.vals.get('offset0')!, 0, 255, 'offset0') : 0)
        | ((m.vals.has('offset1') ? parseIntIn(l, m.vals.get('offset1')!, 0, 255, 'offset1') : 0) << 8);
    } else if (m.vals.has('offset')) {
      const t = m.vals.get('offset')!;
      const sw = e.off === 'swz' && /^swizzle/i.test(t) ? parseSwizzle(t) : null;
      if (e.off === 'swz' && /^swizzle/i.test(t) && sw === null) throw new AsmError(l.line, `invalid swizzle '${t}'`);
      off = sw ?? parseIntIn(l, t, 0, 65535, 'offset');
    }
    const gds = m.flags.has('gds') ? 1 : 0;
    if (e.gds === 'no' && gds) throw new AsmError(l.line, `gds is not allowed for ${e.mn}`);
    if (e.gds === 'req' && !gds) throw new AsmError(l.line, `${e.mn} requires gds`);
    const w0 = ((PREFIX << 26) | bf(op, opLo, 8) | bf(gds, gdsLo, 1) | off) >>> 0;
    return [w0, w1 >>> 0];
  },
};
}

export const dsCodec: Codec = makeDsCodec(DS_OPS, DS_ALIASES);
