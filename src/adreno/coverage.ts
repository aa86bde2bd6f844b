/**
 * Coverage of the Adreno work, measured rather than listed by hand: which PM4 opcodes of a
 * generation the CP executes (a packet is "executed" when the CP does not report it as
 * `adreno.cp.unmodelled-packet`), which have field-level payload layouts from rules-ng, which
 * register domains the database holds per generation, and which afuc encodings the SQE emulator
 * executes (an encoding is executed when the emulator does not stop with `afuc.unmodelled`), and
 * which ir3 instructions of the isaspec the SP executes (has a bound handler for).
 * `gpusim adreno coverage` prints it; a test keeps src/adreno/README.md's table equal to it.
 */
import { Memory } from '../core/memory.js';
import { Diagnostics } from '../core/diagnostics.js';
import { DOMAINS } from './regs/db.gen.js';
import { genBit, gpuRegs, registerSpace, type Gen } from './regs/db.js';
import { opcodes, pkt7 } from './cp/pm4.js';
import { CommandProcessor } from './cp/cp.js';
import { AFUC_FORMS } from './afuc/afuc.gen.js';
import { AfucEmu } from './afuc/emu.js';
import { afucGen } from './afuc/isa.js';
import { instructionNames } from './ir3/isa.js';
import { IMPLEMENTED } from './sp/exec.js';

/** Packets sharing another's payload layout (as the printer resolves them). */
const LAYOUT_ALIAS: Readonly<Record<string, string>> = { CP_LOAD_STATE6_GEOM: 'CP_LOAD_STATE6', CP_LOAD_STATE6_FRAG: 'CP_LOAD_STATE6' };

export interface PacketCoverage {
  readonly gen: Gen;
  /** Every type-7 opcode name of the generation (internal jump-table slots excluded). */
  readonly all: readonly string[];
  readonly executed: readonly string[];
  readonly decodedOnly: readonly string[];
  /** Opcodes with a rules-ng payload domain (printed field by field). */
  readonly withLayout: readonly string[];
}

/** Internal jump-table entries (PKT4, IN_*), not packets a stream carries. */
const internal = (n: string): boolean => n === 'PKT4' || n.startsWith('IN_');

export function packetCoverage(gen: 'a6xx' | 'a7xx'): PacketCoverage {
  const all = [...opcodes(gen).keys()].filter((n) => !internal(n)).sort();
  const executed: string[] = [];
  for (const name of all) {
    const mem = new Memory();
    const stream = new Uint32Array(9);
    stream[0] = pkt7(opcodes(gen).get(name)!, 8);
    mem.map(0x10000, stream.length * 4, 'probe', new Uint8Array(stream.buffer));
    const diag = new Diagnostics();
    const cp = new CommandProcessor(mem, { gen, diag, maxPolls: 2, maxPackets: 64, snapshots: false });
    cp.run(0x10000, stream.length);
    if (!diag.list.some((d) => d.id === 'adreno.cp.unmodelled-packet' || d.id === 'adreno.cp.unknown-opcode')) executed.push(name);
  }
  const bit = genBit(gen);
  const withLayout = all.filter((n) => {
    const d = DOMAINS[LAYOUT_ALIAS[n] ?? n];
    return !!d && d.regs.some((r) => r[4] & bit);
  });
  return { gen, all, executed, decodedOnly: all.filter((n) => !executed.includes(n)), withLayout };
}

export interface DomainCoverage {
  readonly domain: string;
  /** Registers (arrays expanded) per generation that has any. */
  readonly perGen: Readonly<Partial<Record<Gen, number>>>;
  readonly use: string;
}

const GEN_LIST: Gen[] = ['a2xx', 'a3xx', 'a4xx', 'a5xx', 'a6xx', 'a7xx'];

function domainUse(d: string): string {
  if (d === 'A6XX') return 'GPU registers: decode, print, crash dumps, and the simulated CP register file (a6xx, a7xx)';
  if (/^A[2-5]XX$/.test(d) || d === 'AXXX') return 'GPU registers: decode, print';
  if (d === 'A5XX_CONTROL_REG') return 'PFP/ME control registers (afuc disassembly)';
  if (/_CONTROL_REG$/.test(d)) return 'SQE control registers (afuc cread/cwrite, emulator)';
  if (/_PIPE_REG$/.test(d)) return 'SQE pipe registers ($addr bits 24+, emulator)';
  if (d === 'A6XX_SQE_REG') return 'SQE internal registers (sread/swrite, call stack)';
  if (/^CP_/.test(d)) return 'PM4 payload layout (printer)';
  if (d === 'A6XX_TEX_CONST' || d === 'A6XX_TEX_SAMP' || d === 'A6XX_UBO') return 'descriptor layout (the SP reads textures, samplers, IBOs and UBOs through it)';
  if (/_TEX_|_SSBO|_UBO/.test(d)) return 'descriptor layout (decoded by name only)';
  return 'in the database; no tool walks this space';
}

