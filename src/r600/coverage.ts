/**
 * Measured R600-family opcode coverage per generation (`gpusim r600 coverage`; the table in
 * src/r600/README.md, kept equal to this output by a test).
 *
 * - decoded: opcodes the decoder's tables resolve on the generation (every ALU_INST / LDS_OP /
 *   CF_INST code is tried; each op counts once).
 * - executed: the executor runs the op without reporting it unmodelled. Each op is probed: a
 *   one-instruction program (an ALU group, a CF instruction, a TEX / GDS word, a RAT export) runs
 *   on one wave of the generation's reference chip, and the op counts unless the run reports
 *   `r600.alu.unsupported`, `r600.lds.unsupported`, `r600.unsupported`, `r600.tex.unsupported`,
 *   `r600.gds.unsupported` or `r600.rat.unsupported` (or an unknown-opcode id).
 * - tested: executed, and either printed by clang-19 in a committed fixture listing of a chip of
 *   that generation (kernels/r600/bin/<chip>/*.s; every fixture runs against a CPU reference) or
 *   named (ISA or LLVM spelling, as a whole word; RAT_INSTs after a MEM_RAT* mnemonic) in a
 *   test/r600 source. Test sources are not split by generation: a name counts for every generation
 *   that executes the op. `fixtures` counts the clang part alone.
 * The file reading is the caller's (the CLI, the test): this layer takes the texts.
 */
import { Diagnostics } from '../core/diagnostics.js';
import { assembleCf } from './isa/asm.js';
import { GEN_COLUMN, MCPU_GEN, aluOp, cfOp, decodeProgram, gdsOp, ratInst, texInst, type R600Gen } from './isa/decode.js';
import type { AluOpInfo, CfOpInfo } from './isa/opcodes.gen.js';
import type { R600Object } from './isa/object.js';
import { encodeTexResource, encodeTexSampler } from './exec/tex.js';
import { runR600 } from './wave/dispatch.js';

export const COVERAGE_GENS: readonly R600Gen[] = ['r600', 'r700', 'evergreen', 'cayman'];
/** The chip each generation's probes run on (a chip with the 64-bit float ops where there is one). */
const PROBE_CHIP: Readonly<Record<R600Gen, string>> = { r600: 'r600', r700: 'rv770', evergreen: 'cypress', cayman: 'cayman' };

export interface R600CoverageCounts {
  readonly decoded: number;
  readonly executed: number;
  /** Executed and in a clang fixture listing or named in a test. */
  readonly tested: number;
  /** Of those, in a clang fixture listing of the generation. */
  readonly fixtures: number;
}
export interface R600CoverageRow {
  readonly gen: R600Gen;
  readonly alu: R600CoverageCounts & { readonly op2: number; readonly op3: number; readonly lds: number };
  readonly cf: R600CoverageCounts;
  readonly tex: R600CoverageCounts;
  readonly gds: R600CoverageCounts;
  readonly rat: R600CoverageCounts;
  /** Decoded but not executed, by kind (for the README's lists). */
  readonly missing: { readonly alu: readonly string[]; readonly cf: readonly string[]; readonly tex: readonly string[]; readonly gds: readonly string[]; readonly rat: readonly string[] };
}

/** What the caller read: fixture listings per chip (-mcpu -> .s texts) and the test/r600 sources. */
export interface CoverageSources {
  readonly fixtures: ReadonlyMap<string, readonly string[]>;
  readonly tests: readonly string[];
}

const UNMODELLED = new Set(['r600.alu.unsupported', 'r600.alu.unknown', 'r600.lds.unsupported', 'r600.unsupported', 'r600.cf.unknown', 'r600.tex.unsupported', 'r600.gds.unsupported', 'r600.rat.unsupported']);

const err = (m: string): never => {
  throw new Error(`coverage probe: ${m}`);
};

