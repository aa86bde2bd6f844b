/**
 * Generator for the GFX11 memory and export encodings: DS, MUBUF, MTBUF, MIMG, FLAT/GLOBAL/SCRATCH
 * and EXP. Every fact comes from LLVM: each opcode field is enumerated through llvm-objdump with
 * base encodings whose register fields hold distinct values, and the printed operand list tells
 * which field each operand comes from and how many registers it spans. Fields whose non-zero value
 * makes LLVM reject the word are recorded as must-be-zero. Golden files come from seeded random
 * probes per opcode.
 *
 * Target-parametrised: the per-target part is `GFX11` (mcpu, field layouts, prefixes).
 */
import { assembleLines, disassembleProbes, llvmVersion } from '../llvm.js';
import { buildGolden, formatGolden, rng } from '../golden.js';

// ---------------------------------------------------------------------------------------------
// Field layouts (data, per target)

/** A bit field: dword index, low bit, width. */
export interface Fld { readonly w: number; readonly lo: number; readonly n: number }
const F = (w: number, lo: number, n: number): Fld => ({ w, lo, n });

export const GFX11 = {
  mcpu: 'gfx1100',
  dir: 'src/amd/isa/gfx11',
  golden: 'test/golden/amd/gfx1100',
  ds: {
    prefix: 0b110110, op: F(0, 18, 8), offset0: F(0, 0, 8), offset1: F(0, 8, 8), gds: F(0, 17, 1),
    addr: F(1, 0, 8), data0: F(1, 8, 8), data1: F(1, 16, 8), vdst: F(1, 24, 8),
  },
  flat: {
    prefix: 0b110111, op: F(0, 18, 7), offset: F(0, 0, 13), dlc: F(0, 13, 1), glc: F(0, 14, 1), slc: F(0, 15, 1), seg: F(0, 16, 2),
    addr: F(1, 0, 8), data: F(1, 8, 8), saddr: F(1, 16, 7), sve: F(1, 23, 1), vdst: F(1, 24, 8),
  },
  mubuf: {
    prefix: 0b111000, op: F(0, 18, 8), offset: F(0, 0, 12), slc: F(0, 12, 1), dlc: F(0, 13, 1), glc: F(0, 14, 1), lds: F(0, 16, 1),
    vaddr: F(1, 0, 8), vdata: F(1, 8, 8), srsrc: F(1, 16, 5), tfe: F(1, 21, 1), offen: F(1, 22, 1), idxen: F(1, 23, 1), soffset: F(1, 24, 8),
  },
  mtbuf: {
    prefix: 0b111010, op: F(0, 15, 4), format: F(0, 19, 7), offset: F(0, 0, 12), slc: F(0, 12, 1), dlc: F(0, 13, 1), glc: F(0, 14, 1),
    vaddr: F(1, 0, 8), vdata: F(1, 8, 8), srsrc: F(1, 16, 5), tfe: F(1, 21, 1), offen: F(1, 22, 1), idxen: F(1, 23, 1), soffset: F(1, 24, 8),
  },
  mimg: {
    prefix: 0b111100, op: F(0, 18, 8), nsa: F(0, 0, 1), dim: F(0, 2, 3), unorm: F(0, 7, 1), dmask: F(0, 8, 4), slc: F(0, 12, 1),
    dlc: F(0, 13, 1), glc: F(0, 14, 1), r128: F(0, 15, 1), a16: F(0, 16, 1), d16: F(0, 17, 1),
    vaddr: F(1, 0, 8), vdata: F(1, 8, 8), srsrc: F(1, 16, 5), tfe: F(1, 21, 1), lwe: F(1, 22, 1), ssamp: F(1, 26, 5),
  },
  exp: {
    prefix: 0b111110, en: F(0, 0, 4), target: F(0, 4, 6), done: F(0, 11, 1), rowEn: F(0, 13, 1),
    vsrc0: F(1, 0, 8), vsrc1: F(1, 8, 8), vsrc2: F(1, 16, 8), vsrc3: F(1, 24, 8),
  },
} as const;

type Target = typeof GFX11;

function put(ws: number[], f: Fld | undefined, v: number): void {
  if (!f) return;
  const m = f.n === 32 ? 0xffffffff : (1 << f.n) - 1;
  ws[f.w] = ((ws[f.w]! & ~(m << f.lo)) | ((v & m) << f.lo)) >>> 0;
}
function mk(nw: number, prefix: number): number[] {
  const ws = new Array<number>(nw).fill(0);
  ws[0] = (prefix << 26) >>> 0;
  return ws;
}
function setAll(base: readonly number[], vals: Record<string, number>, lay: Record<string, Fld | number>): number[] {
  const ws = base.slice();
  for (const [k, v] of Object.entries(vals)) put(ws, lay[k] as Fld, v);
  return ws;
}

/** A register token as LLVM prints it: file, first index, count. */
function regTok(t: string): { file: string; base: number; count: number } | null {
  let m = /^(v|s|ttmp)(\d+)$/.exec(t);
  if (m) return { file: m[1]!, base: Number(m[2]), count: 1 };
  m = /^(v|s|ttmp)\[(\d+):(\d+)\]$/.exec(t);
  if (m) return { file: m[1]!, base: Number(m[2]), count: Number(m[3]) - Number(m[2]) + 1 };
  return null;
}

/** Split `mn a, b, c mod mod` into mnemonic, operands and trailing modifiers. */
function parseText(t: string): { mn: string; ops: string[]; mods: string[] } {
  const sp = t.indexOf(' ');
  if (sp < 0) return { mn: t, ops: [], mods: [] };
  const mn = t.slice(0, sp);
  const rest = t.slice(sp + 1);
  // operands are separated by ', '; the last one is followed by space-separated modifiers
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of rest) {
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    if (ch === ',' && depth === 0) { parts.push(cur.trim()); cur = ''; } else cur += ch;
  }
  parts.push(cur.trim());
  const last = parts.pop()!;
  const words: string[] = [];
  depth = 0;
  cur = '';
  for (const ch of last) {
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    if (ch === ' ' && depth === 0) { if (cur) words.push(cur); cur = ''; } else cur += ch;
  }
  if (cur) words.push(cur);
  // modifiers are words containing ':' or bare lowercase flags after the first operand word
  const ops = [...parts];
  if (words.length) ops.push(words.shift()!);
  if (ops.length === 1 && /^[a-z0-9_]+:|^(glc|slc|dlc|gds|offen|idxen|tfe|lds|unorm|r128|a16|d16|lwe)$/.test(ops[0]!) && parts.length === 0) {
    return { mn, ops: [], mods: [ops[0]!, ...words] };
  }
  return { mn, ops, mods: words };
}

/**
 * The operands of an instruction text, keeping LLVM's remarks (`/*Invalid register, operand has
 * ...*\/`, which hold commas) with the operand they follow; the last one loses its modifiers.
 */
function remarkOperands(t: string): string[] {
  const sp = t.indexOf(' ');
  const rest = t.slice(sp + 1);
  const parts: string[] = [];
  let depth = 0;
  let remark = false;
  let cur = '';
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (rest.startsWith('/*', i)) remark = true;
    else if (rest.startsWith('*/', i)) remark = false;
    if (!remark && (ch === '[' || ch === '(')) depth++;
    else if (!remark && (ch === ']' || ch === ')')) depth--;
    if (ch === ',' && depth === 0 && !remark) { parts.push(cur.trim()); cur = ''; } else cur += ch;
  }
  const last = cur.trim();
  const end = last.includes('*/') ? last.indexOf('*/') + 2 : last.indexOf(' ') < 0 ? last.length : last.indexOf(' ');
  parts.push(last.slice(0, end));
  return parts;
}

function probe(t: Target, ps: number[][]): (string | null)[] {
  return disassembleProbes(t.mcpu, ps).map((r) => r.text);
}

/**
 * Drop the probes that crash llvm-objdump-19 (it segfaults printing some out-of-range MIMG
 * register tuples), bisecting failed batches, so golden files can be built from the rest.
 */
function withoutCrashes(t: Target, ps: number[][]): number[][] {
  const ok = (xs: number[][]): boolean => {
    try { disassembleProbes(t.mcpu, xs); return true; } catch { return false; }
  };
  const keep = (xs: number[][]): number[][] => {
    if (xs.length === 0 || ok(xs)) return xs;
    if (xs.length === 1) return [];
    const h = xs.length >> 1;
    return [...keep(xs.slice(0, h)), ...keep(xs.slice(h))];
  };
  return keep(ps);
}

function header(gen: string, what: string): string {
  return `/**\n * ${what}\n * GENERATED by tools/gen/amd/${gen}.ts from LLVM ${llvmVersion()} (llvm-objdump/llvm-mc) — do not edit.\n */\n`;
}

function lit(v: unknown): string {
  return JSON.stringify(v).replace(/"([a-zA-Z_][a-zA-Z0-9_]*)":/g, '$1:');
}

function subsets<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let m = 0; m < 1 << xs.length; m++) out.push(xs.filter((_, i) => m & (1 << i)));
  return out;
}

/** Pick the decodable subset with the most fields set; returns its index or -1. */
function best(texts: readonly (string | null)[], sets: readonly (readonly string[])[]): number {
  let bi = -1;
  for (let i = 0; i < sets.length; i++) if (texts[i] !== null && (bi < 0 || sets[i]!.length > sets[bi]!.length)) bi = i;
  return bi;
}

// ---------------------------------------------------------------------------------------------
// DS

/** Distinct probe values for the register fields, so a printed register names its field. */
const DS_VAL = { addr: 10, data0: 20, data1: 30, vdst: 40 } as const;

