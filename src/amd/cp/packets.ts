/**
 * The PM4 type-3 handler table: for each handled opcode, how many body dwords it takes on each
 * generation, what each body dword is (a name and, where known, its bit fields: from the
 * generated pkt3.json layouts, from the register the dword is a copy of, or from the packet's
 * documented layout below), and the register writes it makes. The walker validates against
 * this, the printer prints from it and the execute visitor uses the same decoded view.
 */
import { decodeWith, expandFields, REG_SPACES, type DecodedField, type Pm4Gen, type RegDb, type RegField } from './regdb.js';
import { IT, pkt3Layouts } from './pm4.js';

/** How one body dword is laid out. */
export type DwordLayout =
  | { readonly kind: 'plain' }
  /** Decode with the bit fields of the named register (the dword is that register's value). */
  | { readonly kind: 'reg'; readonly reg: string }
  /** Decode with inline fields 'NAME:lo:hi|...'. */
  | { readonly kind: 'fields'; readonly fields: readonly RegField[] }
  /** Decode with the pkt3.json layout of this packet's dword (`index` as pkt3.json numbers it). */
  | { readonly kind: 'pkt3'; readonly index: number }
  /** Inline fields whose EVENT_TYPE is named by the generation's VGT_EVENT_INITIATOR.EVENT_TYPE enum. */
  | { readonly kind: 'event'; readonly fields: readonly RegField[] };

export interface BodyDword {
  readonly name: string;
  readonly layout: DwordLayout;
}

export interface PacketSpec {
  readonly opcode: number;
  readonly name: string;
  /** Accepted body sizes in dwords on a generation: [min, max]. */
  bodySize(gen: Pm4Gen): readonly [number, number];
  /** Names and layouts of the body dwords (dwords past the list print as DATA[i]). */
  dwords(gen: Pm4Gen, body: Uint32Array): readonly BodyDword[];
  /** Register writes (absolute dword offsets) the packet makes by itself. */
  writes?(body: Uint32Array, gen: Pm4Gen): RegWrite[];
  /** A malformed body the size check cannot see (the walker throws Pm4Error with this text). */
  validate?(body: Uint32Array, gen: Pm4Gen): string | null;
}

export interface RegWrite {
  readonly offset: number;
  readonly value: number;
}

/** A decoded body dword, for printing. */
export interface DecodedDword {
  readonly name: string;
  readonly value: number;
  readonly fields: readonly DecodedField[];
}

const plain: DwordLayout = { kind: 'plain' };
const reg = (r: string): DwordLayout => ({ kind: 'reg', reg: r });
const pk = (index: number): DwordLayout => ({ kind: 'pkt3', index });
const fcache = new Map<string, DwordLayout>();
/** Inline field layout 'NAME:lo:hi|...' (packet-format facts without a pkt3.json entry). */
const f = (s: string): DwordLayout => {
  let l = fcache.get(s);
  if (!l) fcache.set(s, (l = { kind: 'fields', fields: expandFields(s, [], new Map()) }));
  return l;
};
const d = (name: string, layout: DwordLayout = plain): BodyDword => ({ name, layout });

const ALL = (n: number, m = n): ((g: Pm4Gen) => readonly [number, number]) => () => [n, m];

/** SET_*_REG: dword 0 = register offset from the space base [15:0] (INDEX [31:28] on *_INDEX forms), then values. */
function setReg(space: keyof typeof REG_SPACES, name: string, opcode: number): PacketSpec {
  return {
    opcode, name,
    bodySize: ALL(2, 0x4000),
    dwords: () => [d('REG_OFFSET', f('REG_OFFSET:0:15|INDEX:28:31'))],
    writes: (body) => {
      const base = REG_SPACES[space].base + (body[0]! & 0xffff);
      const out: RegWrite[] = [];
      for (let i = 1; i < body.length; i++) out.push({ offset: base + i - 1, value: body[i]! });
      return out;
    },
  };
}