/** Run one probe program (words) on one 64-item group of the generation's chip; true when nothing is reported unmodelled. */
function probe(gen: R600Gen, words: Uint32Array, extra: { textures?: Map<number, Uint32Array>; samplers?: Map<number, Uint32Array> } = {}): boolean {
  const program = decodeProgram(gen, words, 'coverage probe');
  const object: R600Object = { mcpu: PROBE_CHIP[gen], gen, text: new Uint8Array(words.buffer.slice(0)), kernels: [{ name: 'probe', offset: 0, program, relocs: new Map() }], dataSymbols: new Map(), config: [] };
  const diag = new Diagnostics();
  runR600({
    object, kernel: object.kernels[0]!, grid: [64, 1, 1], block: [64, 1, 1], args: new Uint8Array(0), global: new Uint8Array(4096), diag,
    stackSize: 8, maxInstructions: 200, waveSize: 64, textures: extra.textures, samplers: extra.samplers,
  });
  return !diag.list.some((d) => UNMODELLED.has(d.id));
}

/** CF program: `first` at CF 0, CF_END at 1, a RETURN at 2 (CALL targets), a NOP, then clause words from slot 4. */
function program(gen: R600Gen, first: readonly [number, number], clause: readonly number[]): Uint32Array {
  const end = assembleCf(gen, 'CF_END', err);
  const ret = assembleCf(gen, 'RETURN', err);
  const nop = assembleCf(gen, 'NOP', err);
  const w = new Uint32Array(8 + Math.max(clause.length, 8));
  w.set([first[0], first[1], end[0], end[1], ret[0], ret[1], nop[0], nop[1]]);
  w.set(clause, 8);
  return w;
}

/** ALU clause CF word (CF_INST_ALU) for `count` instructions at slot 4. */
const aluCf = (count: number): [number, number] => [4, (((count - 1) << 18) | (8 << 26) | (1 << 31)) >>> 0];
/** CF_INSTs whose ADDR is a clause (slot 4); the others jump or call to CF 2. */
const CLAUSE_CF = new Set(['TC', 'VC', 'VC_TC', 'GDS', 'TC_ACK', 'VC_ACK']);

function aluWords(gen: R600Gen, op: AluOpInfo): [number, number] {
  const code = gen === 'r600' || gen === 'r700' ? op.r600 : op.eg;
  // src0 T0.X, src1 T1.X (src2 T0.X), last in group.
  const w0 = ((0 << 0) | (1 << 13) | (1 << 31)) >>> 0;
  if (op.enc === 'lds') return [w0, ((0x11 << 13) | (code << 21)) >>> 0];
  if (op.enc === 'op3') return [w0, ((code << 13) | (2 << 21)) >>> 0];
  const at = gen === 'r600' ? 8 : 7;
  return [w0, ((code << at) | (1 << 4) | (2 << 21)) >>> 0];
}

/** Every ALU op the generation decodes (distinct ops over all codes of the three encodings). */
export function decodedAluOps(gen: R600Gen): AluOpInfo[] {
  const seen = new Set<AluOpInfo>();
  const eg = gen === 'evergreen' || gen === 'cayman';
  for (const [enc, n] of [['op2', gen === 'r600' ? 1024 : 2048], ['op3', 32], ['lds', eg ? 64 : 0]] as const) {
    for (let code = 0; code < n; code++) {
      const op = aluOp(gen, enc, code);
      if (op && op.slots[GEN_COLUMN[gen]] !== '') seen.add(op);
    }
  }
  return [...seen];
}

export function decodedCfOps(gen: R600Gen): CfOpInfo[] {
  const seen = new Set<CfOpInfo>();
  for (let code = 0; code < 256; code++) {
    const op = cfOp(gen, false, code);
    if (op) seen.add(op);
  }
  for (let code = 8; code < 16; code++) {
    const op = cfOp(gen, true, code);
    if (op) seen.add(op);
  }
  return [...seen];
}

function cfWords(gen: R600Gen, op: CfOpInfo): [number, number] {
  const code = op.codes[GEN_COLUMN[gen]];
  if (op.alu) return aluCf(1);
  // Exports / MEM_*: RAT 0 STORE_RAW (RAT_INST 2) from T0 indexed by T1, COMP_MASK 1; other CF: ADDR 4 (a clause) or 2, COUNT 0.
  const eg = gen === 'evergreen' || gen === 'cayman';
  if (eg ? code >= 0x40 : code >= 0x20 && code <= 0x3a) return [((2 << 4) | (1 << 23)) >>> 0, ((1 << 12) | (code << 22) | (1 << 31)) >>> 0];
  return [CLAUSE_CF.has(op.name) ? 4 : 2, ((code << 22) | (1 << 31)) >>> 0];
}