export interface DsEntry { mn: string; ops: [string, number][]; off: 'single' | 'pair' | 'swz' | 'none'; zero: string[]; gds: 'no' | 'opt' | 'req' }

function genDs(t: Target): { table: Record<number, DsEntry>; probes: number[][] } {
  const L = t.ds;
  const fields = ['addr', 'data0', 'data1', 'vdst', 'offset', 'gds'] as const;
  const sets = subsets(fields);
  const ps: number[][] = [];
  const nOps = 1 << L.op.n;
  for (let op = 0; op < nOps; op++) {
    for (const s of sets) {
      const ws = mk(2, L.prefix);
      put(ws, L.op, op);
      for (const f of s) {
        if (f === 'offset') { put(ws, L.offset0, 1); put(ws, L.offset1, 2); } else if (f === 'gds') put(ws, L.gds, 1); else put(ws, L[f], DS_VAL[f]);
      }
      ps.push(ws);
    }
  }
  const tx = probe(t, ps);
  const table: Record<number, DsEntry> = {};
  for (let op = 0; op < nOps; op++) {
    const bi = best(tx.slice(op * sets.length, (op + 1) * sets.length), sets);
    if (bi < 0) continue;
    const chosen = sets[bi]!;
    const zero = fields.filter((f) => f !== 'gds' && !chosen.includes(f));
    // gds: look up the same set with and without the gds bit
    const base = chosen.filter((f) => f !== 'gds');
    const withG = sets.findIndex((x) => x.length === base.length + 1 && x.includes('gds') && base.every((f) => x.includes(f)));
    const without = sets.findIndex((x) => x.length === base.length && base.every((f) => x.includes(f)));
    const g1 = tx[op * sets.length + withG] !== null;
    const g0 = tx[op * sets.length + without] !== null;
    const gds = g1 && g0 ? 'opt' : g1 ? 'req' : 'no';
    const text = tx[op * sets.length + (g0 ? without : withG)]!;
    const p = parseText(text);
    const ops: [string, number][] = p.ops.map((o) => {
      const r = regTok(o);
      if (!r || r.file !== 'v') throw new Error(`DS ${op}: unexpected operand ${o} in ${text}`);
      const f = Object.entries(DS_VAL).find(([, v]) => v === r.base);
      if (!f) throw new Error(`DS ${op}: operand ${o} matches no field in ${text}`);
      return [f[0], r.count];
    });
    const m = p.mods.join(' ');
    const off = m.includes('offset0:') ? 'pair' : m.includes('swizzle(') ? 'swz' : m.includes('offset:') ? 'single' : 'none';
    table[op] = { mn: p.mn, ops, off, zero, gds };
  }

  // golden probes
  const R = rng(0xd5);
  const r8 = () => Math.floor(R() * 256);
  const gp: number[][] = [];
  for (const [k, e] of Object.entries(table)) {
    const op = Number(k);
    for (let n = 0; n < 12; n++) {
      const ws = mk(2, L.prefix);
      put(ws, L.op, op);
      for (const f of ['addr', 'data0', 'data1', 'vdst'] as const) if (!e.zero.includes(f)) put(ws, L[f], n < 2 ? n * 7 : r8());
      if (!e.zero.includes('offset')) {
        const mode = n % 4;
        const off = mode === 0 ? 0 : mode === 1 ? r8() : Math.floor(R() * 65536);
        put(ws, L.offset0, off & 0xff);
        put(ws, L.offset1, off >> 8);
      }
      if (e.gds === 'req' || (e.gds === 'opt' && n % 5 === 3)) put(ws, L.gds, 1);
      if (n === 11) ws[0] = (ws[0]! | (1 << 16)) >>> 0; // an ignored bit
      gp.push(ws);
    }
    if (e.zero.length) {
      // a must-be-zero field set: LLVM rejects
      const ws = mk(2, L.prefix);
      put(ws, L.op, op);
      const f = e.zero[0]!;
      if (f === 'offset') put(ws, L.offset0, 5); else put(ws, L[f as 'addr'], 9);
      gp.push(ws);
    }
    if (e.gds !== 'opt') {
      const ws = mk(2, L.prefix);
      put(ws, L.op, op);
      if (e.gds === 'no') put(ws, L.gds, 1);
      gp.push(ws);
    }
  }
  swizzleProbes(table, L, gp);
  for (let op = 0; op < nOps; op++) if (!table[op]) { const ws = mk(2, L.prefix); put(ws, L.op, op); gp.push(ws); }
  return { table, probes: gp };
}

/** ds_swizzle's offset prints as a swizzle macro: probe its patterns widely. */
function swizzleProbes(table: Record<number, DsEntry>, L: Target['ds'], gp: number[][]): void {
  const R = rng(0x5e);
  for (const [k, e] of Object.entries(table)) {
    if (e.off !== 'swz') continue;
    const special = [0, 1, 0x1f, 0x20, 0x41f, 0x81f, 0x101f, 0x201f, 0x401f, 0x3e0, 0x7c1f, 0x1e0, 0x00c0, 0x001e, 0x801f, 0x8000, 0x80e4, 0x8055, 0x80ff, 0x8100, 0xffff, 0xc000, 0x9000, 0x0c1f, 0x1c1f, 0x3c1f, 0x041f, 0x001c, 0x0018, 0x0010, 0x0020, 0x0060, 0x0400];
    const vals = [...special];
    for (let n = 0; n < 120; n++) vals.push(Math.floor(R() * 65536));
    for (let n = 0; n < 60; n++) vals.push(Math.floor(R() * 1024) | (Math.floor(R() * 32) << 10));
    for (let g = 1; g <= 32; g *= 2) for (let l = 0; l < g; l += Math.max(1, g >> 2)) vals.push((0x1f - (g - 1)) | (l << 5));
    for (const v of vals) {
      const ws = mk(2, L.prefix);
      put(ws, L.op, Number(k));
      put(ws, L.addr, 3);
      put(ws, L.vdst, 4);
      put(ws, L.offset0, v & 0xff);
      put(ws, L.offset1, v >> 8);
      gp.push(ws);
    }
  }
}


// ---------------------------------------------------------------------------------------------
// FLAT / GLOBAL / SCRATCH

const FLAT_VAL = { addr: 10, data: 20, vdst: 40 } as const;
const SEGS = ['flat', 'scratch', 'global'] as const;

export interface FlatEntry { mn: string; ops: [string, number][]; opsGlc: [string, number][]; opsLds?: [string, number][]; zero: string[] }

/**
 * The FLAT layout as the generator needs it: GFX11 has sve and dlc; GFX9/GFX10 have lds and nv
 * instead of sve (GFX9 has no dlc), a different saddr "off" value and FLAT's own required saddr.
 */
interface FlatL {
  prefix: number; op: Fld; offset: Fld; glc: Fld; slc: Fld; seg: Fld; dlc?: Fld; sve?: Fld; lds?: Fld; nv?: Fld;
  addr: Fld; data: Fld; saddr: Fld; vdst: Fld;
  /** saddr value meaning off, and the saddr FLAT requires. */
  off?: number; flatSaddr?: number;
}

function flatL(t: Target): FlatL { return t.flat as FlatL; }

/** The base word pair of a FLAT probe for segment `seg` in its "vaddr and saddr both registers" mode. */
function flatBase(t: Target, seg: number, op: number): number[] {
  const L = flatL(t);
  const ws = mk(2, L.prefix);
  put(ws, L.seg, seg);
  put(ws, L.op, op);
  if (seg === 0) put(ws, L.saddr, L.flatSaddr ?? 0x7c);
  else put(ws, L.saddr, 6);
  if (seg === 1 && L.sve) put(ws, L.sve, 1);
  return ws;
}

