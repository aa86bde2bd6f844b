/**
 * MIMG codec, a factory over the per-generation layout (`MimgLayout`); GFX11's: word 0: nsa[0] dim[4:2] unorm[7] dmask[11:8] slc[12] dlc[13] glc[14] r128[15]
 * a16[16] d16[17] op[25:18] prefix[31:26]=0b111100; word 1: vaddr[7:0] vdata[15:8] srsrc[20:16] (x4)
 * tfe[21] lwe[22] ssamp[30:26] (x4). With nsa=1 one more dword holds the further address VGPRs,
 * one per byte. The VGPR counts LLVM decodes (by dim/a16, by dmask/d16/tfe, and the NSA lists)
 * are data from mimg.gen.ts, so the printer matches LLVM even where LLVM's choice is surprising.
 * GFX10.3: op[24:18] with op bit 7 at [0], nsa[2:1] = the number of NSA dwords, dim[5:3], dlc[7]
 * unorm[12] glc[13] r128[15] tfe[16] lwe[17] slc[25]; ssamp word 1 [25:21], a16/d16 word 1 [30]/[31].
 * GFX10's NSA field is the dword count: LLVM decodes through the first-match variant for that
 * count (MIMG_NSA_ORIG) and converts to the dim/a16 list when it has no more addresses.
 * GFX9: op[24:18], no dim and no NSA (da[14] declares an array; the T# says 1D/2D/3D), unorm[12]
 * glc[13] a16[15] (GFX8's r128) tfe[16] lwe[17] slc[25], ssamp word 1 [25:21], d16 word 1 [31].
 * The address width is not encoded: LLVM prints its first match and llvm-mc accepts any width a
 * variant has (MIMG_VADDR_ASM); word 0 bit 0 must be clear (MIMG_RESERVED).
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { GFX11_SPACE, parseIntText, parseReg, sregName, vregName } from '../operands.js';
import { MIMG_ALIASES, MIMG_DIMS, MIMG_OPS, type MimgEntry } from './mimg.gen.js';
import { aliasOf, bf, parseMods, parseVgpr, splitLine, word } from './memory-common.js';

type FlagName = 'unorm' | 'glc' | 'slc' | 'dlc' | 'r128' | 'lwe' | 'a16' | 'd16' | 'tfe' | 'da';
const FLAG_NAMES: readonly FlagName[] = ['unorm', 'glc', 'slc', 'dlc', 'r128', 'lwe', 'a16', 'd16', 'tfe', 'da'];

/** Where a generation keeps the MIMG fields (bit positions; [word, bit] for the flags). */
export interface MimgLayout {
  readonly codec: string;
  readonly prefix: number;
  readonly table: Readonly<Record<number, MimgEntry>>;
  readonly dims: readonly string[];
  readonly aliases: Readonly<Record<string, string>>;
  /** The generation's single-bit modifiers ([word, bit]); absent ones do not exist there. */
  readonly flags: Readonly<Partial<Record<FlagName, readonly [0 | 1, number]>>>;
  /** op: low bit and width in word 0; opHi: word-0 bit of op bit `op.n` (GFX10), or -1. */
  readonly op: readonly [number, number];
  readonly opHi: number;
  /** nsa: low bit and width (1: a flag, the list length decides the dwords; 2: the dword count; 0: no NSA). */
  readonly nsa: readonly [number, number];
  /** Low bit of the 3-bit dim field, or -1 (GFX9: no dim). */
  readonly dimLo: number;
  readonly ssampLo: number;
  /** GFX10: the first-match [vdata width, address widths] per opcode for NSA dword counts 1..3. */
  readonly nsaOrig?: Readonly<Record<number, readonly (readonly [number, string] | null)[]>>;
  /** Word 0 / word 1 bits no field names that must be clear (GFX9). */
  readonly reserved?: readonly [number, number];
  /** LLVM's text per srsrc (8 SGPRs) / ssamp field value, null rejected (GFX9: its own SGPR/TTMP numbering). */
  readonly rsrcText?: Readonly<{ srsrc: readonly (string | null)[]; ssamp: readonly (string | null)[] }>;
  /** Without dim (GFX9): the address widths the assembler accepts per opcode (base 36 digits). */
  readonly vaddrAsm?: Readonly<Record<number, string>>;
}
/** The order LLVM prints the single-bit modifiers in. */
const PRINT_ORDER = ['unorm', 'glc', 'slc', 'dlc', 'r128', 'a16', 'tfe', 'lwe', 'da', 'd16'] as const;

