/**
 * FLAT / GLOBAL / SCRATCH codec, shared by GFX9, GFX10.3 and GFX11 over per-target layout data.
 *
 * GFX11 word 0: offset[12:0] dlc[13] glc[14] slc[15] seg[17:16] (0 flat, 1 scratch, 2 global)
 * op[24:18] prefix[31:26]=0b110111; word 1: addr[7:0] data[15:8] saddr[22:16] (0x7c = off)
 * sve[23] (scratch: vaddr present) vdst[31:24].
 * GFX10.3: offset[11:0] dlc[12] lds[13] seg[15:14] glc[16] slc[17]; saddr 0x7d = off; nv[23].
 * GFX9: offset[12:0] lds[13] seg[15:14] glc[16] slc[17]; saddr 0x7f = off; nv[23].
 * Before GFX11 there is no sve: scratch reads its VGPR address exactly when saddr is off.
 * Per-opcode operand lists (with and without glc, and with lds) come from the targets' flat.gen.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type EncodingName, type Instruction } from '../types.js';
import { GFX11_SPACE, sregName, vregName } from '../operands.js';
import { FLAT_ALIASES, FLAT_OPS } from './flat.gen.js';
import { aliasOf, bf, parseIntIn, parseMods, parseSreg, parseVgpr, splitLine, word } from './memory-common.js';

const PREFIX = 0b110111;
const SEG_NAMES = ['flat', 'scratch', 'global'] as const;
const ENC: readonly EncodingName[] = ['FLAT', 'SCRATCH', 'GLOBAL'];

type Ops = readonly (readonly [string, number])[];

/** One FLAT-family opcode: operands without/with glc, and (GFX9/GFX10) with the lds bit. */
export interface FlatEntry {
  readonly mn: string;
  readonly ops: Ops;
  readonly opsGlc: Ops;
  /** Operands when the lds bit is set (the load goes to LDS, no vdst); absent: lds is rejected. */
  readonly opsLds?: Ops;
  readonly zero: readonly string[];
}

/** A bit position, or -1 when the target has no such bit. */
type Bit = number;

/** What differs between targets' FLAT encodings: data, checked by the golden files. */
export interface FlatLayout {
  readonly name: string;
  readonly tables: Readonly<Record<'flat' | 'scratch' | 'global', Readonly<Record<number, FlatEntry>>>>;
  readonly aliases: Readonly<Record<string, string>>;
  /** Word-0 offset width; FLAT's is unsigned, GLOBAL/SCRATCH's signed. llvm-mc takes one bit fewer. */
  readonly offsetBits: number;
  readonly seg: number;
  readonly glc: Bit;
  readonly slc: Bit;
  readonly dlc: Bit;
  readonly lds: Bit;
  /** Word-1 bit 23 (GFX11 sve). */
  readonly sve: Bit;
  /** Word-1 bit 23 on GFX9/GFX10 (nv): 'ign' LLVM ignores it, 'no' LLVM rejects it. */
  readonly nv: 'ign' | 'no' | 'none';
  /** The saddr value meaning "no SGPR base". */
  readonly saddrOff: number;
  /** LLVM's text for each saddr value per segment (null: rejected; FLAT: '' for its one valid value). */
  readonly saddr: readonly (readonly (string | null)[])[];
}

/**
 * The FLAT/GLOBAL/SCRATCH codec for one target. `fields` holds the hardware fields as encoded
 * (offset unextended); `fields.seg` is 0 flat, 1 scratch, 2 global.
 */
