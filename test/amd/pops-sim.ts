/**
 * A synthetic POPS workload for tests: random rasterization-ordered quads over a small screen,
 * waves formed by PopsUnit, each wave a small program (generator) following the seed's
 * entering / ordered section / exiting sequence for its generation, and a seeded random
 * scheduler picking which wave runs next. The ordered section read-modify-writes a per-sample
 * image with a non-commutative blend, split over two scheduler steps so races show.
 */
import { mulberry32 } from '../../src/core/prng.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { decodePopsDraw } from '../../src/amd/gfx/pops-config.js';
import { oitDrawRegs, type OitDraw } from '../../src/amd/gfx/pops-oit.js';
import type { PopsDrawConfig, PopsGen } from '../../src/amd/gfx/pops-config.js';
import {
  PopsUnit, decodeCollisionWaveId, intrawaveLayers, packerSetregValue, shaderMayEnter,
} from '../../src/amd/gfx/pops.js';
import type { PopsQuad, PopsWave } from '../../src/amd/gfx/pops.js';

export const rng: (seed: number) => () => number = mulberry32;

/** A draw of the synthetic scenes: the OIT scene's draw description. */
export type DrawSpec = OitDraw;

/** Register values a driver would program for a draw (correct ones unless overridden). */
export const drawRegs = oitDrawRegs;

export function drawConfig(gen: PopsGen, d: DrawSpec, diags?: Diagnostics): PopsDrawConfig {
  return decodePopsDraw(gen, drawRegs(gen, d), diags);
}

/** Random quads over a `size` x `size` screen, `prims` primitives each covering a few quads. */
export function randomQuads(r: () => number, samples: number, prims: number, size: number): PopsQuad[] {
  const out: PopsQuad[] = [];
  for (let p = 0; p < prims; p++) {
    const n = 1 + Math.floor(r() * 4);
    const bx = Math.floor(r() * (size / 2 - 1)) * 2;
    const by = Math.floor(r() * (size / 2 - 1)) * 2;
    for (let i = 0; i < n; i++) {
      const x = Math.min(size - 2, bx + 2 * Math.floor(r() * 2));
      const y = Math.min(size - 2, by + 2 * Math.floor(r() * 2));
      const full = (1 << samples) - 1;
      const cov = [0, 0, 0, 0].map(() => (r() < 0.15 ? 0 : 1 + Math.floor(r() * full))) as [number, number, number, number];
      out.push({ x, y, coverage: cov, primitive: p });
    }
  }
  return out;
}

export type Variant = 'correct' | 'no-wait';

/** One ordered-section write, for the ordering checks. */
export interface WriteEvent {
  /** Global rasterization index of the invocation (draw-major, quad, lane). */
  readonly order: number;
  readonly x: number;
  readonly y: number;
  readonly claim: number;
  readonly time: number;
}

export interface SceneResult {
  readonly image: Map<string, number>;
  readonly reference: Map<string, number>;
  readonly writes: WriteEvent[];
  readonly unit: PopsUnit;
  readonly diags: Diagnostics;
  readonly waves: PopsWave[];
  readonly steps: number;
}

type Yield = undefined | { sleep: number } | { sleepUntilExit: true };

const blend = (v: number, prim: number): number => (Math.imul(v, 31) + prim + 1) >>> 0;

/**
 * Rasterize the draws (one after another, waves of a draw launched when it is rasterized; every
 * draw is rasterized up front, as a GPU would queue them) and run all waves to completion with a
 * random scheduler.
 */
