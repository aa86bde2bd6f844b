/**
 * Rule checks run beside the SP executor (cost nothing when no Diagnostics sink is given):
 * - `adreno.ir3.sync-sy`: a register written by a (sy) producer (texture / global-memory load,
 *   IBO load, ldc, atomic with return) read before an instruction with (sy);
 * - `adreno.ir3.sync-ss`: a register written by an (ss) producer (SFU cat4, local-memory load,
 *   a shared-register write) read before an instruction with (ss);
 * - `adreno.ir3.reg-footprint`: a GPR read beyond the footprint the shader declares
 *   (SP_CS_CTRL_REG0.FULLREGFOOTPRINT; with MERGEDREGS half registers count against it);
 * - `adreno.ir3.const-oob`: a const read at or beyond constlen (HLSQ_CS_CNTL.CONSTLEN).
 * Each rule reports once per PC. The hardware does not check any of these: it reads a stale
 * value (sync), garbage (footprint) or 0 (const).
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { K, type Instr, type Operand } from './decode.js';
import { A0, NCOMP, SHARED_HI, SHARED_LO, type Wave } from './wave.js';

const SEED = '004_0583f9f0ffcacefd.txt';
const SS = 1;
const SY = 2;

function isSy(i: Instr): boolean {
  if (i.cat === 5) return true;
  if (i.cat !== 6) return false;
  return /^(ldib|ldg|ldc|resinfo|atomic|ldp|getspid|getwid|getfiberid)/.test(i.name);
}
function isSs(i: Instr): boolean {
  if (i.cat === 4) return true;
  if (/^ldl/.test(i.name)) return true;
  return i.dst.kind === K.GPR && !i.dst.half && i.dst.n >= SHARED_LO && i.dst.n < SHARED_HI;
}

/** Full component an operand component lives in (merged register file). */
const fullComp = (o: Operand, n: number): number => (o.half ? n >> 1 : n);

export class SyncChecker {
  private readonly pending = new WeakMap<Wave, Uint8Array>();
  private readonly reported = new Set<string>();
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

  after(w: Wave, i: Instr): void {
    const p = this.pending.get(w)!;
    const d = i.cat === 6 && /^(ldib|atomic)/.test(i.name) ? i.src[0] : i.dst;
    if (!d || d.kind !== K.GPR) return;
    const flag = isSy(i) ? SY : isSs(i) ? SS : 0;
    const count = i.cat === 6 ? (/^atomic/.test(i.name) ? 1 : Number(i.f['TYPE_SIZE'] ?? i.f['SIZE'] ?? 1)) : i.name === 'movmsk' ? Number(i.f['W'] ?? 32) / 32 : i.rpt + 1;
    for (let k = 0; k < count; k++) {
      const c = fullComp(d, d.n + k);
      if (c >= 0 && c < NCOMP) p[c] = flag;
    }
  }
}
