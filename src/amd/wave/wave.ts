/**
 * The state of one wave (GFX11 layout; GFX9/GFX10 differ only in the operand space constants).
 *
 * Layout (DESIGN.md habit 5):
 * - `s`: the scalar operand file, 256 dwords indexed by the 8-bit scalar operand encoding.
 *   0..105 SGPRs, 106/107 VCC_LO/HI, 108..123 TTMP0..15, 124 NULL (always 0), 125 M0,
 *   126/127 EXEC_LO/HI. Entries 128..255 are pre-filled with the 32-bit value each inline constant
 *   or special source reads as, so a 32-bit scalar operand read is one load `s[enc]`.
 *   The dynamic sources (VCCZ 251, EXECZ 252, SCC 253) are refreshed by `syncSpecials()` before
 *   an instruction that reads them (the binder knows which do).
 * - `s64hi`: for encodings >= 128, the high dword a 64-bit read of that constant yields
 *   (sign extension for integers; the f64 bit pattern's high dword for float constants).
 *   `s64lo` likewise holds the low dword of 64-bit constants (0 for float constants).
 * - `v`: VGPRs, `reg * waveSize + lane`, with `vf` a Float32Array view of the same buffer.
 * - EXEC lives in `s[126]`/`s[127]`, VCC in `s[106]`/`s[107]`, M0 in `s[125]`: one source of truth.
 */
import type { Memory } from '../../core/memory.js';

/** Scalar operand encodings with a fixed role (GFX10.3/GFX11). */
export const SREG = {
  VCC_LO: 106, VCC_HI: 107, TTMP0: 108, TTMP15: 123, NULL: 124, M0: 125, EXEC_LO: 126, EXEC_HI: 127,
  SHARED_BASE: 235, SHARED_LIMIT: 236, PRIVATE_BASE: 237, PRIVATE_LIMIT: 238, POPS_EXITING_WAVE_ID: 239,
  VCCZ: 251, EXECZ: 252, SCC: 253, LITERAL: 255,
} as const;

/** Why a wave is not running. */
export type WaveState = 'ready' | 'barrier' | 'sleep' | 'ended' | 'halted';

/** f64 bit patterns (high dwords) of the float inline constants 240..248. */
const F64_HI = [0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000, 0xc0000000, 0x40100000, 0xc0100000, 0x3fc45f30];
const F64_LO_INV2PI = 0x6dc9c882;
const F32_BITS = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983];

/** Hardware registers reachable through s_getreg/s_setreg, by HW_REG id (GFX11 numbering). */
export const HWREG = {
  MODE: 1, STATUS: 2, TRAPSTS: 3, GPR_ALLOC: 5, LDS_ALLOC: 6, IB_STS: 7, SH_MEM_BASES: 15,
  PERF_SNAPSHOT_PC_LO: 18, PERF_SNAPSHOT_PC_HI: 19, FLAT_SCR_LO: 20, FLAT_SCR_HI: 21, HW_ID1: 23, HW_ID2: 24,
  POPS_PACKER: 25, PERF_SNAPSHOT_DATA: 27, SHADER_CYCLES: 29,
} as const;

/**
 * STATUS register bits (RDNA3 layout; SCC, EXECZ and VCCZ are live copies composed on read).
 * PRIV is set while the wave runs its trap handler; TRAP_EN says a trap handler is installed.
 */
export const STATUS = {
  SCC: 1 << 0, SPI_PRIO: 3 << 1, USER_PRIO: 3 << 3, PRIV: 1 << 5, TRAP_EN: 1 << 6, TTRACE_EN: 1 << 7,
  EXPORT_RDY: 1 << 8, EXECZ: 1 << 9, VCCZ: 1 << 10, IN_TG: 1 << 11, IN_BARRIER: 1 << 12, HALT: 1 << 13,
  TRAP: 1 << 14, TTRACE_SIMD_EN: 1 << 15, VALID: 1 << 16, ECC_ERR: 1 << 17, SKIP_EXPORT: 1 << 18,
  PERF_EN: 1 << 19, COND_DBG_USER: 1 << 20, COND_DBG_SYS: 1 << 21, NO_VGPRS: 1 << 24, MUST_EXPORT: 1 << 27,
} as const;

export interface WaveLaunch {
  readonly waveSize: 32 | 64;
  readonly vgprs: number;
  /** PC of the first instruction. */
  readonly pc: number;
  /** Apertures: 64-bit bases of the shared (LDS) and private (scratch) flat apertures. */
  readonly sharedBase: number;
  readonly privateBase: number;
  /** MODE register value at launch (from RSRC1 FLOAT_MODE, DX10_CLAMP, IEEE...). */
  readonly mode: number;
  /** STATUS.PRIV etc. at launch. */
  readonly status: number;
}

