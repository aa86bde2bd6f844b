/**
 * Generator: the PM4 command processor's register databases (GFX9, GFX10.3, GFX11) and the type-3
 * opcode table, from Mesa's AMD register database (../shared/ref/mesa-amd-registers/: gfx9.json,
 * gfx103.json, gfx11.json, registers-manually-defined.json, pkt3.json). Writes
 * src/amd/cp/regs-<gen>.gen.ts and src/amd/cp/pkt3.gen.ts. Run: `npm run gen -- pm4`.
 *
 * Only registers the CP can write are kept: the four SET_*_REG spaces (config 0x2000-0x2bff,
 * SH 0x2c00-0x2fff, context 0xa000-0xafff, uconfig 0xc000-0xffff, dword offsets). Offsets are
 * dword offsets in the MMIO space (Mesa's `map.at` is a byte offset). The encoding is compact:
 * each register is `[dwordOffset, name, typeIndex]`, each type a field string
 * `NAME:lo:hi[:enumIndex]|...`, each enum `NAME=value|...`; src/amd/cp/regdb.ts expands them.
 *
 * pkt3.json has field layouts of some packet body dwords but not the IT_* opcode numbers; those
 * are hardware facts (the PM4 type-3 opcode space, as AMD's headers number it) listed below, and
 * the generator cross-checks them against pkt3.json, whose `map.at` is 0x[opcode][dword index].
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not imported from run.js: run.js imports generators while its own top-level await is pending.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function sharedRef(): string {
  return process.env.GPUSIM_SHARED_REF ?? join(ROOT, '..', 'shared', 'ref');
}

/** Output generation key -> Mesa chip name / file. */
const GENERATIONS = [
  ['gfx9', 'gfx9'],
  ['gfx103', 'gfx103'],
  ['gfx11', 'gfx11'],
] as const;

/** The CP-writable register spaces, in dword offsets [lo, hi). */
export const SPACES = [
  ['config', 0x2000, 0x2c00],
  ['sh', 0x2c00, 0x3000],
  ['context', 0xa000, 0xb000],
  ['uconfig', 0xc000, 0x10000],
] as const;

/**
 * PM4 type-3 opcodes (IT_*): name, opcode, generations that accept it. Facts of the packet
 * format; opcodes with a field layout in pkt3.json are cross-checked below.
 */
