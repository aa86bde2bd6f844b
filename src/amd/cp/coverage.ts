/**
 * Measured PM4 coverage per generation (`gpusim pm4 coverage`): type-3 opcodes the generation
 * has, how many decode dword by dword (the handler table or Mesa's pkt3.json layouts), how many
 * the every-packet example stream covers (its decode is a golden file), how many the command
 * processor executed on it; registers and fields in the database and how many registers the
 * example streams (the every-packet stream, on GFX11 the `gpusim draw` example scenes, and the
 * compute example: a bundled kernel of the generation launched by DISPATCH_DIRECT and
 * DISPATCH_INDIRECT) write, and how many of the compute example's dispatches ran a kernel.
 * src/amd/cp/README.md carries the table and a test keeps it equal to this output.
 */
import { Memory } from '../../core/memory.js';
import { Diagnostics } from '../../core/diagnostics.js';
import { CommandProcessor, packetWrites } from './cp.js';
import { everyPacket } from './examples.js';
import { DEFAULT_RENDER_BACKENDS } from './queries.js';
import { HANDLERS } from './packets.js';
import { OPCODES } from './pkt3.gen.js';
import { pkt3Layouts } from './pm4.js';
import { PM4_GENS, regDb, type Pm4Gen } from './regdb.js';
import { Pm4Builder } from './builder.js';
import { walkPm4 } from './walker.js';

export interface Pm4CoverageRow {
  readonly gen: Pm4Gen;
  readonly opcodes: number;
  readonly decoded: number;
  readonly golden: number;
  readonly executed: number;
  readonly registers: number;
  readonly fields: number;
  readonly written: number;
  /** The streams `written` counts. */
  readonly streams: number;
  /** Kernel dispatches of the compute example streams the CP ran on the shader model. */
  readonly kernelsRun: number;
}

/** Distinct register offsets a stream's SET/type-0/pairs packets write. */
function writtenBy(words: Uint32Array, gen: Pm4Gen, into: Set<number>): void {
  walkPm4(words, { packet: (p) => { for (const w of packetWrites(p, gen)) into.add(w.offset); } }, { gen });
}

/** The PM4 streams of a generation's example scenes (the CLI runs examples/<name>/scene.json; this layer has no file system). */
export type SceneStreams = (gen: Pm4Gen) => Uint32Array[];
/**
 * The compute example of a generation: the streams of a bundled kernel launched through PM4
 * (`gpusim run --pm4 direct|indirect`) and how many of their dispatches ran a kernel.
 */
export type ComputeStreams = (gen: Pm4Gen) => { readonly streams: Uint32Array[]; readonly dispatchesRun: number };

export function pm4Coverage(scenes: SceneStreams = () => [], compute: ComputeStreams = () => ({ streams: [], dispatchesRun: 0 })): Pm4CoverageRow[] {
  return PM4_GENS.map((gen) => {
    const ops = OPCODES.filter(([, , g]) => g.split(' ').includes(gen)).map(([, op]) => op);
    const layouts = pkt3Layouts(gen);
    const decoded = ops.filter((op) => HANDLERS.has(op) || layouts.has(op)).length;
    const stream = everyPacket(gen).finish();
    const seen = new Set<number>();
    walkPm4(stream, { packet: (p) => { if (p.type === 3) seen.add(p.opcode); } }, { gen });
    const golden = ops.filter((op) => seen.has(op) && HANDLERS.has(op)).length;
    // Execute it with the memory the stream expects (examples.ts).
    const mem = new Memory();
    mem.map(0x100000, 0x400000, 'example');
    mem.write32(0x400000, 1);
    mem.writeBytes(0x300000, new Pm4Builder(gen).nop(1).bytes());
    // A DB that has counted no samples (nothing is rendered) answers the stream's occlusion query.
    const cp = new CommandProcessor({ gen, mem, diag: new Diagnostics(), zpassCounts: () => new Array<number>(DEFAULT_RENDER_BACKENDS).fill(0) });
    cp.run(stream);
    const written = new Set<number>();
    writtenBy(stream, gen, written);
    const cs = compute(gen);
    const extra = [...scenes(gen), ...cs.streams];
    for (const s of extra) writtenBy(s, gen, written);
    const db = regDb(gen);
    return {
      gen, opcodes: ops.length, decoded, golden, executed: cp.executedOpcodes.size,
      registers: db.regs.length, fields: db.regs.reduce((n, r) => n + r.fields.length, 0), written: written.size, streams: 1 + extra.length,
      kernelsRun: cs.dispatchesRun,
    };
  });
}

const GEN_NAME: Record<Pm4Gen, string> = { gfx9: 'GFX9 (gfx900)', gfx103: 'GFX10.3 (gfx1030)', gfx11: 'GFX11 (gfx1100)' };

/** The README table (markdown lines). */
export function coverageTable(rows: readonly Pm4CoverageRow[]): string[] {
  return [
    '| generation | type-3 opcodes | decoded field by field | in the every-packet golden | executed by the CP | registers | register fields | registers written by the example streams | kernel dispatches run through PM4 |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${GEN_NAME[r.gen]} | ${r.opcodes} | ${r.decoded} | ${r.golden} | ${r.executed} | ${r.registers} | ${r.fields} | ${r.written} (${r.streams} stream${r.streams === 1 ? '' : 's'}) | ${r.kernelsRun} |`),
  ];
}