/** The scalar file's launch contents (inline constants, apertures), built once per aperture pair. */
interface ConstTemplate {
  readonly sharedBase: number;
  readonly privateBase: number;
  readonly s: Uint32Array;
  readonly lo: Uint32Array;
  readonly hi: Uint32Array;
}
let lastTemplate: ConstTemplate | null = null;

function constantTemplate(sharedBase: number, privateBase: number): ConstTemplate {
  const t = lastTemplate;
  if (t !== null && t.sharedBase === sharedBase && t.privateBase === privateBase) return t;
  const s = new Uint32Array(256);
  const s64lo = new Uint32Array(256);
  const s64hi = new Uint32Array(256);
  for (let i = 0; i <= 64; i++) {
    s[128 + i] = i;
    s64lo[128 + i] = i;
  }
  for (let i = 1; i <= 16; i++) {
    s[192 + i] = -i >>> 0;
    s64lo[192 + i] = -i >>> 0;
    s64hi[192 + i] = 0xffffffff;
  }
  for (let i = 0; i < 9; i++) {
    s[240 + i] = F32_BITS[i]!;
    s64hi[240 + i] = F64_HI[i]!;
  }
  s64lo[248] = F64_LO_INV2PI;
  const hi = (x: number) => Math.floor(x / 0x1_0000_0000) >>> 0;
  // 32-bit reads of the aperture registers give the high dword (the low one is always 0).
  s[SREG.SHARED_BASE] = hi(sharedBase);
  s64hi[SREG.SHARED_BASE] = hi(sharedBase);
  s[SREG.SHARED_LIMIT] = hi(sharedBase);
  s64hi[SREG.SHARED_LIMIT] = hi(sharedBase);
  s64lo[SREG.SHARED_LIMIT] = 0xffffffff;
  s[SREG.PRIVATE_BASE] = hi(privateBase);
  s64hi[SREG.PRIVATE_BASE] = hi(privateBase);
  s[SREG.PRIVATE_LIMIT] = hi(privateBase);
  s64hi[SREG.PRIVATE_LIMIT] = hi(privateBase);
  s64lo[SREG.PRIVATE_LIMIT] = 0xffffffff;
  lastTemplate = { sharedBase, privateBase, s, lo: s64lo, hi: s64hi };
  return lastTemplate;
}

/** The peers of a wave no launcher has placed in a workgroup yet (shared: peers are never mutated). */
const NO_PEERS: readonly Wave[] = Object.freeze([]);

/**
 * Where a wave's register block is allocated: null, its own ArrayBuffer; the wasm tier installs
 * its heap allocator (engine/wasm/heap.ts) so translated code reads the registers in place (a full
 * heap returns null: the wave then has its own buffer).
 */
export const waveRegs: { alloc: ((bytes: number, owner: object) => { buffer: ArrayBuffer; offset: number } | null) | null } = { alloc: null };

/**
 * Where a workgroup's LDS may live: the wasm tier installs its heap's (engine/wasm/heap.ts), so
 * translated code reaches it; `at` gives an array's byte offset in the heap (-1: not there).
 */
export const waveLds: { alloc: ((bytes: number) => Uint8Array) | null; free: ((lds: Uint8Array) => void) | null; at: ((lds: Uint8Array) => number) | null } = { alloc: null, free: null, at: null };

/** A workgroup's LDS of `bytes`: in the wasm heap when the tier is on, else an array of its own. */
export function ldsArray(bytes: number): Uint8Array {
  return waveLds.alloc?.(bytes) ?? new Uint8Array(bytes);
}

