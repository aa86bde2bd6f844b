/**
 * EXP: a wave hands four channels per lane to a fixed-function block (positions and primitives to
 * the primitive assembler, colours and depth to the colour/depth backends). The data goes to the
 * export sink of the stage that launched the wave (`setExportSink`); a wave without one (compute)
 * reports `amd.exp.no-sink` and the export is dropped.
 *
 * Rules (wave-state seed 001, "EXEC==0 skipping" and VGPR out-of-range):
 * - with EXEC == 0 the export is skipped unless done = 1 or the target is pos0;
 *   STATUS.SKIP_EXPORT = 1 skips every export;
 * - a source VGPR past the allocation reads VGPR0 (`gfx11.vgpr.src-out-of-range`);
 * - only lanes enabled in EXEC carry data (the sink gets the EXEC mask with the data).
 * GFX9/GFX10 also have the vm and compr bits and the param0..31 targets (a hardware VS hands its
 * outputs to the parameter cache through them); GFX11 has no compr/vm bits and no param targets
 * (NGG attributes go through the attribute ring). Target numbers differ per generation: the
 * kind comes from the generated target names of the wave's generation (each exp.gen.ts).
 * Compressed exports (compr): channels 0/1 travel in vsrc0 and 2/3 in vsrc1 as f16 pairs; the
 * event's channel c then holds the whole dword of vsrc(c >> 1), and the sink takes its low
 * (c even) or high (c odd) half.
 *
 * POPS: every executed export calls `popsExport` with its done bit (GFX11 ends the ordered
 * section with the done export).
 */
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG, STATUS } from '../wave/wave.js';
import { EXP_TARGETS } from '../isa/gfx11/exp.gen.js';
import { EXP_TARGETS as EXP_TARGETS_GFX10 } from '../isa/gfx10/exp.gen.js';
import { EXP_TARGETS as EXP_TARGETS_GFX9 } from '../isa/gfx9/exp.gen.js';
import { define, type Finding } from '../engine/registry.js';
import { diagAt } from './operands.js';
import { popsExport } from './pops-exec.js';

export type ExpKind = 'mrt' | 'mrtz' | 'null' | 'pos' | 'prim' | 'param' | 'dual_src_blend' | 'invalid';

/** Kind and index of an export target, from its name (mrt3 -> ['mrt', 3]). */
export function expTargetKind(name: string): readonly [ExpKind, number] {
  const m = /^(mrt|pos|param|dual_src_blend)(\d+)$/.exec(name);
  if (m) return [m[1] as ExpKind, Number(m[2])];
  if (name === 'mrtz' || name === 'null' || name === 'prim') return [name, 0];
  return ['invalid', 0];
}

/** Per generation (OperandSpace.gfx): target field value -> name, from LLVM's tables. */
export const EXP_TARGET_NAMES: Readonly<Record<9 | 10 | 11, readonly string[]>> = { 9: EXP_TARGETS_GFX9, 10: EXP_TARGETS_GFX10, 11: EXP_TARGETS };

export interface ExportEvent {
  readonly target: number;
  readonly kind: ExpKind;
  /** mrt/pos/param index. */
  readonly index: number;
  /** Channel enable mask (bit c: channel c was written). */
  readonly en: number;
  readonly done: boolean;
  readonly row: boolean;
  /** GFX9/10 only (always false on GFX11): f16 pairs, channel c is half (c & 1) of data's channel c. */
  readonly compr: boolean;
  readonly vm: boolean;
  /** EXEC at the export. */
  readonly execLo: number;
  readonly execHi: number;
  /** Channel c of lane l at c * waveSize + l (raw dwords; disabled channels are 0). */
  readonly data: Uint32Array;
  /** PC of the exp instruction. */
  readonly pc: number;
}

/** Where a stage's exports go (the launching stage installs one per wave). */
export interface ExportSink {
  export(w: Wave, e: ExportEvent): void;
}

const sinks = new WeakMap<Wave, ExportSink>();

export function setExportSink(w: Wave, sink: ExportSink): void {
  sinks.set(w, sink);
}
export function exportSinkOf(w: Wave): ExportSink | undefined {
  return sinks.get(w);
}

define('exp', (inst, env) => {
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const name = EXP_TARGET_NAMES[env.space.gfx][f.target!] ?? 'invalid';
  const [kind, index] = expTargetKind(name);
  const en = f.en! & 15;
  const rows: number[] = [];
  const compr = f.compr === 1;
  for (let c = 0; c < 4; c++) {
    let r = f[`vsrc${compr ? c >> 1 : c}`]!;
    if ((en >> c) & 1 && r >= env.vgprs) {
      findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `exp: source v${r} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0` });
      r = 0;
    }
    rows.push(r * ws);
  }
  const done = f.done === 1;
  const row = f.rowEn === 1;
  const mustIssue = done || (kind === 'pos' && index === 0);
  return {
    cls: 'export',
    findings,
    run: (w) => {
      const pc = w.pc - inst.size;
      if ((w.hw[HWREG.STATUS]! & STATUS.SKIP_EXPORT) !== 0) {
        popsExport(w, done, pc); // POPS reports export skipping (the export counts for nothing)
        return;
      }
      const lo = w.s[SREG.EXEC_LO]! >>> 0;
      const hi = ws === 64 ? w.s[SREG.EXEC_HI]! >>> 0 : 0;
      if (lo === 0 && hi === 0 && !mustIssue) return;
      const data = new Uint32Array(4 * ws);
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!(l < 32 ? (lo >>> l) & 1 : (hi >>> (l - 32)) & 1)) continue;
        n++;
        for (let c = 0; c < 4; c++) if ((en >> c) & 1) data[c * ws + l] = v[rows[c]! + l]!;
      }
      w.laneOps += n;
      const sink = sinks.get(w);
      if (!sink) diagAt(env, w, pc, 'amd.exp.no-sink', `exp ${name}: the wave was not launched by a graphics stage, so nothing receives its export; dropped`);
      else sink.export(w, { target: f.target!, kind, index, en, done, row, compr, vm: f.vm === 1, execLo: lo, execHi: hi, data, pc });
      popsExport(w, done, pc);
    },
  };
});
