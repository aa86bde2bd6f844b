/**
 * Primitive Ordered Pixel Shading (seed 002_d00ee82034762a57.txt): the overlap tracker, the
 * packers with their 10-bit wave IDs, the COLLISION_WAVEID / INTRAWAVE_COLLISION arguments, and
 * the ordered-section state machine of each wave, with the seed's hazards as diagnostics.
 *
 * The model is driven from outside: the rasterizer hands quads in rasterization order to
 * `PopsUnit.rasterize`, which forms waves and gives each its arguments; the shader executor calls
 * the hooks (`setMode`, `setPopsPacker`, `readExitingWaveId`, `sleep`, `waitEvent`, `sendMsg`,
 * `exportDone`, `endProgram`) when a wave runs the corresponding instruction. Nothing here
 * imports the executor.
 *
 * Model choices where the seed is silent (each one conservative, so ordering is never weaker
 * than documented):
 * - Pixel interlock: an invocation with any coverage counts as covering every sample index, so
 *   it overlaps any later invocation at that pixel whatever the later draw's mode.
 * - Overlap with a wave that has already left its ordered section when the new wave is formed is
 *   not reported (hardware tracks in-flight waves only).
 * - A wave with intrawave collisions but no overlapped wave reports did-overlap = 1 and the
 *   previous wave of its packer as the newest overlapped one.
 * - A packer's exiting wave ID is the oldest wave of that packer that has not exited yet (it
 *   advances in order; a wave that ends without entering counts as exited).
 * - Packers are chosen by screen tile (`packerOf`); a wave holds quads of one packer only, so
 *   overlapping invocations always meet in the same packer.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { POPS_GENS, POPS_SEED } from './pops-config.js';
import type { PopsDrawConfig, PopsGen, PopsGenInfo } from './pops-config.js';

export const WAVE_ID_BITS = 10;
export const WAVE_ID_MASK = 0x3ff;
/** s_sendmsg message id of ORDERED_PS_DONE (GFX9-10.3). */
export const MSG_ORDERED_PS_DONE = 7;
/** The scalar operand number of src_pops_exiting_wave_id. */
export const SRC_POPS_EXITING_WAVE_ID = 239;
/** HW_REG_POPS_PACKER (GFX10+) and HW_REG_MODE ids (the executor's leaf, amd/exec/pops-port.ts). */
export { HW_REG_MODE, HW_REG_POPS_PACKER, intrawaveLayers, type PopsCounters } from '../exec/pops-port.js';
import { HW_REG_MODE, HW_REG_POPS_PACKER, intrawaveLayers, type PopsCounters, type PopsPort } from '../exec/pops-port.js';
/** GFX9 MODE bits naming the packer: [24] packer 0, [25] packer 1. */
export const MODE_POPS_PACKER0 = 1 << 24;
export const MODE_POPS_PACKER1 = 1 << 25;

/** Thrown for misuse of the model by its driver (not a shader hazard). */
export class PopsError extends Error {
  override readonly name = 'PopsError';
}

// ---------------------------------------------------------------- COLLISION_WAVEID

export interface CollisionWaveIdFields {
  readonly didOverlap: boolean;
  readonly packer: number;
  /** Newest overlapped wave ID as the register holds it (GFX9: possibly off by one). */
  readonly newestOverlapped: number;
  readonly current: number;
}

/**
 * Build COLLISION_WAVEID: [31] did overlap, [29:28] (GFX10+) / [28] (GFX9) packer, [25:16]
 * newest overlapped wave ID, [9:0] current wave ID. `newest` is the true ID; GFX9 reports it one
 * lower when it lies behind the wraparound (greater than the current ID as 10-bit values).
 */
export function encodeCollisionWaveId(gen: PopsGen, didOverlap: boolean, packer: number, newest: number, current: number): number {
  const info = POPS_GENS[gen];
  let n = newest & WAVE_ID_MASK;
  const c = current & WAVE_ID_MASK;
  if (info.newestOffByOne && n > c) n = (n - 1) & WAVE_ID_MASK;
  const p = packer & ((1 << info.packerBits) - 1);
  return ((didOverlap ? 0x8000_0000 : 0) | (p << info.packerShift) | (n << 16) | c) >>> 0;
}

export function decodeCollisionWaveId(gen: PopsGen, v: number): CollisionWaveIdFields {
  const info = POPS_GENS[gen];
  return {
    didOverlap: (v >>> 31) === 1,
    packer: (v >>> info.packerShift) & ((1 << info.packerBits) - 1),
    newestOverlapped: (v >>> 16) & WAVE_ID_MASK,
    current: v & WAVE_ID_MASK,
  };
}