/** `inst.info` of a decoded MIMG instruction: the table entry and the widths LLVM prints. */
export interface MimgDecoded {
  readonly e: MimgEntry;
  /** Address operand: VGPR start/width pairs (one pair unless NSA). */
  readonly addr: readonly (readonly [number, number])[];
  readonly nsa: boolean;
  readonly vd: number;
}

const NSA_WIDTHS: Map<string, number[]> = new Map();
function widths(s: string): number[] {
  let w = NSA_WIDTHS.get(s);
  if (!w) { w = s.split(',').map(Number); NSA_WIDTHS.set(s, w); }
  return w;
}

/** Per-opcode numbers precomputed from the generated strings so decode does table lookups only. */
interface Fast {
  /** Bits of word 0 / word 1 that must be clear, and that must be set. */
  readonly rej0: number; readonly rej1: number; readonly req0: number; readonly req1: number;
  /** Address VGPRs per dim*2+a16: -1 rejected, 0 no variant. */
  readonly addr: Int8Array;
  /** Printed vdata width per dword count (index 1..5), 0 no variant. */
  readonly w: Uint8Array;
  /** NSA widths per dim*2+a16: undefined rejected, null no variant. */
  readonly nsa: readonly (readonly number[] | null | undefined)[];
  readonly origNsa: readonly number[];
}
/** Whether each srsrc/ssamp field value names a tuple, by tuple size (made at the first MIMG decode). */
let rsrcOk: Record<number, boolean[]> | null = null;
function rsrcOkTable(): Record<number, boolean[]> {
  if (rsrcOk === null) {
    rsrcOk = { 4: [], 8: [] };
    for (const n of [4, 8]) for (let v = 0; v < 32; v++) rsrcOk[n]![v] = rsrcName(v, n) !== null;
  }
  return rsrcOk;
}

/** LLVM's vdata dword count for dmask/d16/tfe (4 channels for gather4-like ops; packed d16). */
export function mimgDst(g4: boolean, dmask: number, d16: number, tfe: number): number {
  let n = 0;
  for (let m = dmask; m; m &= m - 1) n++;
  let d = g4 ? 4 : Math.max(n, 1);
  if (d16) d = (d + 1) >> 1;
  return d + tfe;
}

/** srsrc/ssamp: a 4-aligned SGPR/TTMP tuple of `n` dwords, or null when the field is 31. */
function rsrcName(v: number, n: number): string | null {
  return v === 31 ? 'null' : sregName(GFX11_SPACE, v * 4, n);
}

function fastTable(L: MimgLayout): (Fast | undefined)[] {
  const FAST: (Fast | undefined)[] = [];
  for (const [k, e] of Object.entries(L.table)) {
  let rej0 = L.reserved?.[0] ?? 0, rej1 = L.reserved?.[1] ?? 0, req0 = 0, req1 = 0;
  for (const n of FLAG_NAMES) {
    const at = L.flags[n];
    if (!at) continue;
    const [wi, b] = at;
    if (e.flags[n] === 'no') { if (wi) rej1 |= 1 << b; else rej0 |= 1 << b; }
    if (e.flags[n] === 'req') { if (wi) req1 |= 1 << b; else req0 |= 1 << b; }
  }
  if (!e.sampler) rej1 |= 0x1f << L.ssampLo;
  const addr = new Int8Array(16);
  for (let i = 0; i < 16; i++) addr[i] = e.addr[i] === '-' ? -1 : parseInt(e.addr[i]!, 36);
  const w = new Uint8Array(6);
  for (let i = 1; i <= 5; i++) w[i] = parseInt(e.dset[i - 1] ?? '0', 36);
  FAST[Number(k)] = {
    rej0: rej0 >>> 0, rej1: rej1 >>> 0, req0, req1, addr, w,
    nsa: e.nsa.map((x) => (x === '-' ? undefined : x === '' ? null : widths(x))),
    origNsa: widths(e.origNsa || '1'),
  };
}
  return FAST;
}

