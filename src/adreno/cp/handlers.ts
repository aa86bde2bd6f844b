/**
 * The executing CP's packet handler table: for each generation, an array indexed by type-7
 * opcode number (as pm4.ts names them for that generation), built once. Opcodes the generation
 * does not define stop the CP (CP_OPCODE_ERROR); defined ones without a model are no-ops with an
 * info diagnostic. The handlers themselves are grouped by what they touch (handlers-*.ts); the
 * ones here steer the walk: IB calls and chains.
 */
import type { Gen } from '../regs/db.js';
import type { CommandProcessor } from './cp.js';
import { a64, need, Stop, type Handler } from './exec.js';
import { COND_HANDLERS } from './handlers-cond.js';
import { DRAW_HANDLERS } from './handlers-draw.js';
import { EVENT_HANDLERS } from './handlers-event.js';
import { MEM_HANDLERS } from './handlers-mem.js';
import { decodeHeader, opcodeName, opcodes } from './pm4.js';
import { vscActive } from './handlers-draw.js';
import { END, type PacketRecord } from './walker.js';

function nop(): number {
  return 0;
}

const DRAW_OPS = ['CP_DRAW_INDX_OFFSET', 'CP_DRAW_INDIRECT', 'CP_DRAW_INDX_INDIRECT', 'CP_DRAW_INDIRECT_MULTI', 'CP_DRAW_AUTO'];

/** Draw packets directly in a buffer (header scan, no execution). */
function countDraws(cp: CommandProcessor, iova: number, dwords: number): number {
  const ops = new Set(DRAW_OPS.map((n) => opcodes(cp.gen).get(n)).filter((v): v is number => v !== undefined));
  let n = 0;
  for (let k = 0; k < dwords;) {
    const h = decodeHeader(cp.mem.read32(iova + 4 * k), cp.gen);
    if (h.type < 0) break;
    if (h.type === 7 && ops.has(h.opcode)) n++;
    k += 1 + (h.type === 2 ? 0 : h.count);
  }
  return n;
}

/**
 * Call an IB one level down; no IB3. From IB1+ while CP_SKIP_IB2_ENABLE_* is set and a visibility
 * stream is in force (GMEM pass after CP_SET_BIN_DATA5, no visibility override) the IB2 is
 * skipped when none of its draws is visible in the bin (the stream advances past them). Without a
 * stream the enables change nothing: freedreno sets LOCAL in sysmem and non-binned GMEM passes
 * and its IB2 draws run there.
 */
function indirectBuffer(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  const level = r.level;
  if (level >= 1 && (cp.skipIb2Global || cp.skipIb2Local)) {
    if (vscActive(cp)) {
    const addr = a64(r.payload, 0), size = r.payload[2]! & 0xfffff;
    const k = countDraws(cp, addr, size);
    let any = false;
    for (let i = 0; i < k && !any; i++) any = cp.vscReader!.visibleAt(i);
    if (!any) {
      cp.vscReader!.index += k;
      cp.vscSkippedDraws += k;
      cp.vscSkippedIbs++;
      return 0;
    }
    }
  }
  if (level >= 2) {
    cp.setCpInt(0);
    cp.report('adreno.cp.ib-too-deep', 'error', `CP_INDIRECT_BUFFER from IB level ${level}: the CP has no IB3`);
    throw new Stop('opcode-error');
  }
  cp.execIb(a64(r.payload, 0), r.payload[2]! & 0xfffff, level + 1);
  return 0;
}

/** The chained buffer replaces the rest of this one (same level). */
function indirectBufferChain(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  cp.execIb(a64(r.payload, 0), r.payload[2]! & 0xfffff, r.level);
  return END;
}

function unknownOpcode(cp: CommandProcessor, r: PacketRecord): number {
  cp.setCpInt(0);
  cp.report('adreno.cp.unknown-opcode', 'error', `type-7 opcode 0x${r.opcode.toString(16)} is not a ${cp.gen} packet`);
  throw new Stop('opcode-error');
}

/** Known to the database, no semantics here: counted as executed, no effect. */
function unmodelled(cp: CommandProcessor, r: PacketRecord): number {
  cp.report('adreno.cp.unmodelled-packet', 'info', `${r.name} has no execution model; treated as a no-op`);
  return 0;
}

/** The modelled packets by name (names are per generation: the table maps them to numbers). */
export const HANDLERS_BY_NAME: Readonly<Record<string, Handler>> = {
  CP_NOP: nop,
  CP_INDIRECT_BUFFER: indirectBuffer,
  CP_INDIRECT_BUFFER_CHAIN: indirectBufferChain,
  ...MEM_HANDLERS,
  ...COND_HANDLERS,
  ...DRAW_HANDLERS,
  ...EVENT_HANDLERS,
};

const tables = new Map<Gen, readonly Handler[]>();

/** The handler of every type-7 opcode (0..127) on `gen`. */
export function handlerTable(gen: Gen): readonly Handler[] {
  let t = tables.get(gen);
  if (!t) {
    const a: Handler[] = [];
    for (let op = 0; op < 128; op++) {
      const name = opcodeName(op, gen);
      a.push(name === undefined ? unknownOpcode : (Object.hasOwn(HANDLERS_BY_NAME, name) ? HANDLERS_BY_NAME[name]! : unmodelled));
    }
    tables.set(gen, (t = a));
  }
  return t;
}