/** Remap a 10-bit wave ID to a monotonic 32-bit value relative to the current wave (adds ~current). */
export function remapWaveId(id10: number, current10: number): number {
  return ((id10 & WAVE_ID_MASK) + (~(current10 & WAVE_ID_MASK) >>> 0)) >>> 0;
}

/** The seed's entering pseudocode: the remapped newest overlapped wave ID the loop compares against. */
export function shaderWaitTarget(gen: PopsGen, cwid: number): number {
  const f = decodeCollisionWaveId(gen, cwid);
  let newest = f.newestOverlapped;
  if (POPS_GENS[gen].newestOffByOne && newest > f.current) newest++;
  return remapWaveId(newest, f.current);
}

/** The loop condition of the seed: may the wave enter, given the exiting wave ID it just read? */
export function shaderMayEnter(gen: PopsGen, cwid: number, exiting10: number): boolean {
  const cur = cwid & WAVE_ID_MASK;
  return remapWaveId(exiting10, cur) > shaderWaitTarget(gen, cwid);
}

/** The packer value the seed's entering code writes: MODE[25:24] (GFX9) or POPS_PACKER[2:0] (GFX10+). */
export function packerSetregValue(gen: PopsGen, cwid: number): number {
  const p = decodeCollisionWaveId(gen, cwid).packer;
  return gen === 'gfx9' ? (p ? 0b10 : 0b01) : 1 | (p << 1);
}

// ---------------------------------------------------------------- intrawave collisions


// ---------------------------------------------------------------- rasterized input

/** A 2x2 quad handed to the pixel shader, in rasterization order. */
export interface PopsQuad {
  /** Top-left pixel (even coordinates not required). */
  readonly x: number;
  readonly y: number;
  /** Coverage sample mask per quad lane (lane i at x + (i & 1), y + (i >> 1)); 0 = helper / not covered. */
  readonly coverage: readonly [number, number, number, number];
  /** Primitive index within the draw (for the caller's bookkeeping). */
  readonly primitive: number;
}

/** One wave-slot of a quad: where it went. */
export interface PopsQuadPlacement {
  readonly wave: PopsWave;
  readonly quadIndex: number;
}

export type PopsPhase = 'running' | 'ended';

/** The POPS view of one pixel-shader wave. */
export interface PopsWave {
  /** Global launch sequence number (monotonic, never wraps). */
  readonly seq: number;
  readonly draw: number;
  readonly se: number;
  readonly packer: number;
  /** 10-bit wave ID within its packer. */
  readonly waveId: number;
  readonly waveSize: 32 | 64;
  readonly quads: PopsQuad[];
  /** Bit q: quad q starts a new layer (GFX9-10.3 with INTRAWAVE_COLLISION loaded). */
  intrawaveCollision: number;
  /** The newest earlier wave of the packer this wave must wait for, or null. */
  newestOverlapped: PopsWave | null;
  /** COLLISION_WAVEID as loaded into the wave's SGPR. */
  collisionWaveId: number;
  /** The draw's configuration. */
  readonly config: PopsDrawConfig;
  // ---- state machine
  phase: PopsPhase;
  /** Packer selected by the shader (s_setreg), -1 until then. */
  packerSet: number;
  /** The wave read src_pops_exiting_wave_id / ran s_wait_event at least once. */
  waited: boolean;
  /** The wave observed that it may enter (all overlapped waves exited) — it is in its ordered section. */
  entered: boolean;
  /** Left the ordered section (ORDERED_PS_DONE, s_endpgm_ordered_ps_done, GFX11 export done, or end). */
  exited: boolean;
  /** ORDERED_PS_DONE messages sent. */
  doneSent: number;
  exports: number;
  /** Sleeping in the wait loop until woken by an exit (GFX10+) or the delay (GFX9). */
  sleeping: boolean;
  /** Wait polls (operand 239 reads, s_wait_event) that found the overlapped waves still inside. */
  blockedPolls: number;
  /** Length of the chain of overlapped waves ending here (1 = waits for nobody): serialisation depth. */
  depth: number;
}

/** Per-draw POPS statistics. */
export interface PopsDrawStats {
  readonly waves: number;
  /** Waves with did-overlap set (another wave or an intrawave collision). */
  readonly overlappingWaves: number;
  /** Waves that had to wait at least once. */
  readonly waitedWaves: number;
  readonly blockedPolls: number;
  /** Ordered-section layers summed over the waves (1 per wave without intrawave collisions). */
  readonly intrawaveLayers: number;
  /** Longest chain of waves ordered one after another. */
  readonly serialisationDepth: number;
}