/** SET_*_REG_PAIRS (GFX11): (REG_OFFSET, VALUE) pairs, offsets relative to the space base. */
function setPairs(space: keyof typeof REG_SPACES, name: string, opcode: number): PacketSpec {
  return {
    opcode, name,
    bodySize: ALL(2, 0x4000),
    dwords: (_g, b) => Array.from({ length: b.length }, (_, i) => i % 2 === 0 ? d(`REG_OFFSET[${i >> 1}]`, f('REG_OFFSET:0:15')) : d(`VALUE[${i >> 1}]`)),
    validate: (b) => b.length % 2 === 0 ? null : `IT_${name} carries (offset, value) pairs, but its body has an odd ${b.length} dwords`,
    writes: (b) => {
      const out: RegWrite[] = [];
      for (let i = 0; i + 1 < b.length; i += 2) out.push({ offset: REG_SPACES[space].base + (b[i]! & 0xffff), value: b[i + 1]! });
      return out;
    },
  };
}

/**
 * SET_*_REG_PAIRS_PACKED(_N) (GFX11): REG_COUNT, then groups of three dwords (REG_OFFSET0 [15:0] |
 * REG_OFFSET1 [31:16], VALUE0, VALUE1). REG_COUNT is even (a driver pads an odd set by repeating
 * the first register); the _N form takes at most 14 registers.
 */
function setPairsPacked(space: keyof typeof REG_SPACES, name: string, opcode: number, maxRegs: number): PacketSpec {
  return {
    opcode, name,
    bodySize: ALL(4, Math.min(0x4000, 1 + (maxRegs / 2) * 3)),
    dwords: (_g, b) => [d('REG_COUNT', f('REG_COUNT:0:15')), ...Array.from({ length: b.length - 1 }, (_, i) => {
      const k = Math.floor(i / 3);
      return i % 3 === 0 ? d(`REG_OFFSETS[${k}]`, f('REG_OFFSET0:0:15|REG_OFFSET1:16:31')) : d(`VALUE[${2 * k + (i % 3) - 1}]`);
    })],
    validate: (b) => {
      if ((b.length - 1) % 3 !== 0) return `IT_${name} needs REG_COUNT plus groups of 3 dwords, but its body has ${b.length} dwords`;
      const groups = (b.length - 1) / 3;
      if ((b[0]! >>> 0) !== groups * 2) return `IT_${name} REG_COUNT is ${b[0]! >>> 0} but the body carries ${groups * 2} registers`;
      if (groups * 2 > maxRegs) return `IT_${name} sets ${groups * 2} registers; at most ${maxRegs} are allowed`;
      return null;
    },
    writes: (b) => {
      const out: RegWrite[] = [];
      for (let i = 1; i + 2 < b.length; i += 3) {
        out.push({ offset: REG_SPACES[space].base + (b[i]! & 0xffff), value: b[i + 1]! });
        out.push({ offset: REG_SPACES[space].base + (b[i]! >>> 16), value: b[i + 2]! });
      }
      return out;
    },
  };
}

/** LOAD_*_REG: BASE_ADDR, then (REG_OFFSET, NUM_DWORDS) groups; register R's value is at BASE + R*4 (an image of the space). */
function loadReg(name: string, opcode: number): PacketSpec {
  return {
    opcode, name,
    bodySize: ALL(4, 0x4000),
    dwords: (_g, b) => [
      d('BASE_ADDR_LO', f('BASE_ADDR_LO:2:31')), d('BASE_ADDR_HI', f('BASE_ADDR_HI:0:15')),
      ...Array.from({ length: b.length - 2 }, (_, i) => i % 2 === 0 ? d(`REG_OFFSET[${i >> 1}]`, f('REG_OFFSET:0:15')) : d(`NUM_DWORDS[${i >> 1}]`, f('NUM_DWORDS:0:13'))),
    ],
    validate: (b) => b.length % 2 === 0 ? null : `IT_${name} carries (REG_OFFSET, NUM_DWORDS) pairs after the address, but its body has an odd ${b.length} dwords`,
  };
}

/**
 * LOAD_*_REG_INDEX: INDEX [1:0] (0 direct address, 1 offset, 2 indirect address on GFX10.3+) |
 * MEM_ADDR_LO [31:2], MEM_ADDR_HI (or ADDR_OFFSET), REG_OFFSET [15:0] | DATA_FORMAT [31]
 * (0 offset-and-size: NUM_DWORDS values for consecutive registers; 1 offset-and-data: NUM_DWORDS
 * (offset, value) pairs in memory), NUM_DWORDS [13:0]. The data is at the address itself.
 */