/** A 4x4 RGBA32F texture at byte 1024 of global memory and a point sampler, bound as id 0. */
function texBindings(): { textures: Map<number, Uint32Array>; samplers: Map<number, Uint32Array> } {
  return {
    textures: new Map([[0, encodeTexResource({ width: 4, height: 4, format: 0x23, base: 1024 })]]),
    samplers: new Map([[0, encodeTexSampler({})]]),
  };
}

/** Whole-word occurrences of any of the names in a text. */
function mentions(texts: readonly string[]): (names: readonly string[]) => boolean {
  const words = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) words.add(m[0]);
  return (names) => names.some((n) => words.has(n));
}

export function r600Coverage(src: CoverageSources): R600CoverageRow[] {
  const named = mentions(src.tests);
  // RAT_INST names share spellings with ALU ops (ADD, NOP...): count them only after a MEM_RAT* mnemonic.
  const ratNamed = new Set<string>();
  for (const t of src.tests) for (const m of t.matchAll(/\bMEM_RAT\w*\s+([A-Z][A-Z0-9_]*)/g)) ratNamed.add(m[1]!);
  return COVERAGE_GENS.map((gen) => {
    const fixtureTexts: string[] = [];
    for (const [mcpu, texts] of src.fixtures) if (MCPU_GEN[mcpu] === gen) fixtureTexts.push(...texts);
    const inFixture = mentions(fixtureTexts);
    const count = <T>(all: readonly T[], exec: (x: T) => boolean, names: (x: T) => string[], llvm: (x: T) => string[], label: (x: T) => string, isNamed = (x: T) => named(names(x))) => {
      const executed = all.filter(exec);
      return {
        counts: {
          decoded: all.length, executed: executed.length,
          tested: executed.filter((x) => inFixture(llvm(x)) || isNamed(x)).length,
          fixtures: executed.filter((x) => inFixture(llvm(x))).length,
        },
        missing: all.filter((x) => !executed.includes(x)).map(label),
      };
    };
    const aluOps = decodedAluOps(gen);
    const alu = count(aluOps, (op) => probe(gen, program(gen, aluCf(1), aluWords(gen, op))), (op) => [op.name, op.llvm], (op) => [op.llvm], (op) => op.name);
    const cfOps = decodedCfOps(gen);
    const mov = aluWords(gen, aluOps.find((o) => o.name === 'MOV')!);
    // A GDS clause gets one GDS_ADD word (address T0.X, data T0.Y).
    const gdsAdd = [(2 | (4 << 8) | (0 << 20) | (1 << 23) | (2 << 26)) >>> 0, 2, 0 | (1 << 3) | (2 << 6) | (3 << 9), 0];
    const cf = count(cfOps, (op) => probe(gen, program(gen, cfWords(gen, op), op.alu ? mov : op.name === 'GDS' ? gdsAdd : [])), (op) => [op.name, op.llvm], (op) => [op.llvm], (op) => op.name);
    const eg = gen === 'evergreen' || gen === 'cayman';
    // TEX words in a TC clause (Evergreen/Cayman: the R600/R700 texture path is not modelled).
    const texOps = [];
    for (let code = 3; code < 32; code++) { const t = texInst(gen, code); if (t) texOps.push(t); }
    const tc = cfOp(gen, false, 1)!;
    const tex = count(texOps, (t) => eg && probe(gen, program(gen, cfWords(gen, tc), [(t.codes[GEN_COLUMN[gen]] | (1 << 16)) >>> 0, (2 | (0 << 9) | (1 << 12) | (2 << 15) | (3 << 18) | (0xf << 28)) >>> 0, ((1 << 23) | (2 << 26) | (3 << 29)) >>> 0, 0]), texBindings()),
      (t) => [t.name, t.llvm], (t) => [t.llvm], (t) => t.name);
    // MEM_GDS words in a GDS clause (Evergreen/Cayman only): address T0.X, data T0.Y / T0.Z.
    const gdsOps = [];
    for (let code = 0; code < 64; code++) { const g = gdsOp(code); if (g) gdsOps.push(g); }
    const gdsCf = cfOp(gen, false, 3);
    const gds = count(eg ? gdsOps : [], (g) => gdsCf?.name === 'GDS' && probe(gen, program(gen, cfWords(gen, gdsCf), [(2 | (4 << 8) | (0 << 20) | (1 << 23) | (2 << 26)) >>> 0, ((g.code << 9) | 2) >>> 0, 0 | (1 << 3) | (2 << 6) | (3 << 9), 0])),
      (g) => [g.name], () => [], (g) => g.name);
    // RAT_INSTs on MEM_RAT (Evergreen/Cayman).
    const ratOps = [];
    for (let code = 0; code < 64; code++) { const r = ratInst(code); if (r) ratOps.push(r); }
    const memRat = decodedCfOps(gen).find((o) => o.name === 'MEM_RAT');
    const rat = count(eg && memRat ? ratOps : [], (r) => probe(gen, program(gen, [((r.code << 4) | (1 << 13) | (1 << 23)) >>> 0, ((0xf << 12) | (memRat!.codes[GEN_COLUMN[gen]] << 22) | (1 << 31)) >>> 0], [])),
      (r) => [r.name, r.llvm], (r) => [r.llvm], (r) => r.name, (r) => ratNamed.has(r.name) || ratNamed.has(r.llvm));
    return {
      gen,
      alu: { ...alu.counts, op2: aluOps.filter((o) => o.enc === 'op2').length, op3: aluOps.filter((o) => o.enc === 'op3').length, lds: aluOps.filter((o) => o.enc === 'lds').length },
      cf: cf.counts, tex: tex.counts, gds: gds.counts, rat: rat.counts,
      missing: { alu: alu.missing, cf: cf.missing, tex: tex.missing, gds: gds.missing, rat: rat.missing },
    };
  });
}