function genFlat(t: Target): { tables: Record<string, Record<number, FlatEntry>>; probes: Record<string, number[][]>; saddr: (string | null)[][]; nv: 'ign' | 'no' | 'none' } {
  const L = flatL(t);
  const fields = ['addr', 'data', 'vdst'] as const;
  const sets = subsets(fields);
  const nOps = 1 << L.op.n;
  // modes: glc=0, glc=1, and (GFX9/GFX10) lds=1
  const modes = L.lds ? 3 : 2;
  const ps: number[][] = [];
  for (let seg = 0; seg < 3; seg++) for (let op = 0; op < nOps; op++) for (let md = 0; md < modes; md++) for (const s of sets) {
    const ws = flatBase(t, seg, op);
    if (md === 1) put(ws, L.glc, 1);
    if (md === 2) put(ws, L.lds!, 1);
    for (const f of s) put(ws, L[f], FLAT_VAL[f]);
    ps.push(ws);
  }
  const tx = probe(t, ps);
  const tables: Record<string, Record<number, FlatEntry>> = { flat: {}, scratch: {}, global: {} };
  const tmpl = (text: string, seg: number): { mn: string; ops: [string, number][] } => {
    const p = parseText(text);
    const ops: [string, number][] = p.ops.map((o, i) => {
      if (o === 'off') return [i === p.ops.length - 1 && seg !== 0 ? 'saddr' : 'addr', 0];
      const r = regTok(o);
      if (!r) throw new Error(`FLAT: unexpected operand ${o} in ${text}`);
      if (r.file !== 'v') return ['saddr', 0];
      if (r.base === FLAT_VAL.addr) return ['addr', 0];
      const f = Object.entries(FLAT_VAL).find(([, v]) => v === r.base);
      if (!f) throw new Error(`FLAT: operand ${o} matches no field in ${text}`);
      return [f[0], r.count];
    });
    return { mn: p.mn, ops };
  };
  let k = 0;
  for (let seg = 0; seg < 3; seg++) for (let op = 0; op < nOps; op++) {
    const t0 = tx.slice(k, k + sets.length);
    const t1 = tx.slice(k + sets.length, k + 2 * sets.length);
    const t2 = modes > 2 ? tx.slice(k + 2 * sets.length, k + 3 * sets.length) : [];
    k += modes * sets.length;
    const b0 = best(t0, sets);
    const b1 = best(t1, sets);
    if (b0 < 0 || b1 < 0) continue;
    const a = tmpl(t0[b0]!, seg);
    const b = tmpl(t1[b1]!, seg);
    if (a.mn !== b.mn) throw new Error(`FLAT ${seg}/${op}: glc changes mnemonic ${a.mn} -> ${b.mn}`);
    const zero = fields.filter((f) => !sets[b0]!.includes(f) && !sets[b1]!.includes(f));
    const e: FlatEntry = { mn: a.mn, ops: a.ops, opsGlc: b.ops, zero };
    const b2 = modes > 2 ? best(t2, sets) : -1;
    if (b2 >= 0) {
      const c = tmpl(t2[b2]!, seg);
      if (c.mn !== a.mn) throw new Error(`FLAT ${seg}/${op}: lds changes mnemonic ${a.mn} -> ${c.mn}`);
      e.opsLds = c.ops;
    }
    tables[SEGS[seg]!]![op] = e;
  }
  // saddr texts (GFX9/GFX10 tables; GFX11's codec computes its own): the operand after the address
  const saddr: (string | null)[][] = [];
  let nv: 'ign' | 'no' | 'none' = 'none';
  if (L.lds) {
    const sp: number[][] = [];
    const opOf = (seg: number) => Number(Object.keys(tables[SEGS[seg]!]!).find((o) => tables[SEGS[seg]!]![Number(o)]!.ops[0]![0] === 'vdst'));
    for (let seg = 0; seg < 3; seg++) for (let v = 0; v < 128; v++) {
      const ws = flatBase(t, seg, opOf(seg));
      put(ws, L.saddr, v);
      put(ws, L.vdst, FLAT_VAL.vdst);
      put(ws, L.addr, FLAT_VAL.addr);
      sp.push(ws);
    }
    const nvp = flatBase(t, 2, opOf(2));
    put(nvp, L.vdst, FLAT_VAL.vdst);
    put(nvp, L.nv!, 1);
    sp.push(nvp);
    const st = disassembleProbes(t.mcpu, sp);
    for (let seg = 0; seg < 3; seg++) {
      saddr.push(st.slice(seg * 128, seg * 128 + 128).map((r) => {
        if (r.text === null) return null;
        const p = parseText(r.text);
        return seg === 0 ? '' : p.ops[2]!;
      }));
    }
    nv = st[3 * 128]!.text === null ? 'no' : 'ign';
  }
  // golden probes
  const probes: Record<string, number[][]> = { flat: [], scratch: [], global: [] };
  const R = rng(0xf1a7);
  const r8 = () => Math.floor(R() * 256);
  const saddrs = L.lds
    ? [L.off!, L.off!, L.off!, 0, 1, 2, 6, 0x1f, 0x64, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x70, 0x73, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f, 0x6e]
    : [0x7c, 0x7c, 0x7c, 0, 2, 6, 0x1f, 0x64, 0x66, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x70, 0x73, 0x7a, 0x7b, 0x7d, 0x7e, 0x7f, 0x6e];
  for (let seg = 0; seg < 3; seg++) {
    const out = probes[SEGS[seg]!]!;
    for (const [ko, e] of Object.entries(tables[SEGS[seg]!]!)) {
      const op = Number(ko);
      for (let n = 0; n < 14; n++) {
        const ws = mk(2, L.prefix);
        put(ws, L.seg, seg);
        put(ws, L.op, op);
        for (const f of fields) if (!e.zero.includes(f)) put(ws, L[f], n === 0 ? 0 : r8());
        const om = n % 4;
        put(ws, L.offset, om === 0 ? 0 : om === 1 ? r8() : Math.floor(R() * 8192));
        put(ws, L.glc, n % 2);
        put(ws, L.slc, (n >> 1) & 1 & (R() < 0.5 ? 1 : 0));
        const dlc = R() < 0.3 ? 1 : 0;
        if (L.dlc) put(ws, L.dlc, dlc);
        if (seg === 0) put(ws, L.saddr, n === 13 ? Math.floor(R() * 128) : L.flatSaddr ?? 0x7c);
        else put(ws, L.saddr, n < 4 ? L.off ?? 0x7c : saddrs[Math.floor(R() * saddrs.length)]!);
        if (L.sve) {
          if (seg === 1) put(ws, L.sve, R() < 0.5 ? 1 : 0);
          if (seg !== 1 && n === 12) put(ws, L.sve, 1);
        } else {
          if (e.opsLds && n % 5 === 4) put(ws, L.lds!, 1);
          if (n === 12) put(ws, L.nv!, 1);
          if (n === 11) put(ws, L.lds!, 1);
        }
        out.push(ws);
      }
    }
    for (let op = 0; op < nOps; op++) if (!tables[SEGS[seg]!]![op]) { out.push(flatBase(t, seg, op)); }
  }
  // segment 3 is reserved
  for (let op = 0; op < 8; op++) probes.flat!.push(flatBase(t, 3, op * 9));
  return { tables, probes, saddr, nv };
}


// ---------------------------------------------------------------------------------------------
// MUBUF / MTBUF

const BUF_VAL = { vaddr: 10, vdata: 20, srsrc: 3, soffset: 5 } as const;

export interface BufEntry { mn: string; ops: [string, number][]; tfe: number; tfeAsm: boolean; lds: 'no' | 'opt' | 'ign'; cpol: ('no' | 'opt' | 'ign')[]; offset: 'no' | 'opt' | 'ign'; zero: string[] }

/** A buffer layout: GFX11's fields, with GFX10 MTBUF's op bit 3 in word 1 (opHi) and no dlc on GFX9. */
type BufL = Target['mubuf'] & { opHi?: Fld; dlc?: Fld; format?: Fld };

function putOp(ws: number[], L: BufL, op: number): void {
  put(ws, L.op, op);
  if (L.opHi) put(ws, L.opHi, op >> L.op.n);
}