function loadRegIndex(name: string, opcode: number): PacketSpec {
  return {
    opcode, name,
    bodySize: ALL(4),
    dwords: () => [
      d('MEM_ADDR_LO', f('INDEX:0:1|MEM_ADDR_LO:2:31')), d('MEM_ADDR_HI'),
      d('REG_OFFSET', f('REG_OFFSET:0:15|DATA_FORMAT:31:31')), d('NUM_DWORDS', f('NUM_DWORDS:0:13')),
    ],
  };
}

const ev = (s: string): DwordLayout => ({ kind: 'event', fields: expandFields(s, [], new Map()) });
const EVENT_CNTL = ev('EVENT_TYPE:0:5|EVENT_INDEX:8:11');
const EOP_CNTL = ev('EVENT_TYPE:0:5|EVENT_INDEX:8:11|TCL1_VOL_ACTION_ENA:12:12|TC_VOL_ACTION_ENA:13:13|TC_WB_ACTION_ENA:15:15|TCL1_ACTION_ENA:16:16|TC_ACTION_ENA:17:17|TC_NC_ACTION_ENA:19:19|TC_WC_ACTION_ENA:20:20|TC_MD_ACTION_ENA:21:21');
const DRAW_INDEX_LOC = f('DRAW_INDEX_LOC:0:15|COUNT_INDIRECT_ENABLE:30:30|DRAW_INDEX_ENABLE:31:31');

const DRAW_MULTI: readonly BodyDword[] = [
  d('DATA_OFFSET'), d('BASE_VTX_LOC'), d('START_INST_LOC'), d('DRAW_INDEX', DRAW_INDEX_LOC), d('COUNT'),
  d('COUNT_ADDR_LO'), d('COUNT_ADDR_HI'), d('STRIDE'), d('DRAW_INITIATOR', reg('VGT_DRAW_INITIATOR')),
];