export function makeFlatCodec(L: FlatLayout): Codec {
  const tables: (FlatEntry | undefined)[][] = [[], [], []];
  const byName = new Map<string, { seg: number; op: number; e: FlatEntry }>();
  SEG_NAMES.forEach((sg, seg) => {
    for (const [k, e] of Object.entries(L.tables[sg])) {
      tables[seg]![Number(k)] = e;
      byName.set(e.mn, { seg, op: Number(k), e });
    }
  });
  const saddrValue: Map<string, number>[] = L.saddr.map((tb) => {
    const m = new Map<string, number>();
    tb.forEach((t, v) => { if (t !== null && !m.has(t)) m.set(t, v); });
    return m;
  });
  const flatSaddr = L.saddr[0]!.findIndex((t) => t !== null);
  const stOff = L.saddr[1]!.findIndex((t, v) => t === 'off' && v !== L.saddrOff);
  const offMask = (1 << L.offsetBits) - 1;
  const sh = 32 - L.offsetBits;
  const bit = (w: number, b: Bit) => (b < 0 ? 0 : (w >>> b) & 1);
  /** VGPRs in the address operand: flat 2; global 2 with saddr off else 1; scratch 1 with a VGPR address else none. */
  const addrCount = (seg: number, saddr: number, sve: number): number => {
    if (seg === 0) return 2;
    if (seg === 2) return saddr === L.saddrOff ? 2 : 1;
    return (L.sve >= 0 ? sve : saddr === L.saddrOff ? 1 : 0);
  };
  const opsOf = (e: FlatEntry, f: Readonly<Record<string, number>>): Ops => (f.lds ? e.opsLds! : f.glc ? e.opsGlc : e.ops);

  return {
    name: `${L.name}FLAT`,
    matches: (w0) => w0 >>> 26 === PREFIX,
    decode(words, index, pc): Instruction {
      const w0 = word(words, index, 0, pc);
      const w1 = word(words, index, 1, pc);
      const seg = (w0 >>> L.seg) & 3;
      const op = (w0 >>> 18) & 0x7f;
      const bad = (why: string) => new DecodeError(pc, [w0, w1], why);
      if (seg === 3) throw bad('reserved FLAT segment 3');
      const e = tables[seg]![op];
      if (!e) throw bad(`${SEG_NAMES[seg]} opcode ${op} is not defined`);
      const f: Record<string, number> = {
        op, seg, offset: w0 & offMask, glc: bit(w0, L.glc), slc: bit(w0, L.slc),
        addr: w1 & 0xff, data: (w1 >>> 8) & 0xff, saddr: (w1 >>> 16) & 0x7f, vdst: w1 >>> 24,
      };
      if (L.dlc >= 0) f.dlc = bit(w0, L.dlc);
      if (L.lds >= 0) f.lds = bit(w0, L.lds);
      if (L.sve >= 0) f.sve = bit(w1, L.sve);
      if (L.nv !== 'none') f.nv = bit(w1, 23);
      if (L.sve >= 0) {
        if (seg === 0 && (f.saddr !== L.saddrOff || f.sve)) throw bad('flat requires saddr=off and sve=0');
        if (seg === 2 && f.sve) throw bad('global requires sve=0');
      }
      if (f.nv && L.nv === 'no') throw bad('nv must be zero');
      if (L.saddr[seg]![f.saddr!] === null) throw bad(`invalid ${SEG_NAMES[seg]} saddr ${f.saddr}`);
      if (f.lds && !e.opsLds) throw bad(`${e.mn} has no lds form`);
      for (const z of e.zero) if (f[z] !== 0) throw bad(`field ${z} must be zero for ${e.mn}`);
      for (const [n, c] of opsOf(e, f)) {
        const cnt = n === 'addr' ? addrCount(seg, f.saddr!, f.sve ?? 0) : n === 'saddr' ? 0 : c;
        if (cnt && f[n]! + cnt > 256) throw bad(`register range of ${n} exceeds v255`);
      }
      return {
        encoding: ENC[seg]!, opcode: op, mnemonic: e.mn, size: 8, words: [w0, w1], fields: f,
        literal: undefined, variant: '', info: e,
      };
    },
    print(inst): string {
      const e = inst.info as FlatEntry;
      const f = inst.fields;
      const seg = f.seg!;
      const ops = opsOf(e, f).map(([n, c]) => {
        if (n === 'addr') {
          const k = addrCount(seg, f.saddr!, f.sve ?? 0);
          return k ? vregName(f.addr!, k) : 'off';
        }
        if (n === 'saddr') return L.saddr[seg]![f.saddr!]!;
        return vregName(f[n]!, c);
      });
      let s = e.mn + (ops.length ? ' ' + ops.join(', ') : '');
      const off = seg === 0 ? f.offset! : (f.offset! << sh) >> sh;
      if (off) s += ` offset:${off}`;
      if (f.glc) s += ' glc';
      if (f.slc) s += ' slc';
      if (f.dlc) s += ' dlc';
      if (f.lds) s += ' lds';
      return s;
    },
    assemble(l: AsmLine): number[] | null {
      const hit = byName.get(l.mnemonic) ?? byName.get(aliasOf(L.aliases, l.mnemonic));
      if (!hit) return null;
      const { seg, op, e } = hit;
      const { ops, mods } = splitLine(l.rest);
      const flags = ['glc', 'slc'];
      if (L.dlc >= 0) flags.push('dlc');
      if (L.lds >= 0 && e.opsLds) flags.push('lds');
      const m = parseMods(l, mods, flags, ['offset']);
      const glc = m.flags.has('glc') ? 1 : 0;
      const lds = m.flags.has('lds') ? 1 : 0;
      const tmpl = lds ? e.opsLds! : glc ? e.opsGlc : e.ops;
      if (ops.length !== tmpl.length) throw new AsmError(l.line, `${e.mn} takes ${tmpl.length} operands, got ${ops.length}`);
      let addr = 0, data = 0, vdst = 0, saddr = seg === 0 ? flatSaddr : L.saddrOff, sve = 0;
      // saddr first: it decides the width of vaddr on global
      const si = tmpl.findIndex(([n]) => n === 'saddr');
      // `null` as saddr: llvm-mc encodes the value `off` has, but reads the line as having an SGPR
      // base (a 32-bit VGPR offset on global; no scratch ST-mode substitution).
      let nullSaddr = false;
      if (si >= 0) {
        const t = ops[si]!.trim().toLowerCase();
        nullSaddr = t === 'null';
        if (L.sve >= 0) {
          if (t !== 'off') saddr = parseSreg(l, t, seg === 2 ? 2 : 1).value;
        } else {
          const v = nullSaddr ? L.saddrOff : saddrValue[seg]!.get(t);
          if (v === undefined) throw new AsmError(l.line, `invalid ${SEG_NAMES[seg]} saddr '${ops[si]}'`);
          saddr = v;
        }
      }
      tmpl.forEach(([n, c], i) => {
        const t = ops[i]!;
        if (n === 'addr') {
          if (seg === 1) {
            const off = t.trim().toLowerCase() === 'off';
            if (L.sve >= 0) {
              if (off) return;
              sve = 1;
            } else {
              // no VGPR address and saddr 'off' too: the other saddr value LLVM prints as off (GFX10: 0x7f)
              if (off && saddr === L.saddrOff && !nullSaddr) saddr = stOff;
              if (off !== (saddr !== L.saddrOff || nullSaddr) || saddr < 0) throw new AsmError(l.line, 'scratch takes exactly one of a VGPR address and saddr');
              if (off) return;
            }
            addr = parseVgpr(l, t, 1);
          } else addr = parseVgpr(l, t, seg === 2 && (saddr !== L.saddrOff || nullSaddr) ? 1 : 2);
        } else if (n === 'data') data = parseVgpr(l, t, c);
        else if (n === 'vdst') vdst = parseVgpr(l, t, c);
      });
      let offset = 0;
      const lim = 1 << (L.offsetBits - 1);
      if (m.vals.has('offset')) offset = parseIntIn(l, m.vals.get('offset')!, seg === 0 ? 0 : -lim, lim - 1, 'offset');
      const b = (v: number, at: Bit) => (at < 0 ? 0 : bf(v, at, 1));
      const w0 = ((PREFIX << 26) | bf(op, 18, 7) | bf(seg, L.seg, 2) | b(m.flags.has('slc') ? 1 : 0, L.slc) | b(glc, L.glc)
        | b(m.flags.has('dlc') ? 1 : 0, L.dlc) | b(lds, L.lds) | bf(offset, 0, L.offsetBits)) >>> 0;
      const w1 = (bf(vdst, 24, 8) | b(sve, L.sve) | bf(saddr, 16, 7) | bf(data, 8, 8) | addr) >>> 0;
      return [w0, w1];
    },
  };
}