/** Outstanding memory counters at an exit point (vm, vs, lgkm), as the executor sees them. */
interface TrackEntry {
  wave: PopsWave;
  quad: number;
}

interface Packer {
  readonly se: number;
  readonly index: number;
  /** Next wave ID to hand out (10-bit). */
  nextId: number;
  /** Waves launched and not yet exited, oldest first (exit pointer = the first one). */
  readonly inFlight: PopsWave[];
  /** The wave being filled by `rasterize`. */
  open: PopsWave | null;
}

export interface PopsUnitOptions {
  readonly gen: PopsGen;
  readonly shaderEngines?: number;
  /** Screen position -> [shader engine, packer]; default: 16x16-pixel tiles spread over all packers. */
  readonly packerOf?: (x: number, y: number) => readonly [number, number];
  readonly diagnostics?: Diagnostics;
  /** Most waves a packer may hold in flight (10-bit IDs must not alias): default 512. */
  readonly maxInFlight?: number;
}

const ALL_SAMPLES = 0xffff;

/**
 * The POPS hardware of one GPU: packers per shader engine, the overlap tracker (per pixel and
 * sample index, the newest invocation that covered it), and the per-wave state machines.
 */
export class PopsUnit implements PopsPort<PopsWave> {
  readonly gen: PopsGen;
  readonly info: PopsGenInfo;
  readonly diags: Diagnostics | undefined;
  private readonly packers: Packer[] = [];
  private readonly packerOf: (x: number, y: number) => readonly [number, number];
  private readonly maxInFlight: number;
  /** pixel key -> per sample index, the newest invocation that covered it. */
  private readonly track = new Map<number, (TrackEntry | undefined)[]>();
  private seq = 0;
  private draws = 0;
  /** Every wave formed, in launch order. */
  readonly waves: PopsWave[] = [];

  constructor(o: PopsUnitOptions) {
    this.gen = o.gen;
    this.info = POPS_GENS[o.gen];
    this.diags = o.diagnostics;
    this.maxInFlight = o.maxInFlight ?? 512;
    if (this.maxInFlight > WAVE_ID_MASK) throw new PopsError('maxInFlight must stay below 1024 (10-bit wave IDs)');
    const ses = o.shaderEngines ?? 2;
    for (let se = 0; se < ses; se++) {
      for (let p = 0; p < this.info.packersPerSe; p++) this.packers.push({ se, index: p, nextId: 0, inFlight: [], open: null });
    }
    const n = this.packers.length;
    const per = this.info.packersPerSe;
    this.packerOf = o.packerOf ?? ((x, y) => {
      const t = ((((x >> 4) * 7) + ((y >> 4) * 13)) % n + n) % n;
      return [Math.floor(t / per), t % per];
    });
  }

  /** Start every packer's wave IDs at `id` (tests of the wraparound). Only before any wave. */
  presetWaveIds(id: number): void {
    if (this.seq !== 0) throw new PopsError('presetWaveIds after waves were formed');
    for (const p of this.packers) p.nextId = id & WAVE_ID_MASK;
  }

  private packer(se: number, index: number): Packer {
    const p = this.packers[se * this.info.packersPerSe + index];
    if (!p || p.se !== se) throw new PopsError(`no packer ${index} on shader engine ${se}`);
    return p;
  }

  /** The packer's exiting wave ID: the oldest wave not yet exited (or the next to be formed). */
  exitingWaveId(se: number, packer: number): number {
    const p = this.packer(se, packer);
    return p.inFlight[0]?.waveId ?? p.nextId;
  }