function genBuf(t: Target, kind: 'mubuf' | 'mtbuf'): { table: Record<number, BufEntry>; formats: string[]; asm: Record<string, boolean>; probes: number[][]; srsrc: (string | null)[]; soffset: (string | null)[] } {
  const L = t[kind] as BufL;
  const legacy = t.mcpu !== 'gfx1100';
  const fields = ['vaddr', 'vdata', 'srsrc', 'soffset', 'offen'] as const;
  const sets = subsets(fields);
  const nOps = 1 << (L.op.n + (L.opHi ? 1 : 0));
  const fmtBase = kind === 'mtbuf' ? 1 : 0;
  const base = (op: number, s: readonly string[]) => {
    const ws = mk(2, L.prefix);
    putOp(ws, L, op);
    if (kind === 'mtbuf') put(ws, t.mtbuf.format, fmtBase);
    for (const f of s) put(ws, f === 'offen' ? L.offen : L[f as 'vaddr'], f === 'offen' ? 1 : BUF_VAL[f as 'vaddr']);
    return ws;
  };
  const ps: number[][] = [];
  for (let op = 0; op < nOps; op++) for (const s of sets) ps.push(base(op, s));
  const tx = probe(t, ps);
  const table: Record<number, BufEntry> = {};
  const chosen: Record<number, readonly string[]> = {};
  for (let op = 0; op < nOps; op++) {
    const bi = best(tx.slice(op * sets.length, (op + 1) * sets.length), sets);
    if (bi < 0) continue;
    const text = tx[op * sets.length + bi]!;
    const p = parseText(text);
    const ops: [string, number][] = p.ops.map((o) => {
      if (o === 'off') return ['vaddr', 0];
      const r = regTok(o);
      if (!r) {
        if (o === '0') return ['soffset', 0];
        throw new Error(`${kind} ${op}: unexpected operand ${o} in ${text}`);
      }
      if (r.file === 's') return r.count === 4 ? ['srsrc', 4] : ['soffset', 1];
      if (r.base === BUF_VAL.vaddr) return ['vaddr', 0];
      if (r.base === BUF_VAL.vdata) return ['vdata', r.count];
      throw new Error(`${kind} ${op}: operand ${o} matches no field in ${text}`);
    });
    table[op] = { mn: p.mn, ops, tfe: 0, tfeAsm: false, lds: 'no', cpol: [], offset: 'opt', zero: fields.filter((f) => !sets[bi]!.includes(f)) };
    chosen[op] = sets[bi]!;
  }
  // tfe and lds behaviour
  const ops = Object.keys(table).map(Number);
  const tp: number[][] = [];
  for (const op of ops) {
    const a = base(op, chosen[op]!);
    put(a, L.tfe, 1);
    tp.push(a);
    const b = base(op, chosen[op]!);
    if (kind === 'mubuf') put(b, t.mubuf.lds, 1);
    tp.push(b);
    for (const bit of [L.glc, L.slc, L.dlc]) {
      const c = base(op, chosen[op]!);
      put(c, bit, 1);
      tp.push(c);
    }
    const o = base(op, chosen[op]!);
    put(o, L.offset, 5);
    tp.push(o);
  }
  const tt = probe(t, tp);
  ops.forEach((op, i) => {
    const e = table[op]!;
    const a = tt[6 * i];
    e.cpol = ['glc', 'slc', 'dlc'].map((nm, j) => {
      const c = tt[6 * i + 2 + j];
      if (nm === 'dlc' && !L.dlc) return 'no';
      return c == null ? 'no' : new RegExp(` ${nm}\\b`).test(c) ? 'opt' : 'ign';
    });
    const o = tt[6 * i + 5];
    e.offset = o == null ? 'no' : / offset:5\b/.test(o) ? 'opt' : 'ign';
    if (a != null) {
      const v = parseText(a).ops.map(regTok).find((r) => r && r.file === 'v' && r.base === BUF_VAL.vdata);
      e.tfe = v ? v.count : -1; // -1: tfe allowed, no vdata
    }
    if (kind === 'mubuf') {
      const b = tt[6 * i + 1];
      e.lds = b == null ? 'no' : / lds\b/.test(b) ? 'opt' : 'ign';
    }
  });
  // does llvm-mc accept tfe in assembly? (it refuses it on stores, though it decodes it)
  const tfeOps = ops.filter((op) => table[op]!.tfe !== 0);
  const tfeTexts = tfeOps.map((op) => tt[6 * ops.indexOf(op)]!);
  const tfeAsm = assembleLines(t.mcpu, tfeTexts);
  tfeOps.forEach((op, i) => { table[op]!.tfeAsm = tfeAsm[i]!.words !== null; });
  // operand forms LLVM prints but llvm-mc refuses: srsrc null, a literal soffset
  const op0 = ops.find((op) => table[op]!.ops.length === 4)!;
  const nullP = base(op0, chosen[op0]!);
  put(nullP, L.srsrc, 31);
  const litP = base(op0, chosen[op0]!);
  put(litP, L.soffset, 255);
  const [nt, lt] = probe(t, [nullP, [...litP, 0x12345678]]);
  const [na, la] = assembleLines(t.mcpu, [nt ?? '', lt ?? '']);
  const asm = { nullSrsrc: nt != null && na!.words !== null, literalSoffset: lt != null && la!.words !== null };
  // srsrc and soffset texts (GFX9/GFX10 tables; GFX11's codec computes its own); '#' = a literal follows
  const srsrc: (string | null)[] = [];
  const soffset: (string | null)[] = [];
  if (legacy) {
    const sp: number[][] = [];
    for (let v = 0; v < 32; v++) { const ws = base(op0, chosen[op0]!); put(ws, L.srsrc, v); sp.push(ws); }
    for (let v = 0; v < 256; v++) { const ws = base(op0, chosen[op0]!); put(ws, L.soffset, v); sp.push(v === 255 ? [...ws, 0x12345678] : ws); }
    const st = probe(t, sp);
    const si = table[op0]!.ops.findIndex(([n]) => n === 'srsrc');
    const oi = table[op0]!.ops.findIndex(([n]) => n === 'soffset');
    const opsAt = (x: string | null, k: number) => (x === null ? null : remarkOperands(x)[k]!);
    for (let v = 0; v < 32; v++) srsrc.push(opsAt(st[v]!, si));
    const soffsetAt = (x: string | null) => opsAt(x, oi);
    for (let v = 0; v < 256; v++) { const x = soffsetAt(st[32 + v]!); soffset.push(v === 255 && x !== null ? '#' : x); }
  }
  // MTBUF format names
  const formats: string[] = [];
  if (kind === 'mtbuf') {
    const op0 = ops[0]!;
    const fp: number[][] = [];
    for (let f = 0; f < 1 << t.mtbuf.format.n; f++) { const ws = base(op0, []); put(ws, t.mtbuf.format, f); fp.push(ws); }
    probe(t, fp).forEach((x) => {
      const m = x === null ? null : / format:(\S+)/.exec(x);
      formats.push(x === null ? '?' : m ? m[1]! : '');
    });
  }
  // golden probes
  const R = rng(kind === 'mubuf' ? 0xb0f : 0x7b0f);
  const r8 = () => Math.floor(R() * 256);
  const gp: number[][] = [];
  // 0xff (literal) is left out: LLVM would read the literal from the probe's padding
  const soffs = [0, 5, 0x69, 0x6a, 0x6b, 0x6c, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f, 0x80, 0x81, 0xc0, 0xc1, 0xd0, 0xf0, 0xf7, 0xf8, 0xeb, 0xfd, 0xe0, 0xe6, 0xfa];
  for (const op of ops) {
    const e = table[op]!;
    for (let n = 0; n < 16; n++) {
      const ws = mk(2, L.prefix);
      putOp(ws, L, op);
      if (kind === 'mtbuf') put(ws, t.mtbuf.format, n % 3 === 0 ? 1 : Math.floor(R() * 128));
      if (!e.zero.includes('vaddr')) put(ws, L.vaddr, r8());
      if (!e.zero.includes('vdata')) put(ws, L.vdata, n === 0 ? 0 : r8());
      if (!e.zero.includes('srsrc')) put(ws, L.srsrc, Math.floor(R() * 32));
      if (!e.zero.includes('soffset')) put(ws, L.soffset, n < 8 ? soffs[Math.floor(R() * soffs.length)]! : Math.floor(R() * 128));
      if (!e.zero.includes('offen')) { put(ws, L.offen, R() < 0.5 ? 1 : 0); put(ws, L.idxen, R() < 0.5 ? 1 : 0); }
      const om = n % 3;
      put(ws, L.offset, om === 0 ? 0 : Math.floor(R() * 4096));
      put(ws, L.glc, R() < 0.4 ? 1 : 0);
      put(ws, L.slc, R() < 0.4 ? 1 : 0);
      put(ws, L.dlc, R() < 0.3 ? 1 : 0);
      if (e.tfe !== 0 && n % 4 === 1) put(ws, L.tfe, 1);
      if (n === 15) put(ws, L.tfe, 1);
      if (kind === 'mubuf' && (n === 14 || (e.lds === 'opt' && n % 4 === 2))) put(ws, t.mubuf.lds, 1);
      if (n === 13) ws[0] = (ws[0]! | (R() < 0.5 ? 1 << 15 : 1 << 17)) >>> 0;
      gp.push(ws);
    }
  }
  for (let op = 0; op < nOps; op++) if (!table[op]) gp.push(base(op, []));
  for (let n = 0; n < 8; n++) { const ws = base(ops[n]!, ['vdata']); put(ws, L.vdata, 254); gp.push(ws); }
  // soffset 255: a literal dword follows (integers LLVM could inline print in decimal, float
  // constants by value, the rest in hex); 254: src_lds_direct, printed as an invalid register
  const lits = [0x10, 0x40, 0x41, 0xfffffff0, 0xffffffef, 0x3f800000, 0xbf800000, 0x3e22f983, 0x12345678, 0x80000000, 0xc0800000];
  lits.forEach((lv, n) => {
    const ws = base(ops[(n * 7) % ops.length]!, ['vdata', 'srsrc', 'soffset']);
    put(ws, L.soffset, 255);
    gp.push([...ws, lv]);
  });
  for (let n = 0; n < 3; n++) { const ws = base(ops[n * 5]!, ['vdata', 'srsrc', 'soffset']); put(ws, L.soffset, 254); gp.push(ws); }
  return { table, formats, asm, probes: gp, srsrc, soffset };
}


// ---------------------------------------------------------------------------------------------
// EXP

/** The EXP layout: GFX11 has row_en; GFX9/GFX10 have compr and vm instead (and another prefix on GFX9). */
interface ExpL { prefix: number; en: Fld; target: Fld; done: Fld; rowEn?: Fld; compr?: Fld; vm?: Fld; vsrc0: Fld; vsrc1: Fld; vsrc2: Fld; vsrc3: Fld }

function genExp(t: Target): { targets: string[]; probes: number[][] } {
  const L = t.exp as ExpL;
  const ps: number[][] = [];
  for (let tg = 0; tg < 1 << L.target.n; tg++) { const ws = mk(2, L.prefix); put(ws, L.target, tg); put(ws, L.en, 1); put(ws, L.vsrc0, 7); ps.push(ws); }
  const targets = probe(t, ps).map((x) => (x === null ? '?' : parseText(x).ops[0]!.split(' ')[0]!));
  // word-0 bits [25:10] no field owns
  let used = 0;
  for (const f of [L.done, L.rowEn, L.compr, L.vm]) if (f) used |= 1 << f.lo;
  const unused = (0x03fffc00 & ~used) >>> 0;
  const R = rng(0xe4);
  const gp: number[][] = [];
  const mcpu: string = t.mcpu;
  const common = mcpu === 'gfx900' ? [0, 1, 7, 8, 9, 12, 13, 15, 32, 33, 63] : mcpu === 'gfx1030' ? [0, 1, 7, 8, 9, 12, 16, 20, 32, 40, 63] : [0, 1, 7, 8, 9, 12, 13, 16, 20, 21, 22];
  for (let n = 0; n < 400; n++) {
    const ws = mk(2, L.prefix);
    put(ws, L.target, n < 128 ? n % 64 : common[Math.floor(R() * 11)]!);
    put(ws, L.en, Math.floor(R() * 16));
    ws[1] = Math.floor(R() * 2 ** 32) >>> 0;
    put(ws, L.done, R() < 0.4 ? 1 : 0);
    if (L.rowEn) put(ws, L.rowEn, R() < 0.3 ? 1 : 0);
    if (n % 17 === 0) ws[0] = (ws[0]! | ((Math.floor(R() * 0xffff) << 10) & unused)) >>> 0; // unused bits
    if (L.compr) put(ws, L.compr, R() < 0.35 ? 1 : 0);
    if (L.vm) put(ws, L.vm, R() < 0.3 ? 1 : 0);
    gp.push(ws);
  }
  return { targets, probes: gp };
}

