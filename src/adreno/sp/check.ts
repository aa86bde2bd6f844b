/**
 * Rule checks run beside the SP executor (cost nothing when no Diagnostics sink is given):
 * - `adreno.ir3.sync-sy`: a register written by a (sy) producer (texture / global-memory load,
 *   IBO load, ldc, atomic with return) read before an instruction with (sy);
 * - `adreno.ir3.sync-ss`: a register written by an (ss) producer (SFU cat4, local-memory load or
 *   atomic, a shared-register write) read before an instruction with (ss);
 * - `adreno.ir3.reg-footprint`: a GPR read beyond the footprint the shader declares
 *   (SP_CS_CTRL_REG0.FULLREGFOOTPRINT; with MERGEDREGS half registers count against it);
 * - `adreno.ir3.const-oob`: a const read at or beyond constlen (HLSQ_CS_CNTL.CONSTLEN);
 * - `adreno.ir3.last-use`: relative addressing through a0.x after the instruction that marked
 *   a0.x's last use with (ul), before a new mova: ir3_legalize puts (ul) on the last instruction
 *   that uses a0.x, after which the hardware may drop the address register's value;
 * - `adreno.ir3.preamble-owned`: the main shader writes (stc) a const the preamble wrote: the
 *   preamble's results are shared by every wave of the dispatch, so the write races the waves
 *   still reading them.
 * Each rule reports once per PC. The hardware does not check any of these: it reads a stale
 * value (sync), garbage (footprint) or 0 (const).
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { K, type Instr, type Operand } from './decode.js';
import { A0, NCOMP, SHARED_HI, SHARED_LO, type Wave } from './wave.js';

const SEED = '004_0583f9f0ffcacefd.txt';
const SS = 1;
const SY = 2;

/** Local-memory atomics (atomic.<op> .l, no .b/.g): ir3_legalize waits for them with (ss). */
const LOCAL_ATOMIC = /^atomic\.[a-z]+$/;
function isSy(i: Instr): boolean {
  if (i.cat === 5) return true;
  if (i.cat !== 6) return false;
  if (LOCAL_ATOMIC.test(i.name)) return false;
  return /^(ldib|ldg|ldc|resinfo|atomic|ldp|getspid|getwid|getfiberid)/.test(i.name);
}
function isSs(i: Instr): boolean {
  if (i.cat === 4) return true;
  if (/^ldl/.test(i.name) || LOCAL_ATOMIC.test(i.name)) return true;
  return i.dst.kind === K.GPR && !i.dst.half && i.dst.n >= SHARED_LO && i.dst.n < SHARED_HI;
}

/** First const dword and count an stc writes (DST.OFFSET, plus a1.x of the first active lane with #const-dst-a1). */
function stcRange(w: Wave, i: Instr): [number, number] {
  let a1 = 0;
  if (i.f['DST'] === '#const-dst-a1') {
    const l = Math.max(0, w.active.indexOf(1));
    a1 = w.regs[(A0 + 1) * w.lanes + l]! | 0;
  }
  return [Number(i.f['DST.OFFSET'] ?? 0) + a1, Number(i.f['SIZE'] ?? 1)];
}

/** Full component an operand component lives in (merged register file). */
const fullComp = (o: Operand, n: number): number => (o.half ? n >> 1 : n);

export class SyncChecker {
  private readonly pending = new WeakMap<Wave, Uint8Array>();
  private readonly reported = new Set<string>();
  /** Waves whose a0.x passed its (ul) last use (and was not written since). */
  private readonly a0Dead = new WeakSet<Wave>();
  /** Const dwords the preamble wrote with stc. */
  readonly preambleConsts = new Set<number>();
  readonly diag: Diagnostics;
  readonly maxReg: number;
  readonly constDwords: number;
  constructor(diag: Diagnostics, maxReg: number, constDwords: number) {
    this.diag = diag;
    this.maxReg = maxReg;
    this.constDwords = constDwords;
  }