/** Generations a domain serves: by name prefix (A6XX* also a7xx, AXXX a2xx/a3xx as gpuRegs merges it); PM4 domains all. */
function domainGens(d: string): Gen[] {
  if (d === 'AXXX') return ['a2xx', 'a3xx'];
  const m = /^A([2-7])XX/.exec(d);
  if (m) return m[1] === '6' ? ['a6xx', 'a7xx'] : [`a${m[1]}xx` as Gen];
  if (d.startsWith('CP_')) return GEN_LIST;
  return [];
}

export function domainCoverage(): DomainCoverage[] {
  const out: DomainCoverage[] = [];
  for (const d of Object.keys(DOMAINS).sort()) {
    const perGen: Partial<Record<Gen, number>> = {};
    for (const g of domainGens(d)) {
      const n = registerSpace(d, g).count;
      if (n) perGen[g] = n;
    }
    out.push({ domain: d, perGen, use: domainUse(d) });
  }
  return out;
}

export interface AfucCoverage {
  readonly gen: 6 | 7;
  readonly forms: readonly string[];
  readonly executed: readonly string[];
  readonly notExecuted: readonly string[];
}

/** afuc encodings of a generation, and which of them the emulator executes. */
export function afucCoverage(g: 'a6xx' | 'a7xx'): AfucCoverage {
  const gen = afucGen(g) as 6 | 7;
  const forms = AFUC_FORMS.filter((f) => gen >= f.genMin && gen <= f.genMax);
  const executed: string[] = [];
  for (const f of forms) {
    // The form's own match bits with every field zero: $00 operands, offset 0.
    const emu = new AfucEmu(Uint32Array.of(f.match >>> 0, pkt7(0x10, 0), 0, 0), { gen: g, diag: new Diagnostics(), mem: new Memory() });
    emu.feed([0, 0, 0, 0]);
    emu.step();
    if (!emu.diag.list.some((d) => d.id === 'afuc.unmodelled' || d.id === 'afuc.illegal-instruction')) executed.push(f.name);
  }
  const names = forms.map((f) => f.name);
  return { gen, forms: names, executed, notExecuted: names.filter((n) => !executed.includes(n)) };
}

export interface Ir3Coverage {
  readonly gpu: string;
  /** isaspec instruction names (leaf bitsets) that exist on the GPU. */
  readonly all: readonly string[];
  readonly executed: readonly string[];
  readonly notExecuted: readonly string[];
}

/** ir3 instructions of a GPU (from the isaspec tables) and which the SP executes (has a handler for). */
export function ir3Coverage(gpu: 'a630' | 'a730'): Ir3Coverage {
  const all = instructionNames(gpu === 'a630' ? 630 : 730);
  const executed = all.filter((n) => IMPLEMENTED.has(n));
  return { gpu, all, executed, notExecuted: all.filter((n) => !IMPLEMENTED.has(n)) };
}

/** Text table for `gpusim adreno coverage` and the README. */
export function coverageLines(): string[] {
  const out: string[] = ['| generation | type-7 opcodes | executed by the CP | decoded only | payload layouts |', '|---|---|---|---|---|'];
  const pc = [packetCoverage('a6xx'), packetCoverage('a7xx')];
  for (const p of pc) out.push(`| ${p.gen} | ${p.all.length} | ${p.executed.length} | ${p.decodedOnly.length} | ${p.withLayout.length} |`);
  out.push('');
  for (const p of pc) out.push(`${p.gen} decoded only: ${p.decodedOnly.join(', ')}`);
  out.push('', '| register domain | ' + GEN_LIST.join(' | ') + ' | used for |', '|---|' + GEN_LIST.map(() => '---|').join('') + '---|');
  for (const d of domainCoverage()) {
    if (!/^A[2-7]XX|^AXXX/.test(d.domain)) continue;
    out.push(`| ${d.domain} | ${GEN_LIST.map((g) => d.perGen[g] ?? '').join(' | ')} | ${d.use} |`);
  }
  const pm4 = domainCoverage().filter((d) => d.domain.startsWith('CP_')).length;
  out.push('', `PM4 payload-layout domains: ${pm4}; GPU register files: ${GEN_LIST.map((g) => `${g} ${gpuRegs(g).count}`).join(', ')}`);
  out.push('', '| afuc | encodings | executed by the emulator | not executed |', '|---|---|---|---|');
  const a5 = AFUC_FORMS.filter((f) => 5 >= f.genMin && 5 <= f.genMax).length;
  out.push(`| a5xx | ${a5} | - (the emulator models the a6xx/a7xx SQE, as freedreno's does) | - |`);
  for (const g of ['a6xx', 'a7xx'] as const) {
    const a = afucCoverage(g);
    out.push(`| a${a.gen}xx | ${a.forms.length} | ${a.executed.length} | ${a.notExecuted.join(', ') || '-'} |`);
  }
  out.push('', '| ir3 | instructions | executed by the SP | not executed |', '|---|---|---|---|');
  for (const g of ['a630', 'a730'] as const) {
    const c = ir3Coverage(g);
    out.push(`| ${g} | ${c.all.length} | ${c.executed.length} | ${c.notExecuted.join(', ') || '-'} |`);
  }
  return out;
}