export function expFiles(t: Target, out: Record<string, string>): void {
  const ex = genExp(t);
  out[`${t.dir}/exp.gen.ts`] = header('gen-memory', `EXP targets of ${t.mcpu}: how LLVM prints each value of the 6-bit target field ('?' = rejected).`)
    + `export const EXP_TARGETS: readonly string[] = ${JSON.stringify(ex.targets)};\n`;
  out[`${t.golden}/exp.tsv`] = formatGolden(buildGolden(t.mcpu, ex.probes, 10));
}


// ---------------------------------------------------------------------------------------------
// MIMG
//
// LLVM decodes a MIMG word first through its generated tables (which pick a fixed "first match"
// variant per opcode: the orig widths below), then widens vdata/vaddr to what dmask/d16/tfe and
// dim/a16 imply, but only when a variant of those widths exists and the widened registers stay in
// range; otherwise it prints the first-match widths. The generator learns each piece from probes.

export interface MimgEntry {
  mn: string; sampler: boolean; srsrc: number;
  /** dmask/dim are printed and widths are converted (false for the BVH ops, printed as decoded). */
  dimp: boolean;
  flags: Record<string, 'opt' | 'ign' | 'no' | 'req'>;
  /** Gather4-like: vdata is 4 dwords whatever dmask says. */
  g4: boolean;
  /** Printed vdata width for each vdata dword count 1..5 (a variant's register class may be wider), '0' = no variant. */
  dset: string;
  /** First-match widths: vdata and address (non-NSA), vdata and address list (NSA). */
  origV: number; origA: number; origVn: number; origNsa: string;
  /** Address VGPRs per dim*2+a16 (base 36): '0' no variant (keep first match), '-' rejected. */
  addr: string;
  /** NSA address widths per dim*2+a16: '' no variant (keep first match), '-' rejected. */
  nsa: string[];
}

/** The single-bit MIMG modifiers; a layout names those its generation has (GFX9: da, no dlc/r128). */
const MIMG_FLAGS = ['unorm', 'glc', 'slc', 'dlc', 'r128', 'lwe', 'a16', 'd16', 'tfe', 'da'] as const;
const NSA_W2 = 0x24232221;
const NSA_W3 = 0x28272625;
const NSA_W4 = 0x2c2b2a29;

/**
 * The MIMG layout: GFX11's, or GFX10's with op bit 7 apart (opHi) and a 2-bit nsa field holding
 * the number of NSA address dwords (GFX11's 1-bit nsa lets the address count decide).
 */
type MimgL = Omit<Target['mimg'], 'nsa' | 'dim' | 'dlc' | 'r128'> & { opHi?: Fld; nsa?: Fld; dim?: Fld; dlc?: Fld; r128?: Fld; da?: Fld };

/** Bits of a two-dword MIMG word no field of the layout names (GFX9's probe for must-be-zero bits). */
function unnamedBits(L: MimgL): [number, number] {
  const used = [0, 0];
  for (const f of Object.values(L)) if (typeof f === 'object') used[f.w]! |= (f.n === 32 ? -1 : ((1 << f.n) - 1) << f.lo);
  used[0]! |= 0x3f << 26; // the prefix
  return [~used[0]! >>> 0, ~used[1]! >>> 0];
}

/** NSA dwords a list of `n` address VGPRs needs (the first sits in vaddr, 4 per dword after). */
const nsaWords = (n: number): number => Math.ceil((n - 1) / 4);

/** LLVM's vdata dword count for dmask/d16/tfe (packed d16 on GFX10+). */
export function mimgDst(g4: boolean, dmask: number, d16: number, tfe: number): number {
  let n = 0;
  for (let m = dmask; m; m &= m - 1) n++;
  let d = g4 ? 4 : Math.max(n, 1);
  if (d16) d = (d + 1) >> 1;
  return d + tfe;
}

interface MimgGen {
  table: Record<number, MimgEntry>; dims: string[]; probes: number[][]; nsaOrig: Record<number, ([number, string] | null)[]>;
  /** Without a dim field (GFX9): must-be-zero bits of words 0/1, and the address widths llvm-mc accepts per opcode. */
  reserved?: [number, number]; vaddrAsm?: Record<number, string>; rsrcText?: { srsrc: (string | null)[]; ssamp: (string | null)[] };
}

