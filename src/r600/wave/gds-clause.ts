/**
 * GDS clauses (CF_INST GDS, Evergreen/Cayman): MEM_GDS instructions on the dispatch's 64 KiB global
 * data share. `bindGdsClause` decides once per program what each instruction is (a GDS op with its
 * bound semantics, TF_WRITE, or something gpusim does not model, with the reason).
 */
import type { GdsInst } from '../isa/decode.js';
import { DS_RMW, type DsRmwFn } from '../exec/ds.js';
import type { Wave } from './machine.js';
import type { CfOp } from './cf.js';

/** One GDS op for one work-item: a the address (bytes), b and c the data; returns the value(s) it hands back. */
type GdsFn = (w: Wave, a: number, b: number, c: number, l: number) => [number, number];

/** What a MEM_GDS instruction is, decided once per program. */
const G_OP = 0;
/** MEM_INST / MEM_OP of no GDS instruction: `r600.gds.unknown`. */
const G_UNKNOWN = 1;
/** TF_WRITE: `r600.cf.not-in-compute`. */
const G_TF_WRITE = 2;
/** An op without documented semantics: `r600.gds.unsupported` with the reason. */
const G_UNSUPPORTED = 3;

export interface GdsOp {
  readonly g: GdsInst;
  readonly kind: number;
  /** The op's name ('' when GDS_OP is unknown): messages only. */
  readonly name: string;
  /** G_UNSUPPORTED: the message. */
  readonly why: string;
  /** G_OP: the semantics; undefined reports `r600.gds.unsupported` per item. */
  readonly fn: GdsFn | undefined;
  readonly ret: boolean;
}

function gdsCheck(w: Wave, addr: number, size: number, l: number): boolean {
  if (addr + size > w.opts.resources.gds.length) {
    w.diag('r600.gds.out-of-range', `GDS access of ${size} bytes at ${addr} outside the ${w.opts.resources.gds.length}-byte GDS`, 'error', { lane: l, addr });
    return false;
  }
  return true;
}
const rd = (w: Wave, at: number, l: number): number => (gdsCheck(w, at, 4, l) ? w.gdsView.getUint32(at, true) : 0);
const wr = (w: Wave, at: number, v: number, l: number): void => {
  if (gdsCheck(w, at, 4, l)) w.gdsView.setUint32(at, v >>> 0, true);
};

/** GDS ops by name without GDS_ and _RET, other than the read-modify-write ones (exec/ds.ts). */
const GDS_FN: Readonly<Record<string, GdsFn>> = {
  READ: (w, a, _b, _c, l) => [rd(w, a, l), 0],
  READ2: (w, a, _b, _c, l) => [rd(w, a, l), rd(w, a + 4, l)],
  BYTE_READ: (w, a, _b, _c, l) => [gdsCheck(w, a, 1, l) ? w.gdsView.getInt8(a) >>> 0 : 0, 0],
  UBYTE_READ: (w, a, _b, _c, l) => [gdsCheck(w, a, 1, l) ? w.gdsView.getUint8(a) : 0, 0],
  SHORT_READ: (w, a, _b, _c, l) => [gdsCheck(w, a, 2, l) ? w.gdsView.getInt16(a, true) >>> 0 : 0, 0],
  USHORT_READ: (w, a, _b, _c, l) => [gdsCheck(w, a, 2, l) ? w.gdsView.getUint16(a, true) : 0, 0],
  BYTE_WRITE: (w, a, b, _c, l) => {
    if (gdsCheck(w, a, 1, l)) w.gdsView.setUint8(a, b & 255);
    return [0, 0];
  },
  SHORT_WRITE: (w, a, b, _c, l) => {
    if (gdsCheck(w, a, 2, l)) w.gdsView.setUint16(a, b & 0xffff, true);
    return [0, 0];
  },
  WRITE2: (w, a, b, c, l) => {
    wr(w, a, b, l);
    wr(w, a + 4, c, l);
    return [0, 0];
  },
  XCHG2: (w, a, b, c, l) => {
    const o = [rd(w, a, l), rd(w, a + 4, l)] as [number, number];
    wr(w, a, b, l);
    wr(w, a + 4, c, l);
    return o;
  },
};

/** A read-modify-write GDS op: the old value comes back. */
function gdsRmw(f: DsRmwFn): GdsFn {
  return (w, a, b, c, l) => {
    const o = rd(w, a, l);
    wr(w, a, f(o, b, c), l);
    return [o, 0];
  };
}

function gdsFn(name: string): GdsFn | undefined {
  const base = name.slice(4).replace(/_RET$/, '');
  if (Object.hasOwn(GDS_FN, base)) return GDS_FN[base];
  return Object.hasOwn(DS_RMW, base) ? gdsRmw(DS_RMW[base]!) : undefined;
}