// ---- GFX11 -------------------------------------------------------------------------------------

const SADDR_OFF = 0x7c;
const EXEC_HI = 0x7f;

/**
 * LLVM's name for a global saddr pair, or null. SGPR and TTMP pairs ignore the low bit (LLVM
 * decodes s5 as s[4:5]); vcc and exec must be exact.
 */
function globalSaddr(v: number): string | null {
  if (v === SADDR_OFF) return 'off';
  if (v < 106 || (v >= 108 && v <= 123)) return sregName(GFX11_SPACE, v & ~1, 2);
  return v === 106 || v === 126 ? sregName(GFX11_SPACE, v, 2) : null;
}

/** LLVM's text for a scratch saddr (one SGPR); exec_hi is printed with LLVM's diagnostic comment. */
function scratchSaddr(v: number): string | null {
  if (v === SADDR_OFF) return 'off';
  if (v === EXEC_HI) return "exec_hi/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/";
  return sregName(GFX11_SPACE, v, 1);
}

const range = (f: (v: number) => string | null) => Array.from({ length: 128 }, (_, v) => f(v));

export const GFX11_FLAT: FlatLayout = {
  name: '', tables: FLAT_OPS, aliases: FLAT_ALIASES, offsetBits: 13, seg: 16, glc: 14, slc: 15, dlc: 13, lds: -1, sve: 23, nv: 'none',
  saddrOff: SADDR_OFF,
  saddr: [range((v) => (v === SADDR_OFF ? '' : null)), range(scratchSaddr), range(globalSaddr)],
};

export const flatCodec: Codec = makeFlatCodec(GFX11_FLAT);