  /**
   * Form the waves of one draw from its quads, in rasterization order. Returns the waves formed
   * (already launched: they hold their arguments and count as in flight).
   */
  rasterize(config: PopsDrawConfig, quads: readonly PopsQuad[], waveSize: 32 | 64 = 64): PopsWave[] {
    if (config.gen !== this.gen) throw new PopsError(`draw configured for ${config.gen} on a ${this.gen} unit`);
    const draw = this.draws++;
    const formed: PopsWave[] = [];
    const intrawave = config.enabled && config.loadIntrawaveCollision && this.info.intrawave;
    const quadsPerWave = waveSize / 4;
    for (const q of quads) {
      const [se, pi] = this.packerOf(q.x, q.y);
      const p = this.packer(se, pi);
      let w = p.open;
      const hits = config.enabled ? this.lookup(config, q) : [];
      if (w && w.quads.length >= quadsPerWave) w = null;
      if (w && w.draw !== draw) w = null;
      let intraHit = false;
      if (w) {
        const layerStart = this.layerStart(w);
        intraHit = hits.some((h) => h.wave === w && h.quad >= layerStart);
        if (intraHit && !intrawave) w = null;
      }
      if (!w) {
        w = this.newWave(p, draw, config, waveSize);
        formed.push(w);
        intraHit = false;
      }
      const qi = w.quads.length;
      w.quads.push(q);
      if (intraHit) w.intrawaveCollision |= 1 << qi;
      for (const h of hits) {
        if (h.wave === w || h.wave.exited) continue;
        if (!w.newestOverlapped || h.wave.seq > w.newestOverlapped.seq) w.newestOverlapped = h.wave;
      }
      if (config.enabled) this.record(config, q, { wave: w, quad: qi });
    }
    for (const w of formed) this.finishArguments(w);
    for (const p of this.packers) p.open = null;
    return formed;
  }

  /**
   * Launch one wave packed elsewhere (the pipeline's wave packer): its quads, in rasterization
   * order, must all map to one packer, and may overlap each other only when the draw loads
   * INTRAWAVE_COLLISION (GFX9-10.3). Returns the wave with its arguments; its
   * `intrawaveCollision` is recomputed here and should equal the packer's mask.
   */
  launchWave(config: PopsDrawConfig, quads: readonly PopsQuad[], waveSize: 32 | 64 = 64, draw?: number): PopsWave {
    if (config.gen !== this.gen) throw new PopsError(`draw configured for ${config.gen} on a ${this.gen} unit`);
    if (quads.length === 0 || quads.length > waveSize / 4) throw new PopsError(`a wave${waveSize} holds 1 to ${waveSize / 4} quads, not ${quads.length}`);
    const intrawave = config.enabled && config.loadIntrawaveCollision && this.info.intrawave;
    const [se, pi] = this.packerOf(quads[0]!.x, quads[0]!.y);
    const p = this.packer(se, pi);
    if (draw === undefined) draw = this.draws++;
    else if (draw >= this.draws) this.draws = draw + 1;
    const w = this.newWave(p, draw, config, waveSize);
    p.open = null;
    for (const q of quads) {
      const [qse, qpi] = this.packerOf(q.x, q.y);
      if (qse !== se || qpi !== pi) throw new PopsError(`quad at (${q.x}, ${q.y}) belongs to packer ${qpi} of SE${qse}, the wave to packer ${pi} of SE${se}`);
      const hits = config.enabled ? this.lookup(config, q) : [];
      const layerStart = this.layerStart(w);
      const qi = w.quads.length;
      if (hits.some((h) => h.wave === w && h.quad >= layerStart)) {
        if (!intrawave) throw new PopsError(`quad ${qi} overlaps an earlier quad of its wave without INTRAWAVE_COLLISION; the packer must start a new wave`);
        w.intrawaveCollision |= 1 << qi;
      }
      w.quads.push(q);
      for (const h of hits) {
        if (h.wave === w || h.wave.exited) continue;
        if (!w.newestOverlapped || h.wave.seq > w.newestOverlapped.seq) w.newestOverlapped = h.wave;
      }
      if (config.enabled) this.record(config, q, { wave: w, quad: qi });
    }
    this.finishArguments(w);
    return w;
  }

  private layerStart(w: PopsWave): number {
    const m = w.intrawaveCollision;
    return m === 0 ? 0 : 31 - Math.clz32(m);
  }

  private newWave(p: Packer, draw: number, config: PopsDrawConfig, waveSize: 32 | 64): PopsWave {
    if (p.inFlight.length >= this.maxInFlight) {
      throw new PopsError(`packer ${p.index} of SE${p.se} has ${p.inFlight.length} waves in flight; retire waves before rasterizing more (10-bit wave IDs would alias)`);
    }
    const w: PopsWave = {
      seq: this.seq++, draw, se: p.se, packer: p.index, waveId: p.nextId, waveSize, quads: [],
      intrawaveCollision: 0, newestOverlapped: null, collisionWaveId: 0, config,
      phase: 'running', packerSet: -1, waited: false, entered: false, exited: false, doneSent: 0, exports: 0, sleeping: false,
      blockedPolls: 0, depth: 1,
    };
    p.nextId = (p.nextId + 1) & WAVE_ID_MASK;
    p.inFlight.push(w);
    p.open = w;
    this.waves.push(w);
    return w;
  }