export class Wave {
  readonly waveSize: 32 | 64;
  /** Scalar operand file (see the file comment). */
  readonly s: Uint32Array;
  readonly s64lo: Uint32Array;
  readonly s64hi: Uint32Array;
  /** Number of VGPRs allocated (per lane). */
  readonly vgprs: number;
  readonly v: Uint32Array;
  readonly vf: Float32Array;
  /** Whether this register block lives in the wasm heap (engine/wasm/heap.ts); its byte offset there. */
  readonly regInHeap: boolean;
  readonly regOff: number;
  /** Byte address of the next instruction to execute. */
  pc: number;
  scc = 0;
  /** Hardware registers by HWREG id (MODE, STATUS, TRAPSTS...). */
  readonly hw: Uint32Array;
  /** Outstanding-operation counters (GFX11: VM_CNT, VS_CNT, LGKM_CNT, EXP_CNT). */
  vmcnt = 0;
  vscnt = 0;
  lgkmcnt = 0;
  expcnt = 0;
  state: WaveState = 'ready';
  /** Wake-up time for s_sleep (model clock, `ExecEnv.now()`). */
  sleepUntil = 0;
  /** The waves of this wave's workgroup (itself included; s_wakeup reaches them). Set by the launcher. */
  peers: readonly Wave[] = NO_PEERS;
  /** Trap base / trap memory addresses (TBA, TMA: 64-bit VAs, shared by the dispatch). */
  tba = 0;
  tma = 0;
  /** Why the wave halted (s_sethalt, illegal instruction...), for reports. */
  haltReason = '';
  /** Set once s_sendmsg MSG_DEALLOC_VGPRS ran: only s_endpgm is valid afterwards. */
  vgprsReleased = false;
  /** The wait-counter sanitizer's record of this wave's outstanding loads (waitcnt.ts); null when none. */
  waitTrack: unknown = null;
  /** Instructions this wave executed. */
  instructions = 0;
  /** Lane operations (active lanes summed over VALU/VMEM/DS instructions). */
  laneOps = 0;
  /**
   * Identity: workgroup id (x, y, z), wave index inside the workgroup, global wave id. Set at
   * launch; a launcher that reuses Wave objects across workgroups sets them again in `relaunch`.
   */
  wgId: readonly [number, number, number];
  waveInGroup: number;
  id: number;
  /** The workgroup's LDS (shared by its waves), with a DataView and a dword view of the same bytes. */
  lds: Uint8Array;
  ldsView: DataView;
  ldsU32: Uint32Array;
  /** The LDS's byte offset in the wasm heap (engine/wasm/heap.ts), or -1. */
  ldsAt: number;
  /** Global memory. */
  readonly mem: Memory;
  /** Per-wave scratch: base VA of this wave's private segment and bytes per lane. */
  scratchBase = 0;
  scratchPerLane = 0;
  /** The constant template the 64-bit rows hold (relaunch copies them only for another one). */
  private template: ConstTemplate | null = null;

  constructor(l: WaveLaunch, mem: Memory, lds: Uint8Array, ids: { wg: [number, number, number]; waveInGroup: number; id: number }) {
    this.waveSize = l.waveSize;
    this.vgprs = l.vgprs;
    // One backing store for the scalar file, its 64-bit constant rows, the hardware registers and
    // the VGPRs: a draw creates thousands of PS waves, and five separate off-heap arrays per wave
    // were most of their launch cost and garbage.
    const nv = Math.max(1, l.vgprs) * l.waveSize;
    const bytes = (3 * 256 + 64 + nv) * 4;
    // In the wasm heap when the wasm tier is on (engine/wasm/heap.ts), else its own buffer.
    const at = waveRegs.alloc?.(bytes, this);
    const buf = at?.buffer ?? new ArrayBuffer(bytes);
    const o = at?.offset ?? 0;
    this.regInHeap = at !== null && at !== undefined;
    this.regOff = o;
    this.s = new Uint32Array(buf, o, 256);
    this.s64lo = new Uint32Array(buf, o + 1024, 256);
    this.s64hi = new Uint32Array(buf, o + 2048, 256);
    this.hw = new Uint32Array(buf, o + 3072, 64);
    this.v = new Uint32Array(buf, o + 3328, nv);
    this.vf = new Float32Array(buf, o + 3328, nv);
    this.pc = l.pc;
    this.mem = mem;
    this.lds = lds;
    this.ldsView = new DataView(lds.buffer, lds.byteOffset, lds.byteLength);
    this.ldsU32 = new Uint32Array(lds.buffer, lds.byteOffset, lds.byteLength >>> 2);
    this.ldsAt = waveLds.at?.(lds) ?? -1;
    this.wgId = ids.wg;
    this.waveInGroup = ids.waveInGroup;
    this.id = ids.id;
    this.hw[HWREG.MODE] = l.mode;
    this.hw[HWREG.STATUS] = l.status;
    const t = constantTemplate(l.sharedBase, l.privateBase);
    this.s.set(t.s);
    this.s64lo.set(t.lo);
    this.s64hi.set(t.hi);
    this.template = t;
    this.restart();
  }

