/**
 * Scalar memory (SMEM): s_load_* from an SGPR-pair base and s_buffer_load_* through a buffer
 * resource (V#). Loads complete in the functional model at issue; LGKM_CNT counts them until an
 * s_waitcnt retires them. Rules (wave-state seed): the base pair's LSB is ignored (even-aligned),
 * data wider than 64 bits needs a quad-aligned SGPR; data that would run from SGPRs/VCC into
 * TTMPs or past TTMP15 is not written; M0/NULL/EXEC destinations are not loaded, and a base
 * register pair/quad naming M0, NULL or EXEC reads as zero (TTMPs read zero outside a trap handler).
 * s_buffer_load checks each dword against the V#'s NUM_RECORDS (out of range reads 0).
 *
 * GFX9 also writes through SMEM: s_store_dword* / s_buffer_store_dword* store SDATA at the same
 * addresses a load of that width reads (dword aligned; buffer stores drop dwords past NUM_RECORDS),
 * and s_atomic_* / s_buffer_atomic_* do the buffer atomics' operations on one dword (x2: a qword;
 * cmpswap: SDATA = new value then compare value), returning the pre-op value into SDATA with GLC.
 * The scalar cache is write-back on hardware (s_dcache_wb makes stores visible); memory here is
 * coherent, so the stores land at once and s_dcache_wb / _wb_vol / _inv_vol only count on LGKM_CNT.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import { define, type Finding } from '../engine/registry.js';
import { memFastPaths, ATOMIC32, ATOMIC64, R64 } from './vmem.js';
import { markFast } from '../engine/fast-registry.js';
import { fastScalarLoad } from '../engine/fast-mem.js';

const LGKM_MAX = 63;

function dwordsOf(mn: string): number {
  const m = /_b(\d+)$/.exec(mn) ?? /_dwordx?(\d*)$/.exec(mn);
  if (!m) return 1;
  const n = Number(m[1]);
  return n >= 32 ? n / 32 : Math.max(1, n);
}

function smemDest(inst: Instruction, dwords: number, findings: Finding[]): number {
  let d = inst.fields.sdata ?? 0;
  const align = dwords >= 4 ? 4 : dwords === 2 ? 2 : 1;
  if (d % align !== 0) {
    findings.push({ id: 'gfx11.sgpr.misaligned', message: `${inst.mnemonic}: destination s${d} of ${dwords} dwords must be ${align === 4 ? 'quad' : 'even'}-aligned; the hardware ignores the low bits` });
    d -= d % align;
  }
  const end = d + dwords - 1;
  const crosses = (d < SREG.TTMP0 && end >= SREG.TTMP0) || (d >= SREG.TTMP0 && d <= SREG.TTMP15 && end > SREG.TTMP15) || d >= SREG.NULL;
  if (crosses) {
    findings.push({ id: 'gfx11.smem.dst-out-of-range', message: `${inst.mnemonic}: destination s${d}..s${end} leaves its register range; nothing is written` });
    return -1;
  }
  return d;
}

function offsetOf(inst: Instruction): number {
  const o = inst.fields.offset ?? 0;
  return (o << 11) >> 11; // 21-bit signed
}

/** Reader of base SGPR `r` (+k) with the SMEM reference rules: M0/NULL/EXEC read 0, TTMPs need PRIV. */
function baseReg(r: number): (w: Wave, k: number) => number {
  if (r >= SREG.NULL) return () => 0;
  if (r >= SREG.TTMP0 && r <= SREG.TTMP15) return (w, k) => (w.priv ? w.s[r + k]! : 0);
  return (w, k) => w.s[r + k]!;
}

function soffsetRead(inst: Instruction): (w: Wave) => number {
  const so = inst.fields.soffset ?? SREG.NULL;
  return so === SREG.NULL ? () => 0 : (w) => w.s[so]!;
}