  private finishArguments(w: PopsWave): void {
    if (!w.config.enabled) return;
    let newest = w.newestOverlapped;
    if (!newest && w.intrawaveCollision !== 0) {
      // Intrawave collision only: wait for the previous wave of the packer (conservative).
      const p = this.packer(w.se, w.packer);
      const i = p.inFlight.indexOf(w);
      newest = i > 0 ? p.inFlight[i - 1]! : null;
      w.newestOverlapped = newest;
    }
    const did = w.newestOverlapped !== null || w.intrawaveCollision !== 0;
    w.depth = (w.newestOverlapped && !w.newestOverlapped.exited ? w.newestOverlapped.depth : 0) + 1;
    const newestId = w.newestOverlapped ? w.newestOverlapped.waveId : (w.waveId - 1) & WAVE_ID_MASK;
    w.collisionWaveId = encodeCollisionWaveId(this.gen, did, w.packer, newestId, w.waveId);
  }

  /** The sample indices an invocation claims: every index under pixel interlock, its coverage under sample interlock. */
  private claim(config: PopsDrawConfig, coverage: number): number {
    if (coverage === 0) return 0;
    return config.interlockSamples === 1 ? ALL_SAMPLES : coverage & ((1 << config.interlockSamples) - 1) & ALL_SAMPLES;
  }

  private lookup(config: PopsDrawConfig, q: PopsQuad): TrackEntry[] {
    const out: TrackEntry[] = [];
    for (let i = 0; i < 4; i++) {
      const m = this.claim(config, q.coverage[i]!);
      if (m === 0) continue;
      const slots = this.track.get(pixelKey(q.x + (i & 1), q.y + (i >> 1)));
      if (!slots) continue;
      for (let s = 0; s < 16; s++) if ((m >>> s) & 1 && slots[s]) out.push(slots[s]!);
    }
    return out;
  }

  private record(config: PopsDrawConfig, q: PopsQuad, e: TrackEntry): void {
    for (let i = 0; i < 4; i++) {
      const m = this.claim(config, q.coverage[i]!);
      if (m === 0) continue;
      const k = pixelKey(q.x + (i & 1), q.y + (i >> 1));
      let slots = this.track.get(k);
      if (!slots) this.track.set(k, (slots = new Array<TrackEntry | undefined>(16)));
      for (let s = 0; s < 16; s++) if ((m >>> s) & 1) slots[s] = e;
    }
  }

  /** Do two invocations overlap (the later one's draw decides nothing more than its claim)? */
  static overlaps(a: { x: number; y: number; claim: number }, b: { x: number; y: number; claim: number }): boolean {
    return a.x === b.x && a.y === b.y && (a.claim & b.claim) !== 0;
  }

  /** The tracker's claim for one invocation of a draw (for tests and tools). */
  claimOf(config: PopsDrawConfig, coverage: number): number {
    return this.claim(config, coverage);
  }

  // ------------------------------------------------------------ state machine hooks

  /** May the wave enter: every wave of its packer up to its newest overlapped one has exited. */
  mayEnter(w: PopsWave): boolean {
    const n = w.newestOverlapped;
    if (!n) return true;
    const p = this.packer(w.se, w.packer);
    const oldest = p.inFlight[0];
    return !oldest || oldest.seq > n.seq;
  }

  private report(w: PopsWave, id: string, message: string, pc?: number, severity: 'error' | 'warning' = 'error'): void {
    const where: Record<string, number | string> = { gen: this.gen, wave: w.seq, waveId: w.waveId, se: w.se, packer: w.packer };
    if (pc !== undefined) where['pc'] = pc;
    this.diags?.report({ id, severity, where, message, seed: POPS_SEED });
  }

  private checkReenter(w: PopsWave, what: string, pc?: number): void {
    if (w.exited && w.phase === 'running') {
      this.report(w, 'pops.enter.after-exit', `${what} after the wave left its ordered section: a wave may enter at most one ordered section; repeated entry is safe only before exiting`, pc);
    }
  }

  /**
   * GFX9: s_setreg wrote MODE[25:24] (`bits` = the new 2-bit value). Bit 24 selects packer 0,
   * bit 25 packer 1, both 0 = POPS off for the wave.
   */
  setMode(w: PopsWave, bits: number, pc?: number): void {
    if (this.gen !== 'gfx9') return; // MODE[25:24] are other fields (or reserved) on GFX10+
    bits &= 3;
    if (bits === 0) return;
    this.checkReenter(w, 's_setreg MODE[25:24]', pc);
    if (bits === 3) {
      this.report(w, 'pops.packer.invalid', 'MODE[25:24] = 0b11 selects both packers; set bit 24 for packer 0 or bit 25 for packer 1', pc);
      return;
    }
    this.selectPacker(w, bits === 0b10 ? 1 : 0, pc);
  }

