/**
 * Scalar memory (SMEM): s_load_* from an SGPR-pair base and s_buffer_load_* through a buffer
 * resource (V#). Loads complete in the functional model at issue; LGKM_CNT counts them until an
 * s_waitcnt retires them. Rules (wave-state seed): the base pair's LSB is ignored (even-aligned),
 * data wider than 64 bits needs a quad-aligned SGPR; data that would run from SGPRs/VCC into
 * TTMPs or past TTMP15 is not written; M0/NULL/EXEC destinations are not loaded, and a base
 * register pair/quad naming M0, NULL or EXEC reads as zero (TTMPs read zero outside a trap handler).
 * s_buffer_load checks each dword against the V#'s NUM_RECORDS (out of range reads 0).
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import { define, type Finding } from '../engine/registry.js';
import { memFastPaths } from './vmem.js';
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
    const g = fastScalarLoad({ sb, so: so === SREG.NULL ? -1 : so, off, d, n, lgkmMax: LGKM_MAX }, run);
    return { cls: 'smem', findings, run: g.run, inline: g.inline };
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