  private once(id: string, i: Instr, w: Wave, message: string): void {
    const key = `${id}@${i.pc}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.diag.report({ id, severity: 'warning', where: { pc: i.pc, wave: w.id, workgroup: w.wg, instr: i.name }, message, seed: SEED });
  }

  /** Reads of one instruction (its register sources, the store data of stib/stl/atomics). */
  private reads(i: Instr, fn: (o: Operand, n: number) => void): void {
    const rpt = i.rpt + 1;
    for (const o of i.src) {
      if (o.kind !== K.GPR && o.kind !== K.CONST) continue;
      const count = i.cat === 6 && o === i.src[0] ? Number(i.f['TYPE_SIZE'] ?? 1) : o.r ? rpt : 1;
      for (let k = 0; k < count; k++) fn(o, o.n + k);
    }
  }

  before(w: Wave, i: Instr): void {
    let p = this.pending.get(w);
    if (!p) this.pending.set(w, (p = new Uint8Array(NCOMP)));
    if (i.ss) for (let c = 0; c < NCOMP; c++) p[c]! &= ~SS;
    if (i.sy) for (let c = 0; c < NCOMP; c++) p[c]! &= ~SY;
    if (this.a0Dead.has(w) && (i.dst.kind === K.RELGPR || i.dst.kind === K.RELCONST || i.src.some((o) => o.kind === K.RELGPR || o.kind === K.RELCONST)))
      this.once('adreno.ir3.last-use', i, w, 'addresses relative to a0.x after its last use was marked (ul), without a mova since: a0.x is undefined here');
    if (i.name === 'stc' && this.preambleConsts.size) {
      const [lo, n] = stcRange(w, i);
      for (let k = 0; k < n; k++)
        if (this.preambleConsts.has(lo + k)) {
          this.once('adreno.ir3.preamble-owned', i, w, `stc writes c${(lo + k) >> 2}.${'xyzw'[(lo + k) & 3]}, which the preamble wrote for every wave`);
          break;
        }
    }
    this.reads(i, (o, n) => {
      if (o.kind === K.CONST) {
        const d = o.half ? n >> 1 : n;
        if (d >= this.constDwords) this.once('adreno.ir3.const-oob', i, w, `reads c${d >> 2}.${'xyzw'[d & 3]} beyond constlen (${this.constDwords / 4} vec4s): the hardware returns 0`);
        return;
      }
      const c = fullComp(o, n);
      if (c < A0 && c < SHARED_LO && c >> 2 >= this.maxReg) this.once('adreno.ir3.reg-footprint', i, w, `reads ${o.half ? 'h' : ''}r${n >> 2}.${'xyzw'[n & 3]} beyond the declared register footprint (${this.maxReg} full registers)`);
      const f = p[c]!;
      if (f & SY) this.once('adreno.ir3.sync-sy', i, w, `reads r${c >> 2}.${'xyzw'[c & 3]}, the result of a (sy) producer, without (sy)`);
      if (f & SS) this.once('adreno.ir3.sync-ss', i, w, `reads r${c >> 2}.${'xyzw'[c & 3]}, the result of an (ss) producer, without (ss)`);
    });
  }

  /** Remember the consts a preamble instruction writes (the preamble runs before the waves). */
  preamble(w: Wave, i: Instr): void {
    if (i.name !== 'stc') return;
    const [lo, n] = stcRange(w, i);
    for (let k = 0; k < n; k++) this.preambleConsts.add(lo + k);
  }

  after(w: Wave, i: Instr): void {
    if (i.ul) this.a0Dead.add(w);
    else if (i.dst.kind === K.GPR && i.dst.n === A0) this.a0Dead.delete(w);
    const p = this.pending.get(w)!;
    const d = i.cat === 6 && /^(ldib|atomic\.b)/.test(i.name) ? i.src[0] : i.dst;
    if (!d || d.kind !== K.GPR) return;
    const flag = isSy(i) ? SY : isSs(i) ? SS : 0;
    const count = i.cat === 6 ? (/^atomic/.test(i.name) ? 1 : Number(i.f['TYPE_SIZE'] ?? i.f['SIZE'] ?? 1)) : i.name === 'movmsk' ? Number(i.f['W'] ?? 32) / 32 : i.rpt + 1;
    for (let k = 0; k < count; k++) {
      const c = fullComp(d, d.n + k);
      if (c >= 0 && c < NCOMP) p[c] = flag;
    }
  }
}