/** A MIMG layout's opcode tables: entries and precomputed numbers by opcode, entries by mnemonic. */
interface MimgTables {
  readonly TABLE: (MimgEntry | undefined)[];
  readonly BY_NAME: Map<string, { op: number; e: MimgEntry }>;
  readonly FAST: (Fast | undefined)[];
}

function mimgTables(L: MimgLayout): MimgTables {
  const TABLE: (MimgEntry | undefined)[] = [];
  const BY_NAME = new Map<string, { op: number; e: MimgEntry }>();
  for (const [k, e] of Object.entries(L.table)) {
    TABLE[Number(k)] = e;
    BY_NAME.set(e.mn, { op: Number(k), e });
  }
  return { TABLE, BY_NAME, FAST: fastTable(L) };
}

/**
 * The MIMG codec of layout `L`. Its tables are made at its first decode or assembly: a process
 * whose code has no image instruction (most compute kernels) never makes them (~2-3 ms of every
 * start-up for the three targets' layouts).
 */
export function makeMimgCodec(L: MimgLayout): Codec {
  let tables: MimgTables | null = null;
  const T = (): MimgTables => (tables ??= mimgTables(L));
  const PREFIX = L.prefix;
  const countNsa = L.nsa[1] > 1;
  const FLAGS = FLAG_NAMES.filter((n) => L.flags[n]);
  // srsrc/ssamp texts: the generated table, or GFX11's register names (4-aligned tuples, 31 = null)
  const RT = L.rsrcText;
  const rname = (v: number, n: number): string | null => (RT ? (n === 4 ? RT.ssamp : RT.srsrc)[v] ?? null : rsrcName(v, n));
  const rok = (v: number, n: number): boolean => (RT ? rname(v, n) !== null : rsrcOkTable()[n]![v]!);
  const rparse = (l: AsmLine, t: string, n: number): number => {
    const i = RT ? (n === 4 ? RT.ssamp : RT.srsrc).indexOf(t.trim().toLowerCase()) : -1;
    return i >= 0 ? i : parseRsrc(l, t, n);
  };
  const fb = (f: Record<string, number>, n: FlagName, w0: number, w1: number) => { const [wi, b] = L.flags[n]!; f[n] = ((wi ? w1 : w0) >>> b) & 1; };
  return {
  name: L.codec,
  matches: (w0) => w0 >>> 26 === PREFIX,
  decode(words, index, pc): Instruction {
    const w0 = word(words, index, 0, pc);
    const w1 = word(words, index, 1, pc);
    const bad = (why: string, ws: number[] = [w0, w1]) => new DecodeError(pc, ws, why);
    const op = ((w0 >>> L.op[0]) & ((1 << L.op[1]) - 1)) | (L.opHi >= 0 ? ((w0 >>> L.opHi) & 1) << L.op[1] : 0);
    const { TABLE, FAST } = T();
    const e = TABLE[op];
    if (!e) throw bad(`MIMG opcode ${op} is not defined`);
    const q = FAST[op]!;
    if ((w0 & q.rej0) | (w1 & q.rej1) || (w0 & q.req0) !== q.req0 || (w1 & q.req1) !== q.req1) throw bad(`modifier bits not valid for ${e.mn}`);
    const nsaN = (w0 >>> L.nsa[0]) & ((1 << L.nsa[1]) - 1);
    const nsa = nsaN ? 1 : 0, dim = L.dimLo < 0 ? 0 : (w0 >>> L.dimLo) & 7, dmask = (w0 >>> 8) & 0xf;
    const vaddr = w1 & 0xff, vdata = (w1 >>> 8) & 0xff, srsrc = (w1 >>> 16) & 0x1f, ssamp = (w1 >>> L.ssampLo) & 0x1f;
    const f: Record<string, number> = { op, nsa, dim, dmask, vaddr, vdata, srsrc, ssamp };
    for (const n of FLAGS) fb(f, n, w0, w1);
    const a16 = f.a16 ?? 0, d16 = f.d16 ?? 0, tfe = f.tfe ?? 0;
    const k = dim * 2 + a16;
    if (!rok(srsrc, e.srsrc)) throw bad(`invalid srsrc ${srsrc}`);
    if (e.sampler && !rok(ssamp, 4)) throw bad(`invalid ssamp ${ssamp}`);
    // the first-match decode itself must name registers below v256
    if (e.dimp && vdata + (nsa ? e.origVn : e.origV) > 256) throw bad('vdata range exceeds v255');
    if (e.dimp && !nsa && vaddr + e.origA > 256) throw bad('vaddr range exceeds v255');
    const D = e.dimp ? mimgDst(e.g4, dmask, d16, tfe) : e.origV;
    /** The width LLVM prints for D dwords (its variant's register class), 0 when there is no variant. */
    const W = e.dimp ? q.w[D] ?? 0 : e.origV;
    const ws = [w0, w1];
    let addr: [number, number][];
    let vd: number;
    if (nsa) {
      const lst = q.nsa[k];
      if (lst === undefined) throw bad(`NSA form not valid for ${e.mn} with this dim/a16`, ws);
      // GFX10: the field is the dword count. LLVM decodes through the first match for that count
      // and converts to the dim/a16 list when it needs no more addresses than that variant has.
      // (BVH ops, printed as decoded, take the count their list needs)
      const on = countNsa && e.dimp ? L.nsaOrig?.[op]?.[nsaN - 1] : undefined;
      if (countNsa && (e.dimp ? !on : lst === null || (lst.length + 2) >> 2 !== nsaN)) throw bad(`NSA dword count ${nsaN} not valid for ${e.mn}`, ws);
      const orig = on ? widths(on[1]) : e.dimp ? q.origNsa : lst!;
      const origVn = on ? on[0] : e.origVn;
      const fits = lst !== null && (!on || lst.length <= orig.length);
      const extra = countNsa ? nsaN : (orig.length + 2) >> 2;
      for (let i = 0; i < extra; i++) ws.push(word(words, index, 2 + i, pc));
      const regs = (wd: readonly number[]): [number, number][] =>
        wd.map((w, i) => [i === 0 ? vaddr : (ws[2 + ((i - 1) >> 2)]! >>> (8 * ((i - 1) & 3))) & 0xff, w]);
      const conv = !fits ? null : !e.dimp ? regs(lst!) : W !== 0 && (D === origVn || vdata + W <= 256) ? regs(lst!) : null;
      if (conv && conv.every(([r, w]) => r + w <= 256)) { addr = conv; vd = e.dimp ? W : e.origV; } else { addr = regs(orig); vd = origVn; }
    } else {
      const A = q.addr[k]!;
      if (A < 0) throw bad(`dim/a16 combination not valid for ${e.mn}`);
      if (!e.dimp) { addr = [[vaddr, A]]; vd = e.origV; } else if (A && W !== 0 && (D === e.origV || vdata + W <= 256) && (A === e.origA || vaddr + A <= 256)) {
        addr = [[vaddr, A]];
        vd = W;
      } else { addr = [[vaddr, e.origA]]; vd = e.origV; }
    }
    if (vdata + vd > 256) throw bad('vdata range exceeds v255', ws);
    for (const [r, w] of addr) if (r + w > 256) throw bad('address range exceeds v255', ws);
    const d: MimgDecoded = { e, addr, nsa: !!f.nsa, vd };
    return { encoding: 'MIMG', opcode: op, mnemonic: e.mn, size: ws.length * 4, words: ws, fields: f, literal: undefined, variant: '', info: d };
  },
  print(inst): string {
    const d = inst.info as MimgDecoded;
    const e = d.e;
    const f = inst.fields;
    const addr = d.nsa ? `[${d.addr.map(([r, w]) => vregName(r, w)).join(', ')}]` : vregName(d.addr[0]![0], d.addr[0]![1]);
    let s = `${e.mn} ${vregName(f.vdata!, d.vd)}, ${addr}, ${rname(f.srsrc!, e.srsrc)}`;
    if (e.sampler) s += `, ${rname(f.ssamp!, 4)}`;
    if (e.dimp) {
      if (f.dmask) s += ` dmask:0x${f.dmask.toString(16)}`;
      if (L.dimLo >= 0) s += ` dim:${L.dims[f.dim!]}`;
    }
    for (const n of PRINT_ORDER) {
      if (!f[n]) continue;
      const h = (e.flags as Record<string, string>)[n];
      if (h === undefined || h === 'opt') s += ` ${n}`;
    }
    return s;
  },
  assemble(l: AsmLine): number[] | null {
    const { BY_NAME } = T();
    const hit = BY_NAME.get(l.mnemonic) ?? BY_NAME.get(aliasOf(L.aliases, l.mnemonic));
    if (!hit) return null;
    const { op, e } = hit;
    const { ops, mods } = splitLine(l.rest);
    const nops = e.sampler ? 4 : 3;
    if (ops.length !== nops) throw new AsmError(l.line, `${e.mn} takes ${nops} operands, got ${ops.length}`);
    const m = parseMods(l, mods, [...PRINT_ORDER], ['dmask', 'dim']);
    const fl = (n: string) => (m.flags.has(n) ? 1 : 0);
    let dim = 0;
    if (m.vals.has('dim')) {
      const t = m.vals.get('dim')!.toUpperCase();
      dim = L.dims.findIndex((x) => x === t || x === `SQ_RSRC_IMG_${t}`);
      if (dim < 0) throw new AsmError(l.line, `invalid dim '${m.vals.get('dim')}'`);
    } else if (e.dimp && L.dimLo >= 0) throw new AsmError(l.line, `${e.mn} requires dim`);
    let dmask = e.dimp ? 0 : 0xf;
    if (m.vals.has('dmask')) {
      const v = parseIntText(m.vals.get('dmask')!);
      if (v === null || v < 0 || v > 15) throw new AsmError(l.line, `invalid dmask '${m.vals.get('dmask')}'`);
      dmask = v;
    }
    const bits: Record<string, number> = {};
    for (const n of FLAG_NAMES) {
      bits[n] = e.flags[n] === 'req' ? 1 : fl(n);
      if (bits[n] && (e.flags[n] === 'no' || !L.flags[n])) throw new AsmError(l.line, `${n} is not supported by ${e.mn}`);
    }
    const a16 = fl('a16'), d16 = fl('d16'), tfe = fl('tfe');
    const k = dim * 2 + a16;
    const naddr = parseInt(e.addr[k]!, 36);
    if (!naddr) throw new AsmError(l.line, `dim/a16 combination not valid for ${e.mn}`);
    const vd = e.dimp ? parseInt(e.dset[mimgDst(e.g4, dmask, d16, tfe) - 1] ?? '0', 36) : e.origV;
    if (!vd) throw new AsmError(l.line, `dmask/d16/tfe combination not valid for ${e.mn}`);
    const vdata = parseVgpr(l, ops[0]!, vd);
    // address: a VGPR tuple, or an NSA list [va, vb, ...]
    const at = ops[1]!.trim();
    let vaddr = 0;
    let nsa = 0;
    const extra: number[] = [];
    if (at.startsWith('[')) {
      const items = at.slice(1, -1).split(',').map((x) => x.trim());
      const regs = items.map((x) => {
        const r = parseReg(GFX11_SPACE, x);
        if (!r || r.file !== 'v') throw new AsmError(l.line, `expected VGPRs in the address list, got '${x}'`);
        return [r.value - 256, r.count] as const;
      });
      // llvm-mc keeps a bracketed list in NSA form even when its registers are contiguous
      if (regs.length === 1 && regs[0]![1] === naddr) vaddr = regs[0]![0];
      else {
        const want = e.nsa[k] && e.nsa[k] !== '-' ? widths(e.nsa[k]!) : [];
        if (want.length !== regs.length || want.some((w, i) => w !== regs[i]![1])) {
          throw new AsmError(l.line, `address list does not match ${e.mn} with this dim/a16`);
        }
        nsa = 1;
        vaddr = regs[0]![0];
        for (let i = 1; i < regs.length; i++) {
          const j = (i - 1) >> 2;
          extra[j] = ((extra[j] ?? 0) | (regs[i]![0] << (8 * ((i - 1) & 3)))) >>> 0;
        }
      }
    } else if (L.vaddrAsm) {
      // GFX9: any address width a variant of the opcode has (the encoding does not record it)
      const r = parseReg(GFX11_SPACE, at);
      const ok = L.vaddrAsm[op] ?? '';
      if (!r || r.file !== 'v' || !ok.includes(r.count.toString(36))) {
        throw new AsmError(l.line, `expected a VGPR address of ${[...ok].map((c) => parseInt(c, 36)).join('/')} dword(s) for ${e.mn}, got '${at}'`);
      }
      vaddr = r.value - 256;
    } else vaddr = parseVgpr(l, at, naddr);
    const srsrc = rparse(l, ops[2]!, e.srsrc);
    const ssamp = e.sampler ? rparse(l, ops[3]!, 4) : 0;
    const ws = [(PREFIX << 26) | bf(op, L.op[0], L.op[1]) | bf(dmask, 8, 4) | (L.dimLo >= 0 ? bf(dim, L.dimLo, 3) : 0) | bf(nsa ? (countNsa ? extra.length : 1) : 0, L.nsa[0], L.nsa[1]),
      bf(ssamp, L.ssampLo, 5) | bf(srsrc, 16, 5) | bf(vdata, 8, 8) | vaddr];
    if (L.opHi >= 0) ws[0]! |= bf(op >> L.op[1], L.opHi, 1);
    for (const n of FLAGS) { const [wi, b] = L.flags[n]!; ws[wi]! |= bf(n === 'a16' ? a16 : n === 'd16' ? d16 : n === 'tfe' ? tfe : bits[n]!, b, 1); }
    return [ws[0]! >>> 0, ws[1]! >>> 0, ...extra];
  },
  };
}

export const mimgCodec: Codec = makeMimgCodec({
  codec: 'MIMG', prefix: 0b111100, table: MIMG_OPS, dims: MIMG_DIMS, aliases: MIMG_ALIASES,
  flags: { unorm: [0, 7], glc: [0, 14], slc: [0, 12], dlc: [0, 13], r128: [0, 15], lwe: [1, 22], a16: [0, 16], d16: [0, 17], tfe: [1, 21] },
  op: [18, 8], opHi: -1, nsa: [0, 1], dimLo: 2, ssampLo: 26,
});

function parseRsrc(l: AsmLine, t: string, n: number): number {
  const s = t.trim().toLowerCase();
  if (s === 'null') return 31;
  const r = parseReg(GFX11_SPACE, s);
  if (!r || r.file === 'v' || r.count !== n || r.value & 3) throw new AsmError(l.line, `expected a 4-aligned ${n}-dword scalar tuple, got '${t}'`);
  return r.value >> 2;
}