function genMimg(t: Target): MimgGen {
  const L = t.mimg as MimgL;
  const FLAGS = MIMG_FLAGS.filter((f) => L[f] !== undefined);
  const countNsa = (L.nsa?.n ?? 0) > 1;
  type Cfg = Partial<Record<keyof typeof L, number>>;
  const cands: Cfg[] = [
    { dmask: 1, ssamp: 2 }, { dmask: 1 }, { dmask: 3, ssamp: 2 }, { dmask: 3 }, { dmask: 15, ssamp: 2 }, { dmask: 15 }, { dmask: 0 },
    { dmask: 15, r128: 1, unorm: 1 },
  ];
  const build = (op: number, c: Cfg, extra: Cfg = {}, vdata = 20, vaddr = 10): number[] => {
    const ws = mk(2, L.prefix);
    put(ws, L.op, op);
    if (L.opHi) put(ws, L.opHi, op >> L.op.n);
    put(ws, L.vaddr, vaddr);
    put(ws, L.vdata, vdata);
    put(ws, L.srsrc, 3);
    for (const [k, v] of Object.entries({ ...c, ...extra })) put(ws, L[k as 'dmask'] as Fld, v!);
    if (countNsa) ws.push(...[NSA_W2, NSA_W3, NSA_W4].slice(0, (ws[0]! >>> L.nsa!.lo) & 3));
    else if (L.nsa && ws[0]! & 1) ws.push(NSA_W2, NSA_W3);
    return ws;
  };
  const nOps = 1 << (L.op.n + (L.opHi ? 1 : 0));
  const ps: number[][] = [];
  for (let op = 0; op < nOps; op++) for (const c of cands) ps.push(build(op, c));
  const tx = probe(t, ps);
  const base: Record<number, { cfg: Cfg; text: string }> = {};
  for (let op = 0; op < nOps; op++) {
    const i = tx.slice(op * cands.length, (op + 1) * cands.length).findIndex((x) => x !== null);
    if (i >= 0) base[op] = { cfg: cands[i]!, text: tx[op * cands.length + i]! };
  }
  const ops = Object.keys(base).map(Number);
  const widthsOf = (x: string | null): { v: number; a: number[] } | null => {
    if (x === null) return null;
    const p = parseText(x);
    const v = regTok(p.ops[0]!)!.count;
    const a = p.ops[1]!;
    if (a.startsWith('[')) return { v, a: a.slice(1, -1).split(',').map((z) => regTok(z.trim())!.count) };
    return { v, a: [regTok(a)!.count] };
  };
  // stage 1: flags, orig widths, gather4-ness, vdata variants
  const dcfg = (g4: boolean, d: number): Cfg | null => {
    for (let k = 0; k < 64; k++) {
      const c = { dmask: k >> 2, d16: (k >> 1) & 1, tfe: k & 1 };
      if (mimgDst(g4, c.dmask, c.d16, c.tfe) === d) return c;
    }
    return null;
  };
  const q1: number[][] = [];
  for (const op of ops) {
    const c = base[op]!.cfg;
    for (const f of FLAGS) q1.push(build(op, c, { [f]: c[f] ? 0 : 1 }));
    q1.push(build(op, c, { dmask: 15, tfe: 1, d16: 0 }, 252));
    q1.push(build(op, c, { dmask: 15, tfe: 1, d16: 0, nsa: 1 }, 252));
    q1.push(build(op, c, { dmask: 1, d16: 0, tfe: 1 }));
    for (const g4 of [false, true]) for (let d = 1; d <= 5; d++) q1.push(build(op, c, dcfg(g4, d) ?? {}));
  }
  const r1 = probe(t, q1);
  const P1 = FLAGS.length + 3 + 10;
  const table: Record<number, MimgEntry> = {};
  ops.forEach((op, n) => {
    const b = base[op]!;
    const p = parseText(b.text);
    const o = n * P1;
    const flags: Record<string, 'opt' | 'ign' | 'no' | 'req'> = {};
    FLAGS.forEach((f, j) => {
      const x = r1[o + j]!;
      flags[f] = x === null ? (b.cfg[f] ? 'req' : 'no') : new RegExp(` ${f}\\b`).test(x) ? 'opt' : 'ign';
    });
    // without a dim field (GFX9) the printed dmask marks the ops whose vdata LLVM converts
    const dimp = L.dim ? / dim:/.test(b.text) : / dmask:/.test(b.text);
    const ow = widthsOf(r1[o + FLAGS.length]!) ?? widthsOf(b.text)!;
    const on = L.nsa ? widthsOf(r1[o + FLAGS.length + 1]!) ?? { v: 0, a: [] } : { v: 0, a: [] };
    const one = widthsOf(r1[o + FLAGS.length + 2]!);
    // one channel plus tfe: 2 dwords normally, 5 for the gather4-like ops
    const g4 = dimp && one !== null && one.v === 5;
    let dset = '';
    for (let d = 1; d <= 5; d++) {
      const w = widthsOf(r1[o + FLAGS.length + 3 + (g4 ? 5 : 0) + d - 1]!);
      const bail = w === null || (w.v === ow.v && d !== ow.v);
      dset += bail || !dcfg(g4, d) ? '0' : w.v.toString(36);
    }
    table[op] = {
      mn: p.mn, sampler: p.ops.length === 4, srsrc: regTok(p.ops[2]!)!.count, dimp, flags, g4, dset,
      origV: ow.v, origA: ow.a[0]!, origVn: on.v, origNsa: on.a.join(','), addr: '', nsa: [],
    };
  });
  // GFX10: the first-match widths for each NSA dword count 1..3 (LLVM decodes through them)
  const nsaOrig: Record<number, ([number, string] | null)[]> = {};
  if (countNsa) {
    const q3: number[][] = [];
    for (const op of ops) for (const n of [1, 2, 3]) q3.push(build(op, base[op]!.cfg, { dmask: 15, tfe: 1, d16: 0, nsa: n }, 252));
    const r3 = probe(t, q3);
    ops.forEach((op, i) => { nsaOrig[op] = [0, 1, 2].map((c) => { const w = widthsOf(r3[i * 3 + c]!); return w ? [w.v, w.a.join(',')] : null; }); });
  }
  // stage 2: address widths per dim/a16, with a vdata width that is not the first match (so a
  // missing address variant shows as the first-match vdata)
  const q2: number[][] = [];
  const alt: Record<number, { cfg: Cfg; d: number }> = {};
  for (const op of ops) {
    const e = table[op]!;
    const ds = [1, 2, 3, 4, 5].filter((d) => e.dset[d - 1] !== '0' && d !== e.origV);
    const d = ds.length ? ds[0]! : e.origV;
    alt[op] = { cfg: { ...base[op]!.cfg, ...(e.dimp ? dcfg(e.g4, d) ?? {} : {}) }, d: e.dimp ? parseInt(e.dset[d - 1] ?? '0', 36) || d : d };
    for (let k = 0; k < 16; k++) {
      q2.push(build(op, alt[op]!.cfg, { dim: k >> 1, a16: k & 1 }));
      q2.push(build(op, alt[op]!.cfg, { dim: k >> 1, a16: k & 1, nsa: 1 }));
      if (countNsa) for (const n of [2, 3]) q2.push(build(op, alt[op]!.cfg, { dim: k >> 1, a16: k & 1, nsa: n }));
    }
  }
  const r2 = probe(t, q2);
  const P2 = countNsa ? 4 : 2;
  const dims: string[] = new Array<string>(8).fill('');
  ops.forEach((op, n) => {
    const e = table[op]!;
    const d = alt[op]!.d;
    let addr = '';
    for (let k = 0; k < 16; k++) {
      const x = r2[n * 16 * P2 + P2 * k]!;
      let y: string | null = r2[n * 16 * P2 + P2 * k + 1]!;
      if (countNsa) {
        // GFX10: the NSA dword count must fit the list; take the count whose list converts
        const ys = [1, 2, 3].map((c) => r2[n * 16 * P2 + P2 * k + c]!);
        const hit = ys.findIndex((z, c) => { const wz = widthsOf(z); return wz !== null && nsaWords(wz.a.length) === c + 1 && (!e.dimp || d === e.origV || wz.v === d); });
        y = hit >= 0 ? ys[hit]! : ys.every((z) => z === null) ? null : '';
      }
      if (x) { const m = / dim:(\S+)/.exec(x); if (m) dims[k >> 1] = m[1]!; }
      const wx = widthsOf(x);
      const wy = y === '' ? null : widthsOf(y);
      const conv = (w: { v: number } | null) => !e.dimp || d === e.origV || (w !== null && w.v === d);
      addr += wx === null ? '-' : conv(wx) ? wx.a[0]!.toString(36) : '0';
      if (L.nsa) e.nsa.push(y === '' ? '' : wy === null ? '-' : conv(wy) ? wy.a.join(',') : '');
    }
    e.addr = addr;
  });
  // golden probes
  const R = rng(0x1a6e);
  const r8 = () => Math.floor(R() * 256);
  const gp: number[][] = [];
  for (const op of ops) {
    const e = table[op]!;
    const c = base[op]!.cfg;
    for (let n = 0; n < 28; n++) {
      const ws = build(op, c);
      ws.length = 2;
      const dim = Math.floor(R() * 8);
      const a16 = R() < 0.3 ? 1 : 0;
      put(ws, L.dim, e.dimp ? dim : 0);
      put(ws, L.a16, a16);
      if (e.dimp) put(ws, L.dmask, n < 4 ? c.dmask! : Math.floor(R() * 16));
      put(ws, L.d16, R() < 0.25 ? 1 : 0);
      put(ws, L.tfe, R() < 0.2 ? 1 : 0);
      for (const f of FLAGS) {
        if (e.flags[f] === 'req') continue;
        if (R() < (e.flags[f] === 'opt' ? 0.3 : 0.05)) put(ws, L[f], 1);
      }
      put(ws, L.vaddr, n % 7 === 5 ? 250 + Math.floor(R() * 6) : r8());
      put(ws, L.vdata, n === 1 ? 0 : n % 7 === 6 ? 250 + Math.floor(R() * 6) : r8());
      put(ws, L.srsrc, n < 24 ? Math.floor(R() * 27) : Math.floor(R() * 32));
      if (e.sampler) put(ws, L.ssamp, n < 24 ? Math.floor(R() * 27) : Math.floor(R() * 32));
      else if (n === 27) put(ws, L.ssamp, 1);
      if (n === 26) ws[1] = (ws[1]! | (1 << 23) | (1 << 31)) >>> 0;
      if (n % 3 === 0 && L.nsa && !countNsa) { put(ws, L.nsa, 1); ws.push(Math.floor(R() * 2 ** 32) >>> 0, Math.floor(R() * 2 ** 32) >>> 0); }
      if (n % 3 === 0 && countNsa) {
        // only the dword count the list needs (LLVM's fallbacks for other counts are not modelled)
        const lst = e.nsa[(e.dimp ? dim : 0) * 2 + a16]!;
        const c = lst === '' || lst === '-' ? 0 : nsaWords(lst.split(',').length);
        put(ws, L.nsa!, c);
        for (let i = 0; i < c; i++) ws.push(Math.floor(R() * 2 ** 32) >>> 0);
      }
      gp.push(ws);
    }
  }
  for (let op = 0; op < nOps; op++) if (!base[op]) gp.push(build(op, { dmask: 1 }));
  if (L.dim) return { table, dims, probes: gp, nsaOrig };
  // GFX9: no dim, no NSA. The address operand's width is not encoded: LLVM prints the first match
  // and llvm-mc accepts every width some variant has; some bits no field names must be zero.
  const unnamed = unnamedBits(L);
  const bitsOf = (m: number): number[] => [...Array(32).keys()].filter((b) => (m >>> b) & 1);
  const q4: number[][] = [];
  for (const op of ops) {
    for (const b of bitsOf(unnamed[0])) { const ws = build(op, base[op]!.cfg); ws[0] = (ws[0]! | (1 << b)) >>> 0; q4.push(ws); }
    for (const b of bitsOf(unnamed[1])) { const ws = build(op, base[op]!.cfg); ws[1] = (ws[1]! | (1 << b)) >>> 0; q4.push(ws); }
  }
  const r4 = probe(t, q4);
  const nb = bitsOf(unnamed[0]).length + bitsOf(unnamed[1]).length;
  const reserved: [number, number] = [0, 0];
  bitsOf(unnamed[0]).concat(bitsOf(unnamed[1]).map((b) => b + 32)).forEach((b, j) => {
    const rej = ops.map((_, i) => r4[i * nb + j] === null);
    if (rej.some((x) => x !== rej[0])) throw new Error(`${t.mcpu} MIMG: unnamed bit ${b} is rejected for some opcodes only`);
    if (rej[0]) reserved[b >> 5]! |= 1 << (b & 31);
  });
  reserved[0] >>>= 0; reserved[1] >>>= 0;
  // (dmask 1, 3 and 15: llvm-mc refuses some printed vdata/dmask pairs, e.g. cmpswap's dmask:0x1)
  const MAXA = 16, DM = [1, 3, 15];
  const r5 = probe(t, ops.flatMap((op) => DM.map((dmask) => build(op, base[op]!.cfg, { dmask }))));
  const lines: string[] = [];
  r5.forEach((x) => {
    const p = x === null ? null : parseText(x);
    for (let a = 1; a <= MAXA; a++) {
      if (!p) { lines.push(''); continue; }
      const ops2 = [...p.ops];
      ops2[1] = a === 1 ? 'v10' : `v[10:${9 + a}]`;
      lines.push(`${p.mn} ${ops2.join(', ')}${p.mods.length ? ' ' + p.mods.join(' ') : ''}`);
    }
  });
  const asm = assembleLines(t.mcpu, lines);
  const vaddrAsm: Record<number, string> = {};
  ops.forEach((op, i) => {
    let s = '';
    for (let a = 1; a <= MAXA; a++) if (DM.some((_, j) => asm[(i * DM.length + j) * MAXA + a - 1]!.words !== null)) s += a.toString(36);
    vaddrAsm[op] = s;
  });
  // LLVM's text for each srsrc (8 dwords) and ssamp (4 dwords) value: GFX9's SGPR file ends at
  // s101, and the numbers above it name special registers (printed with a remark) or nothing.
  const sampOp = ops.find((op) => table[op]!.sampler)!;
  const r6 = probe(t, [...Array(32).keys()].flatMap((v) => [build(sampOp, base[sampOp]!.cfg, { srsrc: v }), build(sampOp, base[sampOp]!.cfg, { ssamp: v })]));
  const rs = (x: string | null, i: number): string | null => (x === null ? null : remarkOperands(x)[i]!);
  const rsrcText = { srsrc: [...Array(32).keys()].map((v) => rs(r6[2 * v]!, 2)), ssamp: [...Array(32).keys()].map((v) => rs(r6[2 * v + 1]!, 3)) };
  // golden probes with the address widths llvm-mc accepts and with unnamed bits set
  const R2 = rng(0x9a11);
  for (const op of ops) {
    const c = base[op]!.cfg;
    for (const b of bitsOf(unnamed[0] | 0).slice(0, 3)) { const ws = build(op, c, {}, Math.floor(R2() * 200), Math.floor(R2() * 200)); ws[0] = (ws[0]! | (1 << b)) >>> 0; gp.push(ws); }
    const ws = build(op, c, {}, Math.floor(R2() * 200), Math.floor(R2() * 200));
    ws[1] = (ws[1]! | (bitsOf(unnamed[1])[0] !== undefined ? 1 << bitsOf(unnamed[1])[0]! : 0)) >>> 0;
    gp.push(ws);
  }
  return { table, dims: [], probes: gp, nsaOrig, reserved, vaddrAsm, rsrcText };
}