  /**
   * Launch this object again as a fresh wave of another workgroup (same waveSize/VGPR count and
   * memory): every field returns to what the constructor gives (VGPRs zeroed, SGPRs and the
   * constant rows from the template), so pooling waves across workgroups is invisible.
   */
  relaunch(l: WaveLaunch, lds: Uint8Array, ldsView: DataView, ldsU32: Uint32Array, wg: readonly [number, number, number], waveInGroup: number, id: number): void {
    if (l.waveSize !== this.waveSize || l.vgprs !== this.vgprs) throw new Error('relaunch with a different wave size or VGPR count');
    const t = constantTemplate(l.sharedBase, l.privateBase);
    this.s.set(t.s);
    // The 64-bit constant rows: copied whole only for another template; of them only the dynamic
    // sources' low dwords (VCCZ, EXECZ, SCC: syncSpecials) change after launch.
    if (t !== this.template) {
      this.s64lo.set(t.lo);
      this.s64hi.set(t.hi);
      this.template = t;
    } else {
      this.s64lo[SREG.VCCZ] = t.lo[SREG.VCCZ]!;
      this.s64lo[SREG.EXECZ] = t.lo[SREG.EXECZ]!;
      this.s64lo[SREG.SCC] = t.lo[SREG.SCC]!;
    }
    this.v.fill(0);
    this.hw.fill(0);
    this.hw[HWREG.MODE] = l.mode;
    this.hw[HWREG.STATUS] = l.status;
    this.pc = l.pc;
    this.restart();
    this.wgId = wg;
    this.waveInGroup = waveInGroup;
    this.id = id;
    this.lds = lds;
    this.ldsView = ldsView;
    this.ldsU32 = ldsU32;
    this.ldsAt = waveLds.at?.(lds) ?? -1;
  }

  /**
   * The fields a running wave changes, back to their launch values. The constructor stores them
   * once more too, after their initialisers: V8 treats a field stored only at initialisation as a
   * constant of its hidden class, and optimised code compiled while the first waves run (the
   * scheduler's pass, a loop's block function) would fold `state`, `vscnt`, `vgprsReleased`... as
   * such, to be thrown away when the first wave ends (s_endpgm, its first store): matmul's first
   * TurboFan compiles of both were aborted for that ("dependency change", about 40-55 ms each).
   */
  private restart(): void {
    this.scc = 0;
    this.vmcnt = 0;
    this.vscnt = 0;
    this.lgkmcnt = 0;
    this.expcnt = 0;
    this.state = 'ready';
    this.sleepUntil = 0;
    this.peers = NO_PEERS;
    this.tba = 0;
    this.tma = 0;
    this.haltReason = '';
    this.vgprsReleased = false;
    this.waitTrack = null;
    this.instructions = 0;
    this.laneOps = 0;
    this.scratchBase = 0;
    this.scratchPerLane = 0;
  }

  /** Refresh VCCZ, EXECZ and SCC as source operands (251..253). */
  syncSpecials(): void {
    const s = this.s;
    const w64 = this.waveSize === 64;
    s[SREG.VCCZ] = s[SREG.VCC_LO] === 0 && (!w64 || s[SREG.VCC_HI] === 0) ? 1 : 0;
    s[SREG.EXECZ] = s[SREG.EXEC_LO] === 0 && (!w64 || s[SREG.EXEC_HI] === 0) ? 1 : 0;
    s[SREG.SCC] = this.scc;
    this.s64lo[SREG.VCCZ] = s[SREG.VCCZ]!;
    this.s64lo[SREG.EXECZ] = s[SREG.EXECZ]!;
    this.s64lo[SREG.SCC] = this.scc;
  }

  get execLo(): number {
    return this.s[SREG.EXEC_LO]!;
  }
  /** High half of EXEC as the wave sees it (0 in wave32: the hardware ignores EXEC_HI). */
  get execHi(): number {
    return this.waveSize === 64 ? this.s[SREG.EXEC_HI]! : 0;
  }
  /** Whether lane `l` is enabled in EXEC. */
  laneOn(l: number): boolean {
    return l < 32 ? ((this.s[SREG.EXEC_LO]! >>> l) & 1) === 1 : ((this.s[SREG.EXEC_HI]! >>> (l - 32)) & 1) === 1;
  }
  execZero(): boolean {
    return this.s[SREG.EXEC_LO] === 0 && (this.waveSize === 32 || this.s[SREG.EXEC_HI] === 0);
  }
  /** STATUS.PRIV: in a trap handler. */
  get priv(): boolean {
    return (this.hw[HWREG.STATUS]! & STATUS.PRIV) !== 0;
  }
}
