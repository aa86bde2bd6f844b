/**
 * GFX11 FLAT / GLOBAL / SCRATCH codec. Word 0: offset[12:0] dlc[13] glc[14] slc[15] seg[17:16]
 * (0 flat, 1 scratch, 2 global) op[24:18] prefix[31:26]=0b110111; word 1: addr[7:0] data[15:8]
 * saddr[22:16] (0x7c = off) sve[23] (scratch: vaddr present) vdst[31:24].
 * Per-opcode operand lists (with and without glc) come from flat.gen.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type EncodingName, type Instruction } from '../types.js';
import { GFX11_SPACE, sregName, vregName } from '../operands.js';
import { FLAT_ALIASES, FLAT_OPS, type FlatEntry } from './flat.gen.js';
import { aliasOf, bf, parseIntIn, parseMods, parseSreg, parseVgpr, splitLine, word } from './memory-common.js';

const PREFIX = 0b110111;
const SADDR_OFF = 0x7c;
const EXEC_HI = 0x7f;
const SEG_NAMES = ['flat', 'scratch', 'global'] as const;
const ENC: readonly EncodingName[] = ['FLAT', 'SCRATCH', 'GLOBAL'];

const TABLES: (FlatEntry | undefined)[][] = [[], [], []];
const BY_NAME = new Map<string, { seg: number; op: number; e: FlatEntry }>();
SEG_NAMES.forEach((sg, seg) => {
  for (const [k, e] of Object.entries(FLAT_OPS[sg])) {
    TABLES[seg]![Number(k)] = e;
    BY_NAME.set(e.mn, { seg, op: Number(k), e });
  }
});

/**
 * LLVM's name for a global saddr pair, or null. SGPR and TTMP pairs ignore the low bit (LLVM
 * decodes s5 as s[4:5]); vcc and exec must be exact.
 */
function globalSaddr(v: number): string | null {
  if (v < 106 || (v >= 108 && v <= 123)) return sregName(GFX11_SPACE, v & ~1, 2);
  return v === 106 || v === 126 ? sregName(GFX11_SPACE, v, 2) : null;
}

/** LLVM's text for a scratch saddr (one SGPR); exec_hi is printed with LLVM's diagnostic comment. */
function scratchSaddr(v: number): string | null {
  if (v === SADDR_OFF) return 'off';
  if (v === EXEC_HI) return "exec_hi/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/";
  return sregName(GFX11_SPACE, v, 1);
}

const GLOBAL_SADDR_OK: boolean[] = [];
const SCRATCH_SADDR_OK: boolean[] = [];
for (let v = 0; v < 128; v++) {
  GLOBAL_SADDR_OK[v] = v === SADDR_OFF || globalSaddr(v) !== null;
  SCRATCH_SADDR_OK[v] = scratchSaddr(v) !== null;
}