const OPCODES: readonly (readonly [string, number, string])[] = [
  ['NOP', 0x10, 'gfx9 gfx103 gfx11'],
  ['SET_BASE', 0x11, 'gfx9 gfx103 gfx11'],
  ['CLEAR_STATE', 0x12, 'gfx9 gfx103 gfx11'],
  ['INDEX_BUFFER_SIZE', 0x13, 'gfx9 gfx103 gfx11'],
  ['DISPATCH_DIRECT', 0x15, 'gfx9 gfx103 gfx11'],
  ['DISPATCH_INDIRECT', 0x16, 'gfx9 gfx103 gfx11'],
  ['ATOMIC_MEM', 0x1e, 'gfx9 gfx103 gfx11'],
  ['OCCLUSION_QUERY', 0x1f, 'gfx9 gfx103 gfx11'],
  ['SET_PREDICATION', 0x20, 'gfx9 gfx103 gfx11'],
  ['COND_EXEC', 0x22, 'gfx9 gfx103 gfx11'],
  ['PRED_EXEC', 0x23, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDIRECT', 0x24, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDEX_INDIRECT', 0x25, 'gfx9 gfx103 gfx11'],
  ['INDEX_BASE', 0x26, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDEX_2', 0x27, 'gfx9 gfx103 gfx11'],
  ['CONTEXT_CONTROL', 0x28, 'gfx9 gfx103 gfx11'],
  ['INDEX_TYPE', 0x2a, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDIRECT_MULTI', 0x2c, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDEX_AUTO', 0x2d, 'gfx9 gfx103 gfx11'],
  ['NUM_INSTANCES', 0x2f, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDEX_MULTI_AUTO', 0x30, 'gfx9 gfx103 gfx11'],
  ['INDIRECT_BUFFER_CONST', 0x33, 'gfx9 gfx103 gfx11'],
  ['STRMOUT_BUFFER_UPDATE', 0x34, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDEX_OFFSET_2', 0x35, 'gfx9 gfx103 gfx11'],
  ['DRAW_PREAMBLE', 0x36, 'gfx9 gfx103 gfx11'],
  ['WRITE_DATA', 0x37, 'gfx9 gfx103 gfx11'],
  ['DRAW_INDEX_INDIRECT_MULTI', 0x38, 'gfx9 gfx103 gfx11'],
  ['MEM_SEMAPHORE', 0x39, 'gfx9 gfx103 gfx11'],
  ['WAIT_REG_MEM', 0x3c, 'gfx9 gfx103 gfx11'],
  ['INDIRECT_BUFFER', 0x3f, 'gfx9 gfx103 gfx11'],
  ['COPY_DATA', 0x40, 'gfx9 gfx103 gfx11'],
  ['CP_DMA', 0x41, 'gfx9 gfx103 gfx11'],
  ['PFP_SYNC_ME', 0x42, 'gfx9 gfx103 gfx11'],
  ['SURFACE_SYNC', 0x43, 'gfx9'],
  ['COND_WRITE', 0x45, 'gfx9 gfx103 gfx11'],
  ['EVENT_WRITE', 0x46, 'gfx9 gfx103 gfx11'],
  ['EVENT_WRITE_EOP', 0x47, 'gfx9 gfx103 gfx11'],
  ['EVENT_WRITE_EOS', 0x48, 'gfx9 gfx103 gfx11'],
  ['RELEASE_MEM', 0x49, 'gfx9 gfx103 gfx11'],
  ['PREAMBLE_CNTL', 0x4a, 'gfx9 gfx103 gfx11'],
  ['DISPATCH_MESH_INDIRECT_MULTI', 0x4c, 'gfx103 gfx11'],
  ['DISPATCH_TASKMESH_GFX', 0x4d, 'gfx103 gfx11'],
  ['DISPATCH_MESH_DIRECT', 0x4e, 'gfx11'],
  ['DMA_DATA', 0x50, 'gfx9 gfx103 gfx11'],
  ['CONTEXT_REG_RMW', 0x51, 'gfx9 gfx103 gfx11'],
  ['ACQUIRE_MEM', 0x58, 'gfx9 gfx103 gfx11'],
  ['REWIND', 0x59, 'gfx9 gfx103 gfx11'],
  ['PRIME_UTCL2', 0x5d, 'gfx9 gfx103 gfx11'],
  ['LOAD_UCONFIG_REG', 0x5e, 'gfx9 gfx103 gfx11'],
  ['LOAD_SH_REG', 0x5f, 'gfx9 gfx103 gfx11'],
  ['LOAD_CONFIG_REG', 0x60, 'gfx9 gfx103 gfx11'],
  ['LOAD_CONTEXT_REG', 0x61, 'gfx9 gfx103 gfx11'],
  ['LOAD_SH_REG_INDEX', 0x63, 'gfx9 gfx103 gfx11'],
  ['SET_CONFIG_REG', 0x68, 'gfx9 gfx103 gfx11'],
  ['SET_CONTEXT_REG', 0x69, 'gfx9 gfx103 gfx11'],
  ['SET_CONTEXT_REG_INDIRECT', 0x73, 'gfx9 gfx103 gfx11'],
  ['SET_SH_REG', 0x76, 'gfx9 gfx103 gfx11'],
  ['SET_SH_REG_OFFSET', 0x77, 'gfx9 gfx103 gfx11'],
  ['SET_UCONFIG_REG', 0x79, 'gfx9 gfx103 gfx11'],
  ['SET_UCONFIG_REG_INDEX', 0x7a, 'gfx9 gfx103 gfx11'],
  ['LOAD_CONST_RAM', 0x80, 'gfx9 gfx103'],
  ['WRITE_CONST_RAM', 0x81, 'gfx9 gfx103'],
  ['DUMP_CONST_RAM', 0x83, 'gfx9 gfx103'],
  ['INCREMENT_CE_COUNTER', 0x84, 'gfx9 gfx103'],
  ['INCREMENT_DE_COUNTER', 0x85, 'gfx9 gfx103'],
  ['WAIT_ON_CE_COUNTER', 0x86, 'gfx9 gfx103'],
  ['SET_SH_REG_INDEX', 0x9b, 'gfx9 gfx103 gfx11'],
  ['LOAD_CONTEXT_REG_INDEX', 0x9f, 'gfx9 gfx103 gfx11'],
  ['DISPATCH_TASK_STATE_INIT', 0xa9, 'gfx103 gfx11'],
  ['DISPATCH_TASKMESH_DIRECT_ACE', 0xaa, 'gfx103 gfx11'],
  ['DISPATCH_TASKMESH_INDIRECT_MULTI_ACE', 0xad, 'gfx103 gfx11'],
  ['EVENT_WRITE_ZPASS', 0xb1, 'gfx11'],
  ['SET_CONTEXT_REG_PAIRS', 0xb8, 'gfx11'],
  ['SET_CONTEXT_REG_PAIRS_PACKED', 0xb9, 'gfx11'],
  ['SET_SH_REG_PAIRS', 0xba, 'gfx11'],
  ['SET_SH_REG_PAIRS_PACKED', 0xbb, 'gfx11'],
  ['SET_SH_REG_PAIRS_PACKED_N', 0xbd, 'gfx11'],
];

/** pkt3.json body-dword type -> the opcode it belongs to (checked against map.at >> 4). */
const PKT3_OWNER: Record<string, string> = {
  CONTROL: 'WRITE_DATA', COMMAND: 'CP_DMA', CP_DMA_WORD0: 'CP_DMA', CP_DMA_WORD1: 'CP_DMA', CP_DMA_WORD2: 'CP_DMA', CP_DMA_WORD3: 'CP_DMA',
  DMA_DATA_WORD0: 'DMA_DATA', IB_BASE_LO: 'INDIRECT_BUFFER', IB_BASE_HI: 'INDIRECT_BUFFER', IB_CONTROL: 'INDIRECT_BUFFER',
  RELEASE_MEM_OP: 'RELEASE_MEM', GCR_CNTL: 'ACQUIRE_MEM', ACQUIRE_MEM_PWS_2: 'ACQUIRE_MEM', ACQUIRE_MEM_PWS_7: 'ACQUIRE_MEM',
  SRC_ADDR_LO: 'DMA_DATA', SRC_ADDR_HI: 'DMA_DATA',
};

interface MesaField { name: string; bits: [number, number]; enum_ref?: string }
interface MesaMapping { name: string; chips: string[]; map: { at: number; to: string }; type_ref?: string }
interface MesaDb {
  enums: Record<string, { entries: { name: string; value: number }[] }>;
  register_mappings: MesaMapping[];
  register_types: Record<string, { fields: MesaField[] }>;
}

function load(dir: string, file: string): MesaDb {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as MesaDb;
}

/** Interning tables for types and enums, shared by one output file. */
class Tables {
  readonly types: string[] = [];
  readonly typeNames: string[] = [];
  private readonly typeIdx = new Map<string, number>();
  readonly enums: string[] = [];
  readonly enumNames: string[] = [];
  private readonly enumIdx = new Map<string, number>();
  private readonly db: MesaDb;
  constructor(db: MesaDb) {
    this.db = db;
  }
  enumRef(name: string): number {
    const key = name;
    let i = this.enumIdx.get(key);
    if (i !== undefined) return i;
    const e = this.db.enums[name];
    if (!e) return -1;
    i = this.enums.length;
    this.enumIdx.set(key, i);
    this.enumNames.push(name);
    this.enums.push(e.entries.map((x) => `${x.name}=${x.value}`).join('|'));
    return i;
  }
  typeRef(name: string | undefined): number {
    if (name === undefined) return -1;
    let i = this.typeIdx.get(name);
    if (i !== undefined) return i;
    const t = this.db.register_types[name];
    if (!t) return -1;
    const fields = [...t.fields].sort((a, b) => a.bits[0] - b.bits[0]).map((f) => {
      const e = f.enum_ref !== undefined ? this.enumRef(f.enum_ref) : -1;
      return `${f.name}:${f.bits[0]}:${f.bits[1]}${e >= 0 ? ':' + e : ''}`;
    });
    i = this.types.length;
    this.typeIdx.set(name, i);
    this.typeNames.push(name);
    this.types.push(fields.join('|'));
    return i;
  }
}

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function header(what: string): string[] {
  return [
    `// GENERATED by tools/gen/amd/gen-pm4.ts from Mesa's AMD register database`,
    `// (shared/ref/mesa-amd-registers/). ${what} Do not edit; run \`npm run gen -- pm4\`.`,
    '',
  ];
}

function genRegs(dir: string, gen: string, chip: string, manual: MesaDb): { file: string; text: string; count: number } {
  const db = load(dir, `${chip}.json`);
  const t = new Tables(db);
  const rows: [number, string, number][] = [];
  const seen = new Set<string>();
  const inSpace = (dw: number) => SPACES.some(([, lo, hi]) => dw >= lo && dw < hi);
  for (const m of db.register_mappings) {
    if (m.map.to !== 'mm' || !m.chips.includes(chip) || m.map.at % 4 !== 0) continue;
    const dw = m.map.at / 4;
    if (!inSpace(dw) || seen.has(m.name)) continue;
    seen.add(m.name);
    rows.push([dw, m.name, t.typeRef(m.type_ref)]);
  }
  for (const m of manual.register_mappings) {
    if (m.map.to !== 'mm' || !m.chips.includes(chip) || m.map.at % 4 !== 0) continue;
    const dw = m.map.at / 4;
    if (!inSpace(dw) || seen.has(m.name)) continue;
    seen.add(m.name);
    // A manually defined register's type is looked up in the chip's file first, then the manual file.
    let ti = t.typeRef(m.type_ref);
    if (ti < 0 && m.type_ref && manual.register_types[m.type_ref]) {
      const fields = manual.register_types[m.type_ref]!.fields.map((f) => `${f.name}:${f.bits[0]}:${f.bits[1]}`).join('|');
      ti = t.types.length;
      t.types.push(fields);
      t.typeNames.push(m.type_ref);
    }
    rows.push([dw, m.name, ti]);
  }
  rows.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
  const lines = header(`Registers of ${gen} in the CP register spaces.`);
  lines.push(`/** [dword offset, name, index into TYPES or -1] sorted by offset (aliases share an offset). */`);
  lines.push(`export const REGS: readonly (readonly [number, string, number])[] = [`);
  for (const [dw, name, ti] of rows) lines.push(`[0x${dw.toString(16)},${q(name)},${ti}],`);
  lines.push('];', '');
  lines.push(`/** Field layouts: 'NAME:lo:hi[:enumIndex]' joined by '|'. */`);
  lines.push('export const TYPES: readonly string[] = [');
  for (const s of t.types) lines.push(`${q(s)},`);
  lines.push('];', '');
  lines.push(`/** Enums: [name, 'ENTRY=value|...']. */`);
  lines.push('export const ENUMS: readonly (readonly [string, string])[] = [');
  t.enums.forEach((s, i) => lines.push(`[${q(t.enumNames[i]!)},${q(s)}],`));
  lines.push('];', '');
  return { file: `src/amd/cp/regs-${gen}.gen.ts`, text: lines.join('\n'), count: rows.length };
}

function genPkt3(dir: string): string {
  const db = load(dir, 'pkt3.json');
  const byName = new Map(OPCODES.map(([n, op]) => [n, op]));
  const seenOps = new Set<number>();
  for (const [n, op] of OPCODES) {
    if (seenOps.has(op)) throw new Error(`gen-pm4: opcode 0x${op.toString(16)} listed twice (${n})`);
    seenOps.add(op);
  }
  // Cross-check: pkt3.json numbers body dwords 0x[opcode][index].
  for (const m of db.register_mappings) {
    const owner = PKT3_OWNER[m.name];
    if (owner === undefined) continue;
    const op = m.map.at >> 4;
    if (byName.get(owner) !== op) throw new Error(`gen-pm4: pkt3.json puts ${m.name} at 0x${m.map.at.toString(16)}, but ${owner} is 0x${byName.get(owner)?.toString(16)}`);
  }
  const lines = header('PM4 type-3 opcodes and packet body-dword layouts.');
  lines.push('/** [IT_* name (without IT_), opcode, generations that accept it (space separated)]. */');
  lines.push('export const OPCODES: readonly (readonly [string, number, string])[] = [');
  for (const [n, op, gens] of OPCODES) lines.push(`[${q(n)},0x${op.toString(16)},${q(gens)}],`);
  lines.push('];', '');
  // Body-dword layouts per generation: [name, opcode, dword index (as pkt3.json numbers it), type index].
  const t = new Tables(db);
  lines.push('/** Packet body-dword layouts: [name, generation, opcode, dword index, index into PKT3_TYPES]. */');
  lines.push('export const PKT3_DWORDS: readonly (readonly [string, string, number, number, number])[] = [');
  for (const [gen, chip] of GENERATIONS) {
    for (const m of db.register_mappings) {
      if (!m.chips.includes(chip) || m.map.to !== 'pkt3') continue;
      lines.push(`[${q(m.name)},${q(gen)},0x${(m.map.at >> 4).toString(16)},${m.map.at & 15},${t.typeRef(m.type_ref)}],`);
    }
  }
  lines.push('];', '');
  lines.push('export const PKT3_TYPES: readonly string[] = [');
  for (const s of t.types) lines.push(`${q(s)},`);
  lines.push('];', '');
  lines.push('export const PKT3_ENUMS: readonly (readonly [string, string])[] = [');
  t.enums.forEach((s, i) => lines.push(`[${q(t.enumNames[i]!)},${q(s)}],`));
  lines.push('];', '');
  return lines.join('\n');
}

export function generate(): Record<string, string> {
  const dir = join(sharedRef(), 'mesa-amd-registers');
  const manual = load(dir, 'registers-manually-defined.json');
  const out: Record<string, string> = {};
  for (const [gen, chip] of GENERATIONS) {
    const r = genRegs(dir, gen, chip, manual);
    out[r.file] = r.text;
  }
  out['src/amd/cp/pkt3.gen.ts'] = genPkt3(dir);
  return out;
}