export function runScene(gen: PopsGen, seed: number, draws: readonly DrawSpec[], opts: { variant?: Variant; prims?: number; size?: number; waveSize?: 32 | 64 } = {}): SceneResult {
  const r = rng(seed);
  const diags = new Diagnostics();
  const unit = new PopsUnit({ gen, diagnostics: diags, shaderEngines: 2 });
  const size = opts.size ?? 16;
  const image = new Map<string, number>();
  const reference = new Map<string, number>();
  const writes: WriteEvent[] = [];
  const waves: PopsWave[] = [];
  const orderOf = new Map<PopsQuad, number>();
  let order = 0;
  let time = 0;
  for (let d = 0; d < draws.length; d++) {
    const spec = draws[d]!;
    const cfg = drawConfig(gen, spec);
    const quads = randomQuads(r, spec.samples, opts.prims ?? 12, size).map((q) => ({ ...q, primitive: q.primitive + 100 * d }));
    for (const q of quads) {
      orderOf.set(q, order);
      order += 4;
      for (let l = 0; l < 4; l++) {
        for (let s = 0; s < 16; s++) {
          if (!((q.coverage[l]! >>> s) & 1)) continue;
          const k = `${q.x + (l & 1)},${q.y + (l >> 1)},${s}`;
          reference.set(k, blend(reference.get(k) ?? 0, q.primitive));
        }
      }
    }
    waves.push(...unit.rasterize(cfg, quads, opts.waveSize ?? 32));
  }

  const variant = opts.variant ?? 'correct';
  function* program(w: PopsWave): Generator<Yield, void, void> {
    yield; // work before the ordered section
    const cw = w.collisionWaveId;
    const f = decodeCollisionWaveId(gen, cw);
    if (variant === 'correct') {
      if (gen === 'gfx11') {
        while (!unit.waitEvent(w, 0)) yield;
      } else if (f.didOverlap) {
        if (gen === 'gfx9') unit.setMode(w, packerSetregValue(gen, cw));
        else unit.setPopsPacker(w, packerSetregValue(gen, cw));
        yield;
        for (;;) {
          const e = unit.readExitingWaveId(w);
          if (shaderMayEnter(gen, cw, e)) break;
          const s = unit.sleep(w, gen === 'gfx9' ? 3 : 0xffff);
          yield s.wakeOnExit ? { sleepUntilExit: true } : { sleep: 3 };
        }
      }
    }
    for (const [a, b] of intrawaveLayers(w.intrawaveCollision, w.waveSize)) {
      const reads: [string, number, number, number][] = [];
      for (let lane = a; lane < b; lane++) {
        const q = w.quads[lane >> 2];
        if (!q) continue;
        const l = lane & 3;
        for (let s = 0; s < 16; s++) {
          if (!((q.coverage[l]! >>> s) & 1)) continue;
          const k = `${q.x + (l & 1)},${q.y + (l >> 1)},${s}`;
          reads.push([k, image.get(k) ?? 0, q.primitive, lane]);
        }
      }
      yield; // the read is outstanding while others run
      for (const [k, v, prim] of reads) image.set(k, blend(v, prim));
      for (let lane = a; lane < b; lane++) {
        const q = w.quads[lane >> 2];
        if (!q || q.coverage[lane & 3] === 0) continue;
        writes.push({
          order: orderOf.get(q)! + (lane & 3), x: q.x + (lane & 1), y: q.y + ((lane & 3) >> 1),
          claim: unit.claimOf(w.config, q.coverage[lane & 3]!), time: time,
        });
      }
      yield;
    }
    let woken: PopsWave[] = [];
    if (gen !== 'gfx11') woken = unit.sendMsg(w, 7, { vm: 0, vs: 0, lgkm: 0 });
    wake(woken);
    yield;
    wake(unit.exportDone(w, true, { vm: 0, vs: 0, lgkm: 0 }));
    wake(unit.endProgram(w));
  }

  interface Slot { w: PopsWave; g: Generator<Yield, void, void>; until: number; asleep: boolean; done: boolean }
  const slots: Slot[] = waves.map((w) => ({ w, g: program(w), until: 0, asleep: false, done: false }));
  const bySeq = new Map(slots.map((s) => [s.w.seq, s]));
  function wake(list: PopsWave[]): void {
    for (const w of list) {
      const s = bySeq.get(w.seq);
      if (s) s.asleep = false;
    }
  }
  let steps = 0;
  for (;;) {
    const live = slots.filter((s) => !s.done);
    if (live.length === 0) break;
    const ready = live.filter((s) => !s.asleep && s.until <= time);
    time++;
    if (ready.length === 0) {
      if (live.every((s) => s.asleep)) throw new Error(`deadlock: ${live.length} waves asleep`);
      continue;
    }
    const s = ready[Math.floor(r() * ready.length)]!;
    steps++;
    if (steps > 1_000_000) throw new Error('step budget exceeded');
    const y = s.g.next();
    if (y.done) {
      s.done = true;
      continue;
    }
    const v = y.value;
    if (v && 'sleep' in v) {
      s.until = time + v.sleep;
      unit.wake(s.w);
    } else if (v && 'sleepUntilExit' in v) {
      if (s.w.sleeping) s.asleep = true;
    }
  }
  return { image, reference, writes, unit, diags, waves, steps };
}

/** Pairs of overlapping invocations whose ordered-section writes ran out of rasterization order. */
export function orderViolations(writes: readonly WriteEvent[]): number {
  let bad = 0;
  const byPixel = new Map<string, WriteEvent[]>();
  for (const e of writes) {
    const k = `${e.x},${e.y}`;
    let l = byPixel.get(k);
    if (!l) byPixel.set(k, (l = []));
    l.push(e);
  }
  for (const l of byPixel.values()) {
    for (let i = 0; i < l.length; i++) {
      for (let j = 0; j < l.length; j++) {
        const a = l[i]!, b = l[j]!;
        if (a.order < b.order && (a.claim & b.claim) !== 0 && a.time > b.time) bad++;
      }
    }
  }
  return bad;
}

/** Pairs of non-overlapping invocations (any pixel) whose writes ran out of rasterization order. */
export function unorderedPairs(writes: readonly WriteEvent[]): number {
  let n = 0;
  for (const a of writes) {
    for (const b of writes) {
      if (a.order < b.order && a.time > b.time && !(a.x === b.x && a.y === b.y && (a.claim & b.claim) !== 0)) n++;
    }
  }
  return n;
}