// ---------------------------------------------------------------------------------------------
// Legacy mnemonics llvm-mc still accepts for gfx1100 (ds_write_b32, buffer_load_dword...)
//
// Layout-free: the older targets' names come from sweeping bits [25:lo] of each prefix through
// their disassemblers; each name's text is then assembled for gfx1100, and when llvm-mc accepts
// it, the gfx1100 disassembly of the result names the instruction the alias stands for.

const ALIAS_FROM = ['gfx1030', 'gfx900'] as const;

function genAliases(t: Target, prefix: number, w1s: readonly number[], known: ReadonlySet<string>, lo = 14): Record<string, string> {
  const texts = new Map<string, string[]>();
  for (const mcpu of ALIAS_FROM) {
    const ps: number[][] = [];
    for (let v = 0; v < 1 << (26 - lo); v++) for (const w1 of w1s) ps.push([((prefix << 26) | (v << lo)) >>> 0, w1, 0, 0]);
    let r: (string | null)[];
    try { r = disassembleProbes(mcpu, ps).map((x) => x.text); } catch { continue; }
    for (const x of r) {
      if (x === null) continue;
      const p = parseText(x);
      if (known.has(p.mn)) continue;
      const l = texts.get(p.mn) ?? [];
      if (l.length < 3) { l.push(x, `${p.mn} ${p.ops.join(', ')}`); texts.set(p.mn, l); }
    }
  }
  const names = [...texts.keys()].sort();
  const lines = names.flatMap((n) => texts.get(n)!);
  const asm = assembleLines(t.mcpu, lines);
  const out: Record<string, string> = {};
  const back: number[][] = [];
  const who: string[] = [];
  let k = 0;
  for (const n of names) {
    const m = texts.get(n)!.length;
    const hit = asm.slice(k, k + m).find((a) => a.words !== null && a.words.length <= 4);
    k += m;
    if (hit) { back.push(hit.words!); who.push(n); }
  }
  const d = disassembleProbes(t.mcpu, back);
  who.forEach((n, i) => {
    const x = d[i]!.text;
    if (x !== null) { const mn = parseText(x).mn; if (mn !== n) out[n] = mn; }
  });
  return out;
}

function aliasBlock(name: string, a: Record<string, string>): string {
  return `\n/** Legacy mnemonics llvm-mc accepts for this target, and the instruction each one assembles to. */\nexport const ${name}: Readonly<Record<string, string>> = {\n${Object.keys(a).sort().map((k) => `  ${k}: '${a[k]}',`).join('\n')}\n};\n`;
}

// ---------------------------------------------------------------------------------------------

/** FLAT before GFX11: lds[13] seg[15:14] glc[16] slc[17], nv in word 1 bit 23, no sve. */
const LEGACY_FLAT = {
  prefix: 0b110111, op: F(0, 18, 7), lds: F(0, 13, 1), seg: F(0, 14, 2), glc: F(0, 16, 1), slc: F(0, 17, 1),
  addr: F(1, 0, 8), data: F(1, 8, 8), saddr: F(1, 16, 7), nv: F(1, 23, 1), vdst: F(1, 24, 8),
} as const;

/** Buffer word 1 before GFX11: vaddr vdata srsrc as GFX11, slc[22] tfe[23]; offen/idxen move to word 0. */
const LEGACY_BUF = {
  offset: F(0, 0, 12), offen: F(0, 12, 1), idxen: F(0, 13, 1), glc: F(0, 14, 1),
  vaddr: F(1, 0, 8), vdata: F(1, 8, 8), srsrc: F(1, 16, 5), slc: F(1, 22, 1), tfe: F(1, 23, 1), soffset: F(1, 24, 8),
} as const;

/** EXP before GFX11: compr[10] and vm[12] where GFX11 has row_en[13]. */
const LEGACY_EXP = {
  en: F(0, 0, 4), target: F(0, 4, 6), compr: F(0, 10, 1), done: F(0, 11, 1), vm: F(0, 12, 1),
  vsrc0: F(1, 0, 8), vsrc1: F(1, 8, 8), vsrc2: F(1, 16, 8), vsrc3: F(1, 24, 8),
} as const;

/**
 * GFX10.3: DS as GFX11; MIMG op[24:18] with op bit 7 at [0], nsa[2:1] (NSA dword count), dim[5:3],
 * dlc[7] unorm[12] glc[13] r128[15] tfe[16] lwe[17] slc[25], ssamp word 1 [25:21], a16/d16 word 1 [30]/[31];
 * FLAT with a 12-bit offset, dlc[12], saddr 0x7d (null) = off; MUBUF op[25:18]
 * dlc[15] lds[16]; MTBUF op[18:16] with op bit 3 in word 1 bit 21, format[25:19].
 */
export const GFX1030 = {
  ...GFX11, mcpu: 'gfx1030', dir: 'src/amd/isa/gfx10', golden: 'test/golden/amd/gfx1030',
  flat: { ...LEGACY_FLAT, offset: F(0, 0, 12), dlc: F(0, 12, 1), off: 0x7d, flatSaddr: 0x7d },
  mubuf: { ...LEGACY_BUF, prefix: 0b111000, op: F(0, 18, 8), dlc: F(0, 15, 1), lds: F(0, 16, 1) },
  mtbuf: { ...LEGACY_BUF, prefix: 0b111010, op: F(0, 16, 3), opHi: F(1, 21, 1), format: F(0, 19, 7), dlc: F(0, 15, 1) },
  exp: { ...LEGACY_EXP, prefix: 0b111110 },
  mimg: {
    prefix: 0b111100, op: F(0, 18, 7), opHi: F(0, 0, 1), nsa: F(0, 1, 2), dim: F(0, 3, 3), dlc: F(0, 7, 1), dmask: F(0, 8, 4), unorm: F(0, 12, 1),
    glc: F(0, 13, 1), r128: F(0, 15, 1), tfe: F(0, 16, 1), lwe: F(0, 17, 1), slc: F(0, 25, 1),
    vaddr: F(1, 0, 8), vdata: F(1, 8, 8), srsrc: F(1, 16, 5), ssamp: F(1, 21, 5), a16: F(1, 30, 1), d16: F(1, 31, 1),
  },
} as const;

/**
 * GFX9: DS with op[24:17] and gds[16]; FLAT with a 13-bit offset, saddr 0x7f = off and 0 on FLAT;
 * MUBUF op[24:18] lds[16] slc[17] (no dlc); MTBUF op[18:15], format[25:19] = dfmt[22:19] nfmt[25:23].
 */
export const GFX900 = {
  ...GFX11, mcpu: 'gfx900', dir: 'src/amd/isa/gfx9', golden: 'test/golden/amd/gfx900',
  ds: { ...GFX11.ds, op: F(0, 17, 8), gds: F(0, 16, 1) },
  flat: { ...LEGACY_FLAT, offset: F(0, 0, 13), off: 0x7f, flatSaddr: 0 },
  mubuf: { ...LEGACY_BUF, prefix: 0b111000, op: F(0, 18, 7), lds: F(0, 16, 1), slc: F(0, 17, 1) },
  mtbuf: { ...LEGACY_BUF, prefix: 0b111010, op: F(0, 15, 4), format: F(0, 19, 7) },
  exp: { ...LEGACY_EXP, prefix: 0b110001 },
  /** MIMG: op[24:18], no dim/NSA (da[14] declares an array), a16[15] where GFX8 had r128, d16 word 1 [31]. */
  mimg: {
    prefix: 0b111100, op: F(0, 18, 7), dmask: F(0, 8, 4), unorm: F(0, 12, 1), glc: F(0, 13, 1), da: F(0, 14, 1), a16: F(0, 15, 1),
    tfe: F(0, 16, 1), lwe: F(0, 17, 1), slc: F(0, 25, 1),
    vaddr: F(1, 0, 8), vdata: F(1, 8, 8), srsrc: F(1, 16, 5), ssamp: F(1, 21, 5), d16: F(1, 31, 1),
  },
} as const;