  /** GFX10+: s_setreg wrote HW_REG_POPS_PACKER ([0] enable, [2:1] packer). */
  setPopsPacker(w: PopsWave, value: number, pc?: number): void {
    if (this.gen === 'gfx9') {
      this.report(w, 'pops.packer.wrong-register', 'HW_REG_POPS_PACKER (25) does not exist on GFX9; the packer is selected in MODE[25:24]', pc);
      return;
    }
    if (this.gen === 'gfx11') {
      this.report(w, 'pops.packer.gfx11', 'GFX11 waits on export_ready (s_wait_event), not on a packer; HW_REG_POPS_PACKER has no POPS effect', pc, 'warning');
      return;
    }
    if ((value & 1) === 0) return;
    this.checkReenter(w, 's_setreg HW_REG_POPS_PACKER', pc);
    this.selectPacker(w, (value >>> 1) & 3, pc);
  }

  private selectPacker(w: PopsWave, packer: number, pc?: number): void {
    if (packer !== w.packer) {
      this.report(w, 'pops.packer.mismatch', `the wave selected packer ${packer} but COLLISION_WAVEID names packer ${w.packer}; it would poll another packer's exiting wave ID`, pc);
    } else if (w.packerSet !== -1 && w.packerSet !== packer) {
      this.report(w, 'pops.packer.changed', 'the packer was set again to a different value', pc);
    }
    w.packerSet = packer;
  }

  /**
   * The wave read src_pops_exiting_wave_id (operand 239). Volatile: the value of the selected
   * packer at this moment. Reports reads on GFX11, without the packer set, and the wait that must
   * not run when COLLISION_WAVEID[31] = 0 (a hang on hardware; here the read returns a value that
   * lets the loop end).
   */
  readExitingWaveId(w: PopsWave, pc?: number): number {
    if (this.gen === 'gfx11') {
      this.report(w, 'pops.exiting-id.gfx11', 'src_pops_exiting_wave_id does not exist on GFX11: wait with s_wait_event (export_ready) instead; reads 0', pc);
      return 0;
    }
    this.checkReenter(w, 'polling src_pops_exiting_wave_id', pc);
    if (!w.config.enabled || !decodeCollisionWaveId(this.gen, w.collisionWaveId).didOverlap) {
      this.report(w, 'pops.wait.no-overlap', 'the POPS wait loop ran although COLLISION_WAVEID[31] (did overlap) is 0: this hangs on hardware; the wait must be skipped', pc);
      w.waited = true;
      w.entered = true;
      return w.waveId; // remaps to 0xffffffff: the loop ends
    }
    if (w.packerSet === -1) {
      this.report(w, 'pops.packer.setreg-missing',
        `src_pops_exiting_wave_id read before the packer was selected (${this.gen === 'gfx9' ? 's_setreg MODE[25:24]' : 's_setreg HW_REG_POPS_PACKER'}); the value belongs to no packer`, pc);
    }
    w.waited = true;
    const p = this.packer(w.se, w.packerSet === -1 ? w.packer : w.packerSet);
    const v = p.inFlight[0]?.waveId ?? p.nextId;
    if (this.mayEnter(w)) w.entered = true;
    else w.blockedPolls++;
    return v;
  }

  /**
   * s_sleep in the wave. Returns how the wave resumes: `wakeOnExit` when an exit of its packer
   * wakes it (GFX10+ waves in the wait loop), otherwise after the delay. Reports the GFX9 wait loop
   * sleeping beyond SIMM16[6:0] (the GFX10+ idiom 0xFFFF relies on the wake-up, which GFX9 lacks).
   */
  sleep(w: PopsWave, simm16: number, pc?: number): { wakeOnExit: boolean } {
    const inWait = w.waited && !w.entered && !w.exited;
    if (!inWait) return { wakeOnExit: false };
    if (this.gen === 'gfx9' && (simm16 & 0xffff) > 0x7f) {
      this.report(w, 'pops.wait.gfx9-sleep-delay',
        `GFX9 POPS wait loop sleeps with delay ${simm16 & 0xffff}: GFX9 exits do not wake sleeping waves, so the loop needs a small finite delay (AMD uses 3)`, pc, 'warning');
    }
    w.sleeping = true;
    return { wakeOnExit: this.info.exitWakesSleepers };
  }