const GEN_NAME: Readonly<Record<R600Gen, string>> = { r600: 'r600 (first-generation op2 layout)', r700: 'r700', evergreen: 'evergreen (cypress)', cayman: 'cayman (VLIW4)' };

/** The README table (markdown lines). */
export function coverageTable(rows: readonly R600CoverageRow[]): string[] {
  const c = (x: R600CoverageCounts): string => `${x.decoded} | ${x.executed} | ${x.tested} (${x.fixtures})`;
  const d = (x: R600CoverageCounts): string => (x.decoded ? `${x.decoded} / ${x.executed} / ${x.tested}` : '-');
  return [
    '| generation | ALU ops decoded (op2 / op3 / LDS) | executed | tested (clang) | CF ops decoded | executed | tested (clang) | TEX_INSTs decoded / executed / tested | GDS_OPs | RAT_INSTs |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${GEN_NAME[r.gen]} | ${r.alu.decoded} (${r.alu.op2} / ${r.alu.op3} / ${r.alu.lds}) | ${r.alu.executed} | ${r.alu.tested} (${r.alu.fixtures}) | ${c(r.cf)} | ${d(r.tex)} | ${d(r.gds)} | ${d(r.rat)} |`),
  ];
}

/** `gpusim r600 coverage`: the table, then what Evergreen and Cayman decode but do not execute. */
export function coverageLines(rows: readonly R600CoverageRow[]): string[] {
  const out = coverageTable(rows);
  for (const r of rows) {
    if (r.gen !== 'evergreen' && r.gen !== 'cayman') continue;
    out.push('');
    const kinds = [['ALU', r.missing.alu], ['CF', r.missing.cf], ['TEX', r.missing.tex], ['GDS', r.missing.gds], ['RAT', r.missing.rat]] as const;
    out.push(`Not executed on ${r.gen}: ${kinds.map(([k, m]) => `${k} ${m.length ? m.join(', ') : '(none)'}`).join('; ')}.`);
  }
  return out;
}