function bindGds(g: GdsInst): GdsOp {
  const name = g.op?.name ?? '';
  const base = { g, name, why: '', fn: undefined, ret: g.op?.ret ?? false };
  if (g.memInst !== 2 || (g.memOp !== 4 && g.memOp !== 5)) return { ...base, kind: G_UNKNOWN };
  if (g.memOp === 5) return { ...base, kind: G_TF_WRITE };
  if (!g.op || /_REL|READWRITE|ORDERED_ALLOC/.test(name)) {
    // No semantics in the documents gpusim follows: the GDS word has no IDX_OFFSET for the
    // second address of a _REL pair (LDS_WRITE_REL's is modelled), READWRITE_RET has no operand
    // roles, and ORDERED_ALLOC's wave-ordering protocol is not described.
    const why = !g.op ? 'unknown GDS_OP' : /ORDERED_ALLOC/.test(name) ? 'its wave-ordering protocol is not documented' : /_REL/.test(name) ? 'the GDS word has no IDX_OFFSET for the second address of a _REL pair' : 'its operand roles are not documented';
    return { ...base, kind: G_UNSUPPORTED, why: `${name || 'GDS_OP ' + g.gdsOp} is not modelled: ${why}` };
  }
  return { ...base, kind: G_OP, fn: gdsFn(name) };
}

/** Bind a GDS clause's instructions, once per program. */
export function bindGdsClause(list: readonly GdsInst[]): GdsOp[] {
  return list.map(bindGds);
}

/**
 * A GDS clause: each MEM_GDS instruction runs for the passing work-items in lane order on the
 * dispatch's 64 KiB GDS. Sources come from SRC_GPR with SRC_SEL_X/Y/Z = address (bytes), data0,
 * data1; the returned (pre-op) value goes to DST_GPR through DST_SEL (0 the value, 1 the second
 * dword of the *2 forms, 4 zero, 5 1.0, 7 unchanged). Choices: the *2 forms address the two
 * consecutive dwords at the address; ALLOC_CONSUME gives each item old + its prefix, which equals
 * running the op lane by lane; BCAST_FIRST_REQ runs the op once, for the first passing item, and
 * hands every passing item its result.
 */
export function gdsClause(w: Wave, op: CfOp): void {
  const c = op.c;
  for (const x of op.gds!) {
    const g = x.g;
    if (x.kind === G_UNKNOWN) {
      w.diag('r600.gds.unknown', `MEM_INST ${g.memInst} / MEM_OP ${g.memOp} is not a GDS instruction (MEM_INST 2, MEM_OP 4 or 5)`, 'error', { offset: g.offset });
      continue;
    }
    if (x.kind === G_TF_WRITE) {
      w.diag('r600.cf.not-in-compute', 'TF_WRITE (tessellation factors) has no effect in a compute shader', 'info');
      continue;
    }
    if (x.kind === G_UNSUPPORTED) {
      w.diag('r600.gds.unsupported', x.why, 'warning', { offset: g.offset });
      continue;
    }
    if ((g.srcRel > 1 || g.dstRel > 1) || g.uavIndexMode) w.diag('r600.gds.unsupported', `SRC_REL/DST_REL ${g.srcRel}/${g.dstRel} or UAV_INDEX_MODE ${g.uavIndexMode} is not modelled (only 1, relative to aL)`, 'warning', { offset: g.offset });
    const aL = w.loopIndex();
    const srcReg = g.srcGpr + (g.srcRel === 1 ? aL : 0);
    const dstReg = g.dstGpr + (g.dstRel === 1 ? aL : 0);
    if (srcReg < 0 || srcReg >= w.ngpr || dstReg < 0 || dstReg >= w.ngpr) {
      w.diag('r600.alu.gpr-out-of-range', `GDS register T${srcReg} / T${dstReg} out of range`, 'error', { offset: g.offset });
      continue;
    }
    let first: readonly [number, number] | undefined;
    for (let l = 0; l < w.W; l++) {
      if (!w.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
      const sv = (k: number): number => {
        const sel = g.srcSel[k]!;
        return sel < 4 ? w.gpr[(srcReg * 4 + sel) * w.W + l]! : sel === 5 ? 0x3f800000 : 0;
      };
      let ret: readonly [number, number];
      if (g.bcastFirstReq && first) ret = first;
      else {
        w.stats.gdsOps++;
        if (x.fn) ret = x.fn(w, sv(0), sv(1), sv(2), l);
        else {
          // The old value is read (and range-checked) before the op is found unmodelled.
          rd(w, sv(0), l);
          w.diag('r600.gds.unsupported', `${x.name} is not modelled`, 'warning', { lane: l });
          ret = [0, 0];
        }
        first = ret;
      }
      if (!x.ret) continue;
      for (let ch = 0; ch < 4; ch++) {
        const sel = g.dstSel[ch]!;
        if (sel === 7) continue;
        const v = sel === 0 ? ret[0] : sel === 1 ? ret[1] : sel === 5 ? 0x3f800000 : 0;
        w.gpr[(dstReg * 4 + ch) * w.W + l] = v >>> 0;
      }
    }
  }
}