const SPECS: PacketSpec[] = [
  { opcode: IT.NOP!, name: 'NOP', bodySize: ALL(0, 0x4000), dwords: () => [] },
  { opcode: IT.SET_BASE!, name: 'SET_BASE', bodySize: ALL(3), dwords: () => [d('BASE_INDEX', f('BASE_INDEX:0:3')), d('ADDRESS_LO'), d('ADDRESS_HI')] },
  setReg('context', 'SET_CONTEXT_REG', IT.SET_CONTEXT_REG!),
  setReg('sh', 'SET_SH_REG', IT.SET_SH_REG!),
  setReg('sh', 'SET_SH_REG_INDEX', IT.SET_SH_REG_INDEX!),
  setReg('uconfig', 'SET_UCONFIG_REG', IT.SET_UCONFIG_REG!),
  setReg('uconfig', 'SET_UCONFIG_REG_INDEX', IT.SET_UCONFIG_REG_INDEX!),
  setReg('config', 'SET_CONFIG_REG', IT.SET_CONFIG_REG!),
  {
    opcode: IT.CONTEXT_CONTROL!, name: 'CONTEXT_CONTROL', bodySize: ALL(2),
    dwords: () => [
      d('LOAD_CONTROL', f('LOAD_GLOBAL_CONFIG:0:0|LOAD_PER_CONTEXT_STATE:1:1|LOAD_GLOBAL_UCONFIG:15:15|LOAD_GFX_SH_REGS:16:16|LOAD_CS_SH_REGS:24:24|LOAD_CE_RAM:28:28|UPDATE_LOAD_ENABLES:31:31')),
      d('SHADOW_CONTROL', f('SHADOW_GLOBAL_CONFIG:0:0|SHADOW_PER_CONTEXT_STATE:1:1|SHADOW_GLOBAL_UCONFIG:15:15|SHADOW_GFX_SH_REGS:16:16|SHADOW_CS_SH_REGS:24:24|UPDATE_SHADOW_ENABLES:31:31')),
    ],
  },
  { opcode: IT.CLEAR_STATE!, name: 'CLEAR_STATE', bodySize: ALL(1), dwords: () => [d('CMD', f('CMD:0:3'))] },
  { opcode: IT.INDEX_TYPE!, name: 'INDEX_TYPE', bodySize: ALL(1), dwords: () => [d('INDEX_TYPE', f('INDEX_TYPE:0:1|SWAP_MODE:2:3'))] },
  { opcode: IT.NUM_INSTANCES!, name: 'NUM_INSTANCES', bodySize: ALL(1), dwords: () => [d('NUM_INSTANCES')] },
  { opcode: IT.INDEX_BASE!, name: 'INDEX_BASE', bodySize: ALL(2), dwords: () => [d('INDEX_BASE_LO'), d('INDEX_BASE_HI', f('INDEX_BASE_HI:0:15'))] },
  { opcode: IT.INDEX_BUFFER_SIZE!, name: 'INDEX_BUFFER_SIZE', bodySize: ALL(1), dwords: () => [d('INDEX_BUFFER_SIZE')] },
  { opcode: IT.DRAW_INDEX_AUTO!, name: 'DRAW_INDEX_AUTO', bodySize: ALL(2), dwords: () => [d('VERTEX_COUNT'), d('DRAW_INITIATOR', reg('VGT_DRAW_INITIATOR'))] },
  {
    opcode: IT.DRAW_INDEX_2!, name: 'DRAW_INDEX_2', bodySize: ALL(5),
    dwords: () => [d('MAX_SIZE'), d('INDEX_BASE_LO'), d('INDEX_BASE_HI', f('INDEX_BASE_HI:0:15')), d('INDEX_COUNT'), d('DRAW_INITIATOR', reg('VGT_DRAW_INITIATOR'))],
  },
  {
    opcode: IT.DRAW_INDIRECT!, name: 'DRAW_INDIRECT', bodySize: ALL(4),
    dwords: () => [d('DATA_OFFSET'), d('BASE_VTX_LOC'), d('START_INST_LOC'), d('DRAW_INITIATOR', reg('VGT_DRAW_INITIATOR'))],
  },
  {
    opcode: IT.DRAW_INDEX_INDIRECT!, name: 'DRAW_INDEX_INDIRECT', bodySize: ALL(4),
    dwords: () => [d('DATA_OFFSET'), d('BASE_VTX_LOC'), d('START_INST_LOC'), d('DRAW_INITIATOR', reg('VGT_DRAW_INITIATOR'))],
  },
  { opcode: IT.DRAW_INDIRECT_MULTI!, name: 'DRAW_INDIRECT_MULTI', bodySize: ALL(9), dwords: () => DRAW_MULTI },
  { opcode: IT.DRAW_INDEX_INDIRECT_MULTI!, name: 'DRAW_INDEX_INDIRECT_MULTI', bodySize: ALL(9), dwords: () => DRAW_MULTI },
  {
    opcode: IT.DISPATCH_DIRECT!, name: 'DISPATCH_DIRECT', bodySize: ALL(4),
    dwords: () => [d('DIM_X'), d('DIM_Y'), d('DIM_Z'), d('DISPATCH_INITIATOR', reg('COMPUTE_DISPATCH_INITIATOR'))],
  },
  {
    // Graphics ring: DATA_OFFSET from the SET_BASE index-1 base; compute ring: a full address.
    opcode: IT.DISPATCH_INDIRECT!, name: 'DISPATCH_INDIRECT', bodySize: ALL(2, 3),
    dwords: (_g, b) => b.length === 2
      ? [d('DATA_OFFSET'), d('DISPATCH_INITIATOR', reg('COMPUTE_DISPATCH_INITIATOR'))]
      : [d('ADDR_LO'), d('ADDR_HI'), d('DISPATCH_INITIATOR', reg('COMPUTE_DISPATCH_INITIATOR'))],
  },
  {
    opcode: IT.INDIRECT_BUFFER!, name: 'INDIRECT_BUFFER', bodySize: ALL(3),
    dwords: () => [d('IB_BASE_LO', f('SWAP:0:1|IB_BASE_LO:2:31')), d('IB_BASE_HI', f('IB_BASE_HI:0:15')), d('IB_CONTROL', pk(2))],
  },
  {
    opcode: IT.WRITE_DATA!, name: 'WRITE_DATA', bodySize: ALL(4, 0x4000),
    dwords: () => [d('CONTROL', pk(0)), d('DST_ADDR_LO'), d('DST_ADDR_HI')],
  },
  {
    opcode: IT.COPY_DATA!, name: 'COPY_DATA', bodySize: ALL(5),
    dwords: () => [
      d('CONTROL', f('SRC_SEL:0:3|DST_SEL:8:11|SRC_CACHE_POLICY:13:14|COUNT_SEL:16:16|WR_CONFIRM:20:20|DST_CACHE_POLICY:25:26|ENGINE_SEL:30:31')),
      d('SRC_ADDR_LO'), d('SRC_ADDR_HI'), d('DST_ADDR_LO'), d('DST_ADDR_HI'),
    ],
  },
  { opcode: IT.EVENT_WRITE!, name: 'EVENT_WRITE', bodySize: ALL(1, 3), dwords: () => [d('EVENT_CNTL', EVENT_CNTL), d('ADDRESS_LO'), d('ADDRESS_HI')] },
  // GFX11 (newer PFP firmware): the occlusion-query dump without an event dword (radeonsi/radv emit it with the query address).
  { opcode: IT.EVENT_WRITE_ZPASS!, name: 'EVENT_WRITE_ZPASS', bodySize: ALL(2), dwords: () => [d('ADDRESS_LO'), d('ADDRESS_HI', f('ADDRESS_HI:0:15'))] },
  {
    opcode: IT.EVENT_WRITE_EOP!, name: 'EVENT_WRITE_EOP', bodySize: ALL(5),
    dwords: () => [d('EVENT_CNTL', EOP_CNTL), d('ADDRESS_LO'), d('DATA_CNTL', f('ADDRESS_HI:0:15|INT_SEL:24:26|DATA_SEL:29:31')), d('DATA_LO'), d('DATA_HI')],
  },
  {
    opcode: IT.RELEASE_MEM!, name: 'RELEASE_MEM', bodySize: ALL(6, 7),
    dwords: (g) => [
      d('EVENT_CNTL', g === 'gfx9' ? EOP_CNTL : pk(0)),
      d('DATA_CNTL', f('DST_SEL:16:17|INT_SEL:24:26|DATA_SEL:29:31')),
      d('ADDRESS_LO'), d('ADDRESS_HI'), d('DATA_LO'), d('DATA_HI'), d('INT_CTXID'),
    ],
  },
  {
    // GFX9: CP_COHER_CNTL, SIZE, SIZE_HI, BASE, BASE_HI, POLL_INTERVAL; GFX10+ adds GCR_CNTL.
    // GFX11 pixel-wait-sync form: PWS_ENA (dword 5 bit 31) set, dword 0 holds the PWS fields.
    opcode: IT.ACQUIRE_MEM!, name: 'ACQUIRE_MEM', bodySize: (g) => g === 'gfx9' ? [6, 6] : [7, 7],
    dwords: (g, b) => g === 'gfx11' && (b[5]! >>> 31) === 1
      ? [d('PWS_2', pk(0)), d('GCR_SIZE'), d('GCR_SIZE_HI'), d('GCR_BASE_LO'), d('GCR_BASE_HI'), d('PWS_7', pk(5)), d('GCR_CNTL', pk(6))]
      : [d('CP_COHER_CNTL', reg('CP_COHER_CNTL')), d('CP_COHER_SIZE'), d('CP_COHER_SIZE_HI'), d('CP_COHER_BASE'), d('CP_COHER_BASE_HI'), d('POLL_INTERVAL'), ...(g === 'gfx9' ? [] : [d('GCR_CNTL', pk(6))])],
  },
  {
    opcode: IT.WAIT_REG_MEM!, name: 'WAIT_REG_MEM', bodySize: ALL(6),
    dwords: () => [
      d('CONTROL', f('FUNCTION:0:2|MEM_SPACE:4:5|OPERATION:6:7|ENGINE_SEL:8:9|CACHE_POLICY:25:26')),
      d('POLL_ADDRESS_LO'), d('POLL_ADDRESS_HI'), d('REFERENCE'), d('MASK'), d('POLL_INTERVAL', f('POLL_INTERVAL:0:15|OPTIMIZE_ACE_OFFLOAD_MODE:31:31')),
    ],
  },
  { opcode: IT.PFP_SYNC_ME!, name: 'PFP_SYNC_ME', bodySize: ALL(1), dwords: () => [d('DUMMY')] },
  setPairs('context', 'SET_CONTEXT_REG_PAIRS', IT.SET_CONTEXT_REG_PAIRS!),
  setPairs('sh', 'SET_SH_REG_PAIRS', IT.SET_SH_REG_PAIRS!),
  setPairsPacked('context', 'SET_CONTEXT_REG_PAIRS_PACKED', IT.SET_CONTEXT_REG_PAIRS_PACKED!, 0x3ffe),
  setPairsPacked('sh', 'SET_SH_REG_PAIRS_PACKED', IT.SET_SH_REG_PAIRS_PACKED!, 0x3ffe),
  setPairsPacked('sh', 'SET_SH_REG_PAIRS_PACKED_N', IT.SET_SH_REG_PAIRS_PACKED_N!, 14),
  loadReg('LOAD_CONFIG_REG', IT.LOAD_CONFIG_REG!),
  loadReg('LOAD_CONTEXT_REG', IT.LOAD_CONTEXT_REG!),
  loadReg('LOAD_SH_REG', IT.LOAD_SH_REG!),
  loadReg('LOAD_UCONFIG_REG', IT.LOAD_UCONFIG_REG!),
  loadRegIndex('LOAD_SH_REG_INDEX', IT.LOAD_SH_REG_INDEX!),
  loadRegIndex('LOAD_CONTEXT_REG_INDEX', IT.LOAD_CONTEXT_REG_INDEX!),
  {
    // GFX9+: PRED_OP [18:16] (0 clear, 1 zpass, 2 primcount, 3 bool64, 4 bool32), DRAW_VISIBLE [8]
    // (1: execute when the value is non-zero / visible), HINT [12], CONTINUE [31]; then the address.
    opcode: IT.SET_PREDICATION!, name: 'SET_PREDICATION', bodySize: ALL(3),
    dwords: () => [d('CONTROL', f('PRED_BOOL:8:8|HINT:12:12|PRED_OP:16:18|CONTINUE_BIT:31:31')), d('START_ADDR_LO'), d('START_ADDR_HI', f('START_ADDR_HI:0:15'))],
  },
  {
    // GFX7+: the 32-bit value at ADDR is zero -> the CP skips the next EXEC_COUNT dwords.
    opcode: IT.COND_EXEC!, name: 'COND_EXEC', bodySize: ALL(4),
    dwords: () => [d('ADDR_LO', f('ADDR_LO:2:31')), d('ADDR_HI', f('ADDR_HI:0:15')), d('CONTROL', f('CACHE_POLICY:25:26')), d('EXEC_COUNT', f('EXEC_COUNT:0:13'))],
  },
];