export const flatCodec: Codec = {
  name: 'FLAT',
  matches: (w0) => w0 >>> 26 === PREFIX,
  decode(words, index, pc): Instruction {
    const w0 = word(words, index, 0, pc);
    const w1 = word(words, index, 1, pc);
    const seg = (w0 >>> 16) & 3;
    const op = (w0 >>> 18) & 0x7f;
    const bad = (why: string) => new DecodeError(pc, [w0, w1], why);
    if (seg === 3) throw bad('reserved FLAT segment 3');
    const e = TABLES[seg]![op];
    if (!e) throw bad(`${SEG_NAMES[seg]} opcode ${op} is not defined`);
    const f = {
      op, seg, offset: w0 & 0x1fff, dlc: (w0 >>> 13) & 1, glc: (w0 >>> 14) & 1, slc: (w0 >>> 15) & 1,
      addr: w1 & 0xff, data: (w1 >>> 8) & 0xff, saddr: (w1 >>> 16) & 0x7f, sve: (w1 >>> 23) & 1, vdst: w1 >>> 24,
    };
    if (seg === 0 && (f.saddr !== SADDR_OFF || f.sve)) throw bad('flat requires saddr=off and sve=0');
    if (seg === 2) {
      if (f.sve) throw bad('global requires sve=0');
      if (!GLOBAL_SADDR_OK[f.saddr]) throw bad(`invalid global saddr ${f.saddr}`);
    }
    if (seg === 1 && !SCRATCH_SADDR_OK[f.saddr]) throw bad(`invalid scratch saddr ${f.saddr}`);
    for (const z of e.zero) if ((f as Record<string, number>)[z] !== 0) throw bad(`field ${z} must be zero for ${e.mn}`);
    for (const [n, c] of f.glc ? e.opsGlc : e.ops) {
      const cnt = n === 'addr' ? addrCount(seg, f.saddr, f.sve) : n === 'saddr' ? 0 : c;
      if (cnt && (f as Record<string, number>)[n]! + cnt > 256) throw bad(`register range of ${n} exceeds v255`);
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
    const ops = (f.glc ? e.opsGlc : e.ops).map(([n, c]) => {
      if (n === 'addr') {
        const k = addrCount(seg, f.saddr!, f.sve!);
        return k ? vregName(f.addr!, k) : 'off';
      }
      if (n === 'saddr') return seg === 2 ? (f.saddr === SADDR_OFF ? 'off' : globalSaddr(f.saddr!)!) : scratchSaddr(f.saddr!)!;
      return vregName(f[n]!, c);
    });
    let s = e.mn + (ops.length ? ' ' + ops.join(', ') : '');
    const off = seg === 0 ? f.offset! : (f.offset! << 19) >> 19;
    if (off) s += ` offset:${off}`;
    if (f.glc) s += ' glc';
    if (f.slc) s += ' slc';
    if (f.dlc) s += ' dlc';
    return s;
  },
  assemble(l: AsmLine): number[] | null {
    const hit = BY_NAME.get(l.mnemonic) ?? BY_NAME.get(aliasOf(FLAT_ALIASES, l.mnemonic));
    if (!hit) return null;
    const { seg, op, e } = hit;
    const { ops, mods } = splitLine(l.rest);
    const m = parseMods(l, mods, ['glc', 'slc', 'dlc'], ['offset']);
    const glc = m.flags.has('glc') ? 1 : 0;
    const tmpl = glc ? e.opsGlc : e.ops;
    if (ops.length !== tmpl.length) throw new AsmError(l.line, `${e.mn} takes ${tmpl.length} operands, got ${ops.length}`);
    let addr = 0, data = 0, vdst = 0, saddr = SADDR_OFF, sve = 0;
    // saddr first: it decides the width of vaddr on global
    const si = tmpl.findIndex(([n]) => n === 'saddr');
    if (si >= 0) {
      const t = ops[si]!.trim().toLowerCase();
      if (t !== 'off') saddr = parseSreg(l, t, seg === 2 ? 2 : 1).value;
    }
    tmpl.forEach(([n, c], i) => {
      const t = ops[i]!;
      if (n === 'addr') {
        if (seg === 1) {
          if (t.trim().toLowerCase() === 'off') return;
          sve = 1;
          addr = parseVgpr(l, t, 1);
        } else addr = parseVgpr(l, t, seg === 2 && saddr !== SADDR_OFF ? 1 : 2);
      } else if (n === 'data') data = parseVgpr(l, t, c);
      else if (n === 'vdst') vdst = parseVgpr(l, t, c);
    });
    let offset = 0;
    if (m.vals.has('offset')) offset = seg === 0 ? parseIntIn(l, m.vals.get('offset')!, 0, 4095, 'offset') : parseIntIn(l, m.vals.get('offset')!, -4096, 4095, 'offset');
    const w0 = ((PREFIX << 26) | bf(op, 18, 7) | bf(seg, 16, 2) | bf(m.flags.has('slc') ? 1 : 0, 15, 1) | bf(glc, 14, 1)
      | bf(m.flags.has('dlc') ? 1 : 0, 13, 1) | bf(offset, 0, 13)) >>> 0;
    const w1 = (bf(vdst, 24, 8) | bf(sve, 23, 1) | bf(saddr, 16, 7) | bf(data, 8, 8) | addr) >>> 0;
    return [w0, w1];
  },
};

/** VGPRs in the address operand: flat 2; global 2 with saddr=off else 1; scratch 1 with sve else none. */
function addrCount(seg: number, saddr: number, sve: number): number {
  if (seg === 0) return 2;
  if (seg === 2) return saddr === SADDR_OFF ? 2 : 1;
  return sve ? 1 : 0;
}