define(['s_load_b32', 's_load_b64', 's_load_b128', 's_load_b256', 's_load_b512'], (inst, env) => {
  const n = dwordsOf(inst.mnemonic);
  const findings: Finding[] = [];
  const d = smemDest(inst, n, findings);
  const base = baseReg((inst.fields.sbase ?? 0) * 2);
  const off = offsetOf(inst);
  const soff = soffsetRead(inst);
  // Fast engine: destination below the TTMPs and the whole load in one segment -> its dwords.
  const fast = memFastPaths(env) && d >= 0 && d + n <= SREG.TTMP0;
  const sb = (inst.fields.sbase ?? 0) * 2;
  const so = inst.fields.soffset ?? SREG.NULL;
  const run = (w: Wave) => {
      // Scalar loads ignore the two low address bits (dword aligned).
      const addr = (base(w, 0) + (base(w, 1) & 0xffff) * 0x1_0000_0000 + off + soff(w)) % 0x1_0000_0000_0000;
      const a = addr - (addr % 4);
      if (fast) {
        const seg = w.mem.find(a, 4 * n);
        if (seg !== null && seg.u32 !== null && ((a - seg.base) & 3) === 0) {
          const u32 = seg.u32;
          const i0 = (a - seg.base) / 4;
          for (let i = 0; i < n; i++) w.s[d + i] = u32[i0 + i]!;
          if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
          return;
        }
      }
      if (d >= 0) {
        const priv = w.priv;
        for (let i = 0; i < n; i++) {
          const r = d + i;
          if (r >= SREG.TTMP0 && r <= SREG.TTMP15 && !priv) continue;
          w.s[r] = w.mem.read32(a + 4 * i);
        }
      }
      if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
  };
  // With plain SGPRs for the base and offset, a generated handler a basic block can inline.
  if (fast && sb + 1 < SREG.VCC_LO && (so === SREG.NULL || so < SREG.VCC_LO)) {
    const sp = { sb, so: so === SREG.NULL ? -1 : so, off, d, n, lgkmMax: LGKM_MAX };
    const g = fastScalarLoad(sp, run);
    return { cls: 'smem', findings, run: g.run, inline: { ...g.inline, smem: sp } };
  }
  return { cls: 'smem', findings, run: fast ? markFast(run) : run };
});

define(['s_buffer_load_b32', 's_buffer_load_b64', 's_buffer_load_b128', 's_buffer_load_b256', 's_buffer_load_b512'], (inst) => {
  const n = dwordsOf(inst.mnemonic);
  const findings: Finding[] = [];
  const d = smemDest(inst, n, findings);
  // The V# is four aligned SGPRs: the low bits of the quad index are ignored.
  const sb = (inst.fields.sbase ?? 0) * 2;
  if (sb % 4 !== 0 && sb < SREG.NULL) findings.push({ id: 'gfx11.sgpr.misaligned', message: `${inst.mnemonic}: V# in s${sb}..s${sb + 3} must be quad-aligned; the hardware uses s${sb & ~3}` });
  const base = baseReg(sb & ~3);
  const off = offsetOf(inst);
  const soff = soffsetRead(inst);
  return {
    cls: 'smem',
    findings,
    run: (w) => {
      // V#: base address [47:0], stride [61:48], num_records dword 2.
      const baseAddr = base(w, 0) + (base(w, 1) & 0xffff) * 0x1_0000_0000;
      const numRecords = base(w, 2);
      const o = (off + soff(w)) & ~3;
      if (d >= 0) {
        const priv = w.priv;
        for (let i = 0; i < n; i++) {
          const r = d + i;
          if (r >= SREG.TTMP0 && r <= SREG.TTMP15 && !priv) continue;
          const byte = (o + 4 * i) >>> 0;
          w.s[r] = byte + 4 <= numRecords ? w.mem.read32(baseAddr + byte) : 0;
        }
      }
      if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
    },
  };
});

// Cache invalidation and address-translation probes: no data effect in the functional model; they
// count on LGKM_CNT like every SMEM instruction.
define(['s_dcache_inv', 's_gl1_inv', 's_atc_probe', 's_atc_probe_buffer'], () => ({
  cls: 'smem',
  run: (w) => {
    if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
  },
}));