  /**
   * s_wait_event. GFX11 with bit 0 clear waits for export_ready: returns true when the wave may go
   * on (it then is in its ordered section), false while it must keep waiting. Before GFX11 it is
   * not the POPS wait: reported, never blocks.
   */
  waitEvent(w: PopsWave, simm16: number, pc?: number): boolean {
    if (!w.config.enabled) return true;
    if (this.gen !== 'gfx11') {
      this.report(w, 'pops.wait-event.pre-gfx11', 's_wait_event does not wait for overlapped waves before GFX11: poll src_pops_exiting_wave_id after selecting the packer', pc);
      return true;
    }
    if (simm16 & 1) {
      this.report(w, 'pops.wait-event.no-export-ready', 's_wait_event with bit 0 set does not wait for export_ready: the ordered section is not awaited', pc, 'warning');
      return true;
    }
    this.checkReenter(w, 's_wait_event export_ready', pc);
    w.waited = true;
    if (this.mayEnter(w)) {
      w.entered = true;
      return true;
    }
    w.blockedPolls++;
    return false;
  }

  /** GFX11 STATUS.EXPORT_RDY under POPS: every overlapped wave has left its ordered section. */
  exportReady(w: PopsWave): boolean {
    return !w.config.enabled || this.mayEnter(w);
  }

  /**
   * s_sendmsg with message `id`; handles MSG_ORDERED_PS_DONE (7). Returns the waves woken
   * (GFX10+ sleepers of the packer) so the scheduler can resume them.
   */
  sendMsg(w: PopsWave, id: number, counters?: PopsCounters, pc?: number): PopsWave[] {
    if ((id & 0xff) !== MSG_ORDERED_PS_DONE) return [];
    if (this.gen === 'gfx11') {
      this.report(w, 'pops.done-msg.gfx11', 'MSG_ORDERED_PS_DONE is not how GFX11 leaves the ordered section: the last export with done releases overlapping waves', pc);
      return [];
    }
    return this.orderedPsDone(w, 's_sendmsg MSG_ORDERED_PS_DONE', counters, pc);
  }

  private orderedPsDone(w: PopsWave, what: string, counters: PopsCounters | undefined, pc?: number): PopsWave[] {
    w.doneSent++;
    if (w.doneSent > 1) {
      this.report(w, 'pops.exit.twice', `${what} sent a second time: ORDERED_PS_DONE must be sent once per wave`, pc);
      return [];
    }
    if (!w.config.enabled) return this.exit(w);
    const did = decodeCollisionWaveId(this.gen, w.collisionWaveId).didOverlap;
    if (w.packerSet !== -1 && did && !this.mayEnter(w)) {
      this.report(w, 'pops.exit.before-wait', `${what} before the wave awaited its overlapped waves: the ordered sections lose their order`, pc);
    } else if (w.packerSet !== -1 && did && !w.waited) {
      this.report(w, 'pops.exit.before-wait', `${what} without having run the wait loop after selecting the packer`, pc, 'warning');
    }
    if (counters) this.checkCounters(w, what, counters, pc);
    return this.exit(w);
  }

  private checkCounters(w: PopsWave, what: string, c: PopsCounters, pc?: number): void {
    if (c.vm > 0 || c.vs > 0 || c.lgkm > 0) {
      this.report(w, 'pops.exit.counters-outstanding',
        `${what} with memory accesses outstanding (vm ${c.vm}, vs ${c.vs}, lgkm ${c.lgkm}): the resumed overlapping waves race with them; wait for the counters first`, pc);
    }
  }

  /**
   * An export the SPI skipped (GFX10+ export skipping, STATUS.SKIP_EXPORT): it does not count as
   * the export POPS requires and releases nothing.
   */
  exportSkipped(w: PopsWave, pc?: number): void {
    if (!w.config.enabled) return;
    this.report(w, 'pops.export.skipped',
      `export skipped (STATUS.SKIP_EXPORT) under POPS: GFX10 export skipping must not be used with POPS; ${this.gen === 'gfx11' ? 'GFX11 hangs' : 'the shader runs without the synchronization'}`, pc);
  }

  /**
   * An export. With `done` on GFX11 it releases overlapping waves (the GFX11 exit); on all
   * generations it counts as the export POPS requires.
   */
  exportDone(w: PopsWave, done: boolean, counters?: PopsCounters, pc?: number): PopsWave[] {
    w.exports++;
    if (!done || this.gen !== 'gfx11' || !w.config.enabled || w.exited) return [];
    if (!w.entered && !this.mayEnter(w)) {
      this.report(w, 'pops.exit.before-wait', 'last export (done) before the wave awaited export_ready: the ordered sections lose their order', pc);
    }
    if (counters) this.checkCounters(w, 'last export (done)', counters, pc);
    return this.exit(w);
  }

