/**
 * Cross-lane and register-indexed VALU ops: v_readfirstlane/readlane/writelane (EXEC-independent,
 * never skipped), v_permlane16/permlanex16/permlane64, v_swap_b32, and the M0-relative moves
 * v_movrels/movreld/movrelsd/movrelsd_2/swaprel with the wave-state seed's V_MOVREL range rules:
 * an index is out of range when base + M0 reaches past the allocated VGPRs (or 255); an
 * out-of-range source reads VGPR0 and an out-of-range destination makes the instruction a NOP.
 * Those are runtime facts (M0 is dynamic), reported once per instruction as
 * `gfx11.vgpr.movrel-out-of-range`.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { WAVE_STATE_SEED } from '../engine/env.js';
import { define, type Finding } from '../engine/registry.js';
import { sread32, swrite32 } from './operands.js';
import { valuOperands, laneActive, T, type ValuOperands } from './valu-core.js';
import { VALID, activeLanes, bindSources, vdstOk, ttmpWriteGuard } from './valu.js';

const NOP = { cls: 'valu' as const, run: (_w: Wave) => {} };
define(['v_nop', 'v_pipeflush'], () => NOP);

/** A VGPR source that must be a VGPR (readlane, permlane): its row, VGPR0 when out of range. */
function vgprRow(env: ExecEnv, inst: Instruction, enc: number, findings: Finding[]): number {
  if (enc < 256) {
    findings.push({ id: 'gfx11.valu.src-not-vgpr', message: `${inst.mnemonic}: the lane source must be a VGPR; gpusim reads VGPR0` });
    return 0;
  }
  const r = enc - 256;
  if (r >= env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: source v${r} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0` });
    return 0;
  }
  return r * env.waveSize;
}

/** D.sgpr = VGPR[lowest active lane][S0] (lane 0 when EXEC == 0). Runs with any EXEC. */
define('v_readfirstlane_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const findings: Finding[] = [];
  const ws = env.waveSize;
  const src = ops.src[0]!;
  const S = src < 256 ? sread32(src, ops.literal) : null;
  const base = S ? 0 : vgprRow(env, inst, src, findings);
  const d = ops.vdst;
  const ttmp = ttmpWriteGuard(env, inst, d);
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      let lane = 0;
      const el = w.s[SREG.EXEC_LO]!;
      const eh = ws === 64 ? w.s[SREG.EXEC_HI]! : 0;
      if (el !== 0) lane = 31 - Math.clz32(el & -el);
      else if (eh !== 0) lane = 32 + 31 - Math.clz32(eh & -eh);
      if (ttmp) ttmp(w);
      swrite32(w, d, S ? S(w) : w.v[base + lane]!);
    },
  };
});

/** D.sgpr = VGPR[S1 & (waveSize-1)][S0]. */
define('v_readlane_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const findings: Finding[] = [];
  const ws = env.waveSize;
  const src = ops.src[0]!;
  const S = src < 256 ? sread32(src, ops.literal) : null;
  const base = S ? 0 : vgprRow(env, inst, src, findings);
  const L = sread32(ops.src[1]!, ops.literal);
  const d = ops.vdst;
  const ttmp = ttmpWriteGuard(env, inst, d);
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      const lane = L(w) & (ws - 1);
      if (ttmp) ttmp(w);
      swrite32(w, d, S ? S(w) : w.v[base + lane]!);
    },
  };
});

/** VGPR[S1 & (waveSize-1)][D] = S0, whatever EXEC says. */
define('v_writelane_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const findings: Finding[] = [];
  const ws = env.waveSize;
  const S = sread32(ops.src[0]!, ops.literal);
  const L = sread32(ops.src[1]!, ops.literal);
  const ok = vdstOk(env, inst, ops.vdst, 1, findings);
  const d = ops.vdst * ws;
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      if (ok) w.v[d + (L(w) & (ws - 1))] = S(w);
    },
  };
});

const TMP = new Uint32Array(64);

/**
 * v_permlane16 / v_permlanex16: lane i of each row takes S0 from lane sel[i] (a nibble of
 * {S2, S1}) of its own row (x16: of the other row of the pair). op_sel[0] is FI (fetch inactive
 * lanes), op_sel[1] BOUND_CTRL (an inactive source gives 0 instead of leaving D unwritten).
 */
function permlane(cross: boolean) {
  return (inst: Instruction, env: ExecEnv) => {
    const ops = valuOperands(inst);
    const findings: Finding[] = [];
    const ws = env.waveSize;
    const base = vgprRow(env, inst, ops.src[0]!, findings);
    const S1 = sread32(ops.src[1]!, ops.literal);
    const S2 = sread32(ops.src[2]!, ops.literal);
    const fi = (ops.opsel & 1) === 1;
    const bc = (ops.opsel & 2) === 2;
    const ok = vdstOk(env, inst, ops.vdst, 1, findings);
    const d = ops.vdst * ws;
    return {
      cls: 'valu' as const,
      findings,
      run: (w: Wave) => {
        w.laneOps += activeLanes(w, ops);
        if (!ok) return;
        const lo = S1(w);
        const hi = S2(w);
        const v = w.v;
        const el = w.s[SREG.EXEC_LO]!;
        const eh = ws === 64 ? w.s[SREG.EXEC_HI]! : 0;
        for (let l = 0; l < ws; l++) TMP[l] = v[base + l]!;
        for (let l = 0; l < ws; l++) {
          if (VALID[l] === 0) continue;
          const i = l & 15;
          const sel = i < 8 ? (lo >>> (4 * i)) & 15 : (hi >>> (4 * (i - 8))) & 15;
          const row = cross ? (l >> 4) ^ 1 : l >> 4;
          const src = row * 16 + sel;
          if (!fi && !laneActive(el, eh, src)) {
            if (bc) v[d + l] = 0;
            continue;
          }
          v[d + l] = TMP[src]!;
        }
      },
    };
  };
}
define('v_permlane16_b32', permlane(false));
define('v_permlanex16_b32', permlane(true));

/** v_permlane64_b32: wave64 lanes swap halves (D[l] = S0[l ^ 32]); in wave32 a NOP. */
define('v_permlane64_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const findings: Finding[] = [];
  const ws = env.waveSize;
  const base = vgprRow(env, inst, ops.src[0]!, findings);
  const ok = vdstOk(env, inst, ops.vdst, 1, findings);
  const d = ops.vdst * ws;
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      w.laneOps += activeLanes(w, ops);
      if (!ok || ws === 32) return;
      const v = w.v;
      for (let l = 0; l < 64; l++) TMP[l] = v[base + l]!;
      for (let l = 0; l < 64; l++) if (VALID[l]) v[d + l] = TMP[l ^ 32]!;
    },
  };
});

/** v_swap_b32: exchange VDST and SRC0 (both VGPRs); either out of range drops the instruction. */
define('v_swap_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const findings: Finding[] = [];
  const ws = env.waveSize;
  const s = ops.src[0]! - 256;
  if (s < 0) findings.push({ id: 'gfx11.valu.src-not-vgpr', message: `${inst.mnemonic}: both operands must be VGPRs; the instruction is ignored` });
  const ok = s >= 0 && vdstOk(env, inst, ops.vdst, 1, findings) && vdstOk(env, inst, s, 1, findings);
  const a = ops.vdst * ws;
  const b = s * ws;
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      w.laneOps += activeLanes(w, ops);
      if (!ok) return;
      const v = w.v;
      for (let l = 0; l < ws; l++) {
        if (VALID[l] === 0) continue;
        const t = v[a + l]!;
        v[a + l] = v[b + l]!;
        v[b + l] = t;
      }
    },
  };
});

/** Report a V_MOVREL index out of range once per instruction. */
function movrelOut(env: ExecEnv, w: Wave, inst: Instruction, flag: { done: boolean }, what: string, reg: number): void {
  if (flag.done) return;
  flag.done = true;
  env.diag.report({
    id: 'gfx11.vgpr.movrel-out-of-range', severity: 'warning', where: { pc: w.pc - inst.size, wave: w.id }, seed: WAVE_STATE_SEED,
    message: `${inst.mnemonic}: the M0-relative ${what} v${reg} is past the ${env.vgprs} allocated VGPRs (${what === 'source' ? 'reads VGPR0' : 'the instruction is ignored'})`,
  });
}

/**
 * The M0-relative moves. `srcRel`/`dstRel` pick which side is indexed and by which M0 field
 * (full M0, or M0[9:0] / M0[25:16] for the _2 form); `swap` exchanges the two registers.
 */
function movrel(srcRel: 0 | 1 | 2, dstRel: 0 | 1 | 2, swap = false) {
  return (inst: Instruction, env: ExecEnv) => {
    const ops: ValuOperands = valuOperands(inst);
    const findings: Finding[] = [];
    const ws = env.waveSize;
    const vgprs = env.vgprs;
    const src = ops.src[0]!;
    // a non-relative source may be anything (bound like any VALU source)
    const gatherSrc = srcRel === 0 ? bindSources(env, inst, ops, ['b32'], findings, true) : null;
    if (srcRel !== 0 && src < 256) findings.push({ id: 'gfx11.valu.src-not-vgpr', message: `${inst.mnemonic}: the relative source must be a VGPR` });
    const sreg = src >= 256 ? src - 256 : 0;
    const dreg = ops.vdst;
    const flag = { done: false };
    return {
      cls: 'valu' as const,
      findings,
      run: (w: Wave) => {
        w.laneOps += activeLanes(w, ops);
        const m0 = w.s[SREG.M0]!;
        const offS = srcRel === 1 ? m0 : srcRel === 2 ? m0 & 0x3ff : 0;
        const offD = dstRel === 1 ? m0 : dstRel === 2 ? (m0 >>> 16) & 0x3ff : 0;
        let s = sreg + offS;
        const dd = dreg + offD;
        if (dd >= vgprs || dd > 255) {
          movrelOut(env, w, inst, flag, 'destination', dd);
          return;
        }
        if (srcRel !== 0 && (s >= vgprs || s > 255)) {
          movrelOut(env, w, inst, flag, 'source', s);
          if (swap) return; // both are destinations: dropped
          s = 0;
        }
        const v = w.v;
        const d = dd * ws;
        if (gatherSrc) {
          gatherSrc(w);
          const t = T[0];
          for (let l = 0; l < ws; l++) if (VALID[l]) v[d + l] = t[l]!;
          return;
        }
        const b = s * ws;
        for (let l = 0; l < ws; l++) {
          if (VALID[l] === 0) continue;
          const x = v[b + l]!;
          if (swap) v[b + l] = v[d + l]!;
          v[d + l] = x;
        }
      },
    };
  };
}
define('v_movreld_b32', movrel(0, 1));
define('v_movrels_b32', movrel(1, 0));
define('v_movrelsd_b32', movrel(1, 1));
define('v_movrelsd_2_b32', movrel(2, 2));
define('v_swaprel_b32', movrel(2, 2, true));