// ---- GFX9 scalar stores and atomics -------------------------------------------------------------

/**
 * Byte address (dword aligned) of a scalar access of `bytes`, or -1 when a buffer access runs past
 * the V#'s NUM_RECORDS (`skip` bytes into the access: one dword of a store is checked at a time).
 */
function scalarAddress(inst: Instruction, buffer: boolean): (w: Wave, bytes: number, skip?: number) => number {
  const sb = (inst.fields.sbase ?? 0) * 2;
  const base = baseReg(buffer ? sb & ~3 : sb);
  const off = offsetOf(inst);
  const soff = soffsetRead(inst);
  if (!buffer) return (w, _b, skip = 0) => { const a = (base(w, 0) + (base(w, 1) & 0xffff) * 0x1_0000_0000 + off + soff(w)) % 0x1_0000_0000_0000; return a - (a % 4) + skip; };
  return (w, bytes, skip = 0) => {
    const o = (((off + soff(w)) & ~3) >>> 0) + skip;
    return o + bytes <= base(w, 2) ? base(w, 0) + (base(w, 1) & 0xffff) * 0x1_0000_0000 + o : -1;
  };
}

for (const buffer of [false, true]) {
  const names = [1, 2, 4].map((n) => `s_${buffer ? 'buffer_' : ''}store_dword${n === 1 ? '' : `x${n}`}`);
  define(names, (inst) => {
    const n = dwordsOf(inst.mnemonic);
    const d = inst.fields.sdata ?? 0;
    const addr = scalarAddress(inst, buffer);
    return {
      cls: 'smem',
      run: (w) => {
        for (let i = 0; i < n; i++) {
          const a = addr(w, 4, 4 * i);
          if (a >= 0) w.mem.write32(a, w.s[d + i]!);
        }
        if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
      },
    };
  });
}

/** GFX9 scalar atomic names -> the buffer atomics' operation keys (vmem.ts). */
const SCALAR_ATOMICS: Readonly<Record<string, string>> = {
  swap: 'swap', cmpswap: 'cmpswap', add: 'add', sub: 'sub', smin: 'min_i', umin: 'min_u', smax: 'max_i', umax: 'max_u',
  and: 'and', or: 'or', xor: 'xor', inc: 'inc', dec: 'dec',
};
for (const buffer of [false, true]) {
  for (const [op, key] of Object.entries(SCALAR_ATOMICS)) {
    for (const wide of [false, true]) {
      define(`s_${buffer ? 'buffer_' : ''}atomic_${op}${wide ? '_x2' : ''}`, (inst) => {
        const d = inst.fields.sdata ?? 0;
        const glc = (inst.fields.glc ?? 0) === 1;
        const cmp = op === 'cmpswap';
        const addr = scalarAddress(inst, buffer);
        const f32op = ATOMIC32[key]!, f64op = ATOMIC64[key]!;
        const dw = wide ? 2 : 1;
        return {
          cls: 'smem',
          run: (w) => {
            const a = addr(w, 4 * dw);
            const s = w.s;
            let ol = 0, oh = 0;
            if (a >= 0) {
              ol = w.mem.read32(a);
              if (wide) {
                oh = w.mem.read32(a + 4);
                const lo = f64op(ol, oh, s[d]!, s[d + 1]!, cmp ? s[d + 2]! : 0, cmp ? s[d + 3]! : 0);
                w.mem.write32(a, lo >>> 0);
                w.mem.write32(a + 4, R64[0]! >>> 0);
              } else w.mem.write32(a, f32op(ol, s[d]!, cmp ? s[d + 1]! : 0) >>> 0);
            }
            if (glc) {
              s[d] = ol;
              if (wide) s[d + 1] = oh;
            }
            if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
          },
        };
      });
    }
  }
}

define(['s_dcache_wb', 's_dcache_wb_vol', 's_dcache_inv_vol'], () => ({
  cls: 'smem',
  run: (w) => {
    if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
  },
}));