  /**
   * The wave ends: s_endpgm, or s_endpgm_ordered_ps_done (`orderedPsDone`: waits for every counter,
   * sends ORDERED_PS_DONE, ends). Reports the ordered section never exited and the missing export.
   */
  endProgram(w: PopsWave, orderedPsDone = false, pc?: number): PopsWave[] {
    if (w.phase === 'ended') return [];
    let woken: PopsWave[] = [];
    if (orderedPsDone) {
      if (this.gen === 'gfx11') {
        this.report(w, 'pops.done-msg.gfx11', 's_endpgm_ordered_ps_done does not exist on GFX11', pc);
      } else {
        woken = this.orderedPsDone(w, 's_endpgm_ordered_ps_done', undefined, pc);
      }
    }
    if (w.config.enabled) {
      if (w.exports === 0) {
        this.report(w, 'pops.export.missing',
          `the wave ended without an export under POPS: ${this.gen === 'gfx11' ? 'GFX11 hangs' : 'the shader runs unsynchronised on GFX10'}; export at least a null export`, pc);
      }
      if (this.info.exitBy === 'ordered-ps-done' && w.packerSet !== -1 && w.doneSent === 0) {
        this.report(w, 'pops.exit.missing', 's_endpgm after the POPS packer was set without ORDERED_PS_DONE: the ordered section is never exited', pc);
      }
    }
    w.phase = 'ended';
    if (!w.exited) woken = woken.concat(this.exit(w));
    return woken;
  }

  private exit(w: PopsWave): PopsWave[] {
    if (w.exited) return [];
    w.exited = true;
    const p = this.packer(w.se, w.packer);
    while (p.inFlight.length > 0 && p.inFlight[0]!.exited) p.inFlight.shift();
    if (!this.info.exitWakesSleepers) return [];
    const woken: PopsWave[] = [];
    for (const o of p.inFlight) {
      if (o.sleeping) {
        o.sleeping = false;
        woken.push(o);
      }
    }
    return woken;
  }

  /** End a wave without any POPS checks (tools and tests that model waves with no shader). */
  endProgramQuiet(w: PopsWave): PopsWave[] {
    w.phase = 'ended';
    return this.exit(w);
  }

  /**
   * A subgroup operation (`kind`) ran inside the intrawave layer loop with only `activeLayers` of
   * the wave's `layers` active: its result differs from the one outside the ordered section.
   */
  intrawaveSubgroupOp(w: PopsWave, kind: string, activeLayers: number, layers: number, pc?: number): void {
    this.report(w, 'pops.intrawave.subgroup-lanes',
      `${kind} inside the intrawave-collision loop runs with ${activeLayers} of the wave's ${layers} layers active: its active lanes differ from outside the ordered section, so its result differs (SPIR-V/GLSL interlock must not change the active invocations); keep subgroup operations out of the layered section or do not load INTRAWAVE_COLLISION`,
      pc, 'warning');
  }

  /** Clear a GFX9 sleeper once its delay elapsed (the scheduler's job). */
  wake(w: PopsWave): void {
    w.sleeping = false;
  }

  /** Statistics of one draw (its index in rasterize order). */
  drawStats(draw: number): PopsDrawStats {
    let waves = 0, overlapping = 0, waited = 0, polls = 0, layers = 0, depth = 0;
    for (const w of this.waves) {
      if (w.draw !== draw) continue;
      waves++;
      if (w.collisionWaveId >>> 31) overlapping++;
      if (w.blockedPolls > 0) waited++;
      polls += w.blockedPolls;
      layers += 1 + popcount(w.intrawaveCollision & ~1);
      depth = Math.max(depth, w.depth);
    }
    return { waves, overlappingWaves: overlapping, waitedWaves: waited, blockedPolls: polls, intrawaveLayers: layers, serialisationDepth: depth };
  }

  /** Waves not yet exited per packer (statistics, deadlock reports). */
  inFlight(): number {
    let n = 0;
    for (const p of this.packers) n += p.inFlight.length;
    return n;
  }
}

function popcount(v: number): number {
  let n = 0;
  for (let x = v >>> 0; x; x &= x - 1) n++;
  return n;
}

function pixelKey(x: number, y: number): number {
  return (y & 0xffff) * 0x10000 + (x & 0xffff);
}