/** Handled packets by opcode. */
export const HANDLERS: ReadonlyMap<number, PacketSpec> = new Map(SPECS.map((s) => [s.opcode, s]));

/** Decode a packet body dword by dword for printing. */
export function decodeBody(spec: PacketSpec | undefined, opcode: number, body: Uint32Array, gen: Pm4Gen, db: RegDb): DecodedDword[] {
  const names = spec ? spec.dwords(gen, body) : [];
  const out: DecodedDword[] = [];
  const layouts = pkt3Layouts(gen).get(opcode);
  for (let i = 0; i < body.length; i++) {
    const bd = names[i];
    const v = body[i]! >>> 0;
    if (!bd) {
      out.push({ name: `DATA[${i}]`, value: v, fields: [] });
      continue;
    }
    let fields: DecodedField[] = [];
    const l = bd.layout;
    if (l.kind === 'reg') {
      const r = db.get(l.reg);
      if (r) fields = decodeWith(r.fields, v);
    } else if (l.kind === 'fields') fields = decodeWith(l.fields, v);
    else if (l.kind === 'event') {
      const names = db.get('VGT_EVENT_INITIATOR')?.fields.find((x) => x.name === 'EVENT_TYPE')?.values;
      fields = decodeWith(l.fields, v).map((x) => {
        const t = x.name === 'EVENT_TYPE' ? names?.get(x.value) : undefined;
        return t !== undefined ? { ...x, text: t } : x;
      });
    } else if (l.kind === 'pkt3') {
      const pl = layouts?.get(l.index);
      if (pl) fields = decodeWith(pl.fields, v);
    }
    out.push({ name: bd.name, value: v, fields });
  }
  return out;
}