export function dsFiles(t: Target, out: Record<string, string>): void {
  const ds = genDs(t);
  out[`${t.dir}/ds.gen.ts`] = header('gen-memory', `DS (LDS/GDS) opcodes of ${t.mcpu}: mnemonic, operands [field, dwords] in print order, offset form, fields that must be zero, whether gds is allowed ('opt'), required or not allowed.`)
    + `export interface DsEntry {\n  readonly mn: string;\n  readonly ops: readonly (readonly [string, number])[];\n  readonly off: 'single' | 'pair' | 'swz' | 'none';\n  readonly zero: readonly string[];\n  readonly gds: 'no' | 'opt' | 'req';\n}\n\n`
    + `export const DS_OPS: Readonly<Record<number, DsEntry>> = {\n${Object.entries(ds.table).map(([k, v]) => `  ${k}: ${lit(v)},`).join('\n')}\n};\n`
    + aliasBlock('DS_ALIASES', genAliases(t, t.ds.prefix, [0x04030201, 0x00000201, 0x00030201, 0x04000201, 0x04000000, 0x00000200, 0x00000000], new Set(Object.values(ds.table).map((e) => e.mn)), 16));
  out[`${t.golden}/ds.tsv`] = formatGolden(buildGolden(t.mcpu, ds.probes, 40));
}

export function flatFiles(t: Target, out: Record<string, string>): void {
  const fl = genFlat(t);
  const legacy = fl.saddr.length > 0;
  const ent = (tb: Record<number, FlatEntry>) => Object.entries(tb).map(([k, v]) => `    ${k}: ${lit(v)},`).join('\n');
  out[`${t.dir}/flat.gen.ts`] = header('gen-memory', `FLAT/GLOBAL/SCRATCH opcodes of ${t.mcpu} by segment: mnemonic, operands [field, dwords] in print order without and with glc (\n * addr/saddr widths depend on the addressing mode and print as 0)${legacy ? ', with the lds bit (absent: rejected)' : ''}, fields that must be zero.`)
    + `export interface FlatEntry {\n  readonly mn: string;\n  readonly ops: readonly (readonly [string, number])[];\n  readonly opsGlc: readonly (readonly [string, number])[];\n${legacy ? '  readonly opsLds?: readonly (readonly [string, number])[];\n' : ''}  readonly zero: readonly string[];\n}\n\n`
    + `export const FLAT_OPS: Readonly<Record<'flat' | 'scratch' | 'global', Readonly<Record<number, FlatEntry>>>> = {\n`
    + SEGS.map((sg) => `  ${sg}: {\n${ent(fl.tables[sg]!)}\n  },`).join('\n') + '\n};\n'
    + (legacy
      ? `\n/** LLVM's text for each saddr value by segment [flat, scratch, global] (null: rejected; FLAT prints none). */\nexport const FLAT_SADDR: readonly (readonly (string | null)[])[] = ${JSON.stringify(fl.saddr)};\n`
        + `\n/** Word-1 bit 23 (nv): 'ign' LLVM ignores it, 'no' LLVM rejects it. */\nexport const FLAT_NV: 'ign' | 'no' = '${fl.nv}';\n`
      : '')
    + aliasBlock('FLAT_ALIASES', genAliases(t, t.flat.prefix, [0x287c140a, 0x287d140a, 0x287f140a, 0x2806140a, 0x2886140a],
      new Set(SEGS.flatMap((sg) => Object.values(fl.tables[sg]!).map((e) => e.mn)))));
  for (const sg of SEGS) out[`${t.golden}/${sg}.tsv`] = formatGolden(buildGolden(t.mcpu, fl.probes[sg]!, 30));
}

export function bufFiles(t: Target, out: Record<string, string>): void {
  for (const kind of ['mubuf', 'mtbuf'] as const) {
    const b = genBuf(t, kind);
    const K = kind.toUpperCase();
    out[`${t.dir}/${kind}.gen.ts`] = header('gen-memory', `${K} opcodes of ${t.mcpu}: mnemonic, operands [field, dwords] in print order (vaddr's width depends on\n * offen/idxen and prints as 0), vdata width with tfe (0: tfe not allowed) and whether llvm-mc accepts tfe, lds bit, [glc, slc, dlc] and offset handling ('opt' printed, 'ign' ignored, 'no' rejected), fields that must be zero.`)
      + `export interface BufEntry {\n  readonly mn: string;\n  readonly ops: readonly (readonly [string, number])[];\n  readonly tfe: number;\n  readonly tfeAsm: boolean;\n  readonly lds: 'no' | 'opt' | 'ign';\n  readonly cpol: readonly ('no' | 'opt' | 'ign')[];\n  readonly offset: 'no' | 'opt' | 'ign';\n  readonly zero: readonly string[];\n}\n\n`
      + `export const ${K}_OPS: Readonly<Record<number, BufEntry>> = {\n${Object.entries(b.table).map(([k, v]) => `  ${k}: ${lit(v)},`).join('\n')}\n};\n`
      + (kind === 'mtbuf' ? `\n/** How LLVM prints each value of the 7-bit format field ('' = default, not printed). */\nexport const MTBUF_FORMATS: readonly string[] = ${JSON.stringify(b.formats)};\n` : '')
      + `\n/** Operand forms llvm-mc accepts in assembly (LLVM prints both, but may refuse to assemble them). */\nexport const ${K}_ASM: Readonly<{ nullSrsrc: boolean; literalSoffset: boolean }> = ${lit(b.asm)};\n`
      + (b.srsrc.length ? `\n/** LLVM's text for each srsrc value (null: rejected). */\nexport const ${K}_SRSRC: readonly (string | null)[] = ${JSON.stringify(b.srsrc)};\n`
        + `\n/** LLVM's text for each soffset value (null: rejected; '#': a literal dword follows). */\nexport const ${K}_SOFFSET: readonly (string | null)[] = ${JSON.stringify(b.soffset)};\n` : '')
      + aliasBlock(`${K}_ALIASES`, genAliases(t, t[kind].prefix, [0x0503140a, 0x0543140a], new Set(Object.values(b.table).map((e) => e.mn))));
    out[`${t.golden}/${kind}.tsv`] = formatGolden(buildGolden(t.mcpu, b.probes, 30));
  }
}

export function mimgFiles(t: Target, out: Record<string, string>): void {
  const mi = genMimg(t);
  out[`${t.dir}/mimg.gen.ts`] = header('gen-memory', `MIMG opcodes of ${t.mcpu}. LLVM decodes through a first-match variant (origV/origA, NSA origVn/origNsa)\n * and widens vdata/vaddr to what dmask/d16/tfe (g4: always 4) and dim/a16 imply when a variant with\n * those widths exists (dset; addr[dim*2+a16] base 36 with '0' = none; nsa[dim*2+a16] widths with '' = none)\n * and the registers stay below v256; '-' marks combinations LLVM rejects. flags: 'opt' printed,\n * 'ign' ignored, 'no' rejected, 'req' required.`)
    + `export interface MimgEntry {\n  readonly mn: string;\n  readonly sampler: boolean;\n  readonly srsrc: number;\n  readonly dimp: boolean;\n  readonly flags: Readonly<Record<string, 'opt' | 'ign' | 'no' | 'req'>>;\n  readonly g4: boolean;\n  readonly dset: string;\n  readonly origV: number;\n  readonly origA: number;\n  readonly origVn: number;\n  readonly origNsa: string;\n  readonly addr: string;\n  readonly nsa: readonly string[];\n}\n\n`
    + `/** dim:... names by the 3-bit dim field. */\nexport const MIMG_DIMS: readonly string[] = ${JSON.stringify(mi.dims)};\n\n`
    + `export const MIMG_OPS: Readonly<Record<number, MimgEntry>> = {\n${Object.entries(mi.table).map(([k, v]) => `  ${k}: ${lit(v)},`).join('\n')}\n};\n`
    + aliasBlock('MIMG_ALIASES', genAliases(t, t.mimg.prefix, [0x0003140a], new Set(Object.values(mi.table).map((e) => e.mn)), 16))
    + (mi.reserved ? `\n/** Word 0 / word 1 bits no MIMG field names that LLVM rejects when set (for every opcode). */\nexport const MIMG_RESERVED: readonly [number, number] = [0x${mi.reserved[0].toString(16)}, 0x${mi.reserved[1].toString(16)}];\n` : '')
    + (mi.rsrcText ? `\n/** LLVM's text for each srsrc (8 SGPRs) and ssamp (4 SGPRs) field value (null: rejected). */\nexport const MIMG_RSRC_TEXT: Readonly<{ srsrc: readonly (string | null)[]; ssamp: readonly (string | null)[] }> = ${JSON.stringify(mi.rsrcText)};\n` : '')
    + (mi.vaddrAsm ? `\n/** The address widths (VGPRs, base 36) llvm-mc accepts per opcode; the encoding does not hold the width. */\nexport const MIMG_VADDR_ASM: Readonly<Record<number, string>> = {\n${Object.entries(mi.vaddrAsm).map(([k, v]) => `  ${k}: '${v}',`).join('\n')}\n};\n` : '')
    + (Object.keys(mi.nsaOrig).length ? `\n/** GFX10 NSA: per opcode, the first-match [vdata width, address widths] LLVM decodes through for an NSA dword count of 1, 2, 3 (null: rejected). */\nexport const MIMG_NSA_ORIG: Readonly<Record<number, readonly (readonly [number, string] | null)[]>> = {\n${Object.entries(mi.nsaOrig).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},`).join('\n')}\n};\n` : '');
  out[`${t.golden}/mimg.tsv`] = formatGolden(buildGolden(t.mcpu, withoutCrashes(t, mi.probes), 30));
}

export async function generate(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const lt of [GFX1030, GFX900] as unknown as Target[]) {
    dsFiles(lt, out);
    flatFiles(lt, out);
    bufFiles(lt, out);
    expFiles(lt, out);
  }
  mimgFiles(GFX1030 as unknown as Target, out);
  mimgFiles(GFX900 as unknown as Target, out);
  const t = GFX11;
  dsFiles(t, out);

  flatFiles(t, out);

  bufFiles(t, out);

  expFiles(t, out);

  mimgFiles(t, out);
  return out;
}
