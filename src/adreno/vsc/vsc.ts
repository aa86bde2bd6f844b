/**
 * VSC, the visibility stream compressor (seed 004, "VSC"): the bin layout a driver picks, the
 * VSC pipes (VSC_PIPE_CONFIG), the streams the binning pass writes (VSC_DRAW_STRM_*,
 * VSC_PRIM_STRM_*, VSC_DRAW_STRM_SIZE_ADDRESS, VSC_STATE) and how the render pass reads them back
 * (CP_SET_BIN_DATA5: a draw with no visible primitive in the current bin is skipped, and with
 * CP_SKIP_IB2_ENABLE_* so is an IB2 whose draws are all invisible).
 *
 * Stream format (a model choice: freedreno does not decode the hardware's compressed streams,
 * see its Visibility-Stream-Format wiki page; only sizes, addresses and the pipe/bin numbering
 * are the hardware's): for pipe p the draw stream at VSC_DRAW_STRM_ADDRESS + p * PITCH holds one
 * little-endian dword per draw of the binning pass, bit n set when the draw has a primitive in
 * bin n of the pipe (n = (y - pipe.Y) * pipe.W + (x - pipe.X)); the primitive stream at
 * VSC_PRIM_STRM_ADDRESS + p * PITCH holds, per draw, its primitive count then one such dword per
 * primitive (every primitive the PC assembled, in order, instances after each other; one whose
 * triangles were all clipped or culled has mask 0). VSC_DRAW_STRM_SIZE[p] /
 * VSC_PRIM_STRM_SIZE[p] are the bytes the pipe produced (also written to
 * VSC_DRAW_STRM_SIZE_ADDRESS + 4p, as freedreno's CP_SET_BIN_DATA5 expects); VSC_STATE[p] has bit
 * n set when bin n saw any primitive (freedreno tests it with CP_REG_TEST). Bytes past
 * *_LIMIT are not written (the size keeps counting, so freedreno's CP_COND_WRITE5 overflow test
 * sees it) and a render pass reading past the limit treats the draw as visible. The render pass
 * skips the primitives a visible draw's masks leave out of its bin (`VscReader.prims`).
 */

/** A primitive's screen-space bounding box, inclusive pixels (what the binning VS + PC produce). */
export interface PrimBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface VscPipe {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface BinLayout {
  readonly width: number;
  readonly height: number;
  readonly binW: number;
  readonly binH: number;
  readonly nx: number;
  readonly ny: number;
  /** GMEM base of each buffer (the order of `cpps`), 4 KiB aligned (RB_*_BASE_GMEM keeps bits 12+). */
  readonly bases: readonly number[];
  /** GMEM bytes the buffers use. */
  readonly used: number;
  readonly pipes: readonly VscPipe[];
  /** Bins per pipe in x / y (freedreno's maxpw / maxph). */
  readonly tppX: number;
  readonly tppY: number;
}

export interface BinLayoutOptions {
  readonly width: number;
  readonly height: number;
  /** Bytes per pixel (all samples) of each GMEM buffer: colour MRTs, then depth, stencil. */
  readonly cpps: readonly number[];
  /** GMEM bytes usable for tiles (the size minus the CCU colour cache at its top). */
  readonly budget: number;
  readonly alignW: number;
  readonly alignH: number;
  readonly maxW: number;
  readonly maxH: number;
  readonly numPipes: number;
  /** A fixed bin size (`--bin WxH`); else the largest that fits, as freedreno picks it. */
  readonly bin?: { readonly w: number; readonly h: number };
}

const alignUp = (v: number, a: number): number => Math.ceil(v / a) * a;
const PAGE = 4096;

function bufferBases(cpps: readonly number[], binW: number, binH: number): { bases: number[]; used: number } {
  const bases: number[] = [];
  let total = 0;
  for (const c of cpps) {
    total = alignUp(total, PAGE);
    bases.push(total);
    total += c * binW * binH;
  }
  return { bases, used: total };
}

/**
 * Bins and pipes for a framebuffer: freedreno's search (grow the bin count along the longer bin
 * side until every buffer of a bin fits the GMEM budget, bins aligned to tile_align_w/h and at
 * most tile_max_w/h), then the bins grouped into at most `numPipes` VSC pipes of tppX x tppY bins.
 */
export function binLayout(o: BinLayoutOptions): BinLayout {
  let binW: number, binH: number, nx: number, ny: number;
  if (o.bin) {
    if (o.bin.w <= 0 || o.bin.h <= 0 || o.bin.w % 32 || o.bin.h % 16) throw new Error(`bin size ${o.bin.w}x${o.bin.h}: BINW counts 32 pixels and BINH 16 (GRAS_BIN_CONTROL), so a bin is a multiple of 32x16`);
    if (o.bin.w > o.maxW || o.bin.h > o.maxH) throw new Error(`bin size ${o.bin.w}x${o.bin.h} exceeds the a6xx maximum ${o.maxW}x${o.maxH}`);
    binW = o.bin.w;
    binH = o.bin.h;
    nx = Math.ceil(o.width / binW);
    ny = Math.ceil(o.height / binH);
  } else {
    nx = 1;
    ny = 1;
    const dims = (): void => {
      binW = alignUp(Math.ceil(o.width / nx), o.alignW);
      binH = alignUp(Math.ceil(o.height / ny), o.alignH);
    };
    dims();
    while (binW! > o.maxW) { nx++; dims(); }
    while (binH! > o.maxH) { ny++; dims(); }
    while (bufferBases(o.cpps, binW!, binH!).used > o.budget) {
      if (binW! > binH! && binW! > o.alignW) nx++;
      else if (binH! > o.alignH) ny++;
      else throw new Error(`one ${binW!}x${binH!} bin of ${o.cpps.join('+')} bytes per pixel does not fit ${o.budget} bytes of GMEM`);
      dims();
    }
  }
  const { bases, used } = bufferBases(o.cpps, binW!, binH!);
  if (used > o.budget) throw new Error(`bin ${binW!}x${binH!} needs ${used} bytes of GMEM for ${o.cpps.join('+')} bytes per pixel; ${o.budget} are available`);
  // Pipes: grow bins per pipe until the pipes cover the bins.
  let tppX = 1, tppY = 1;
  while (Math.ceil(ny / tppY) > o.numPipes) tppY++;
  while (Math.ceil(ny / tppY) * Math.ceil(nx / tppX) > o.numPipes) tppX++;
  // A pipe's visibility masks hold 32 bins (adreno.vsc.pipe-too-large in a stream): more bins than
  // the pipes hold cannot be programmed (and would replay the draws in each of thousands of bins).
  if (tppX * tppY > 32) throw new Error(`${nx}x${ny} bins of ${binW!}x${binH!}: more than the ${o.numPipes} VSC pipes of 32 bins each hold (${32 * o.numPipes}); larger bins are needed`);
  const pipes: VscPipe[] = [];
  for (let y = 0; y < ny; y += tppY) for (let x = 0; x < nx; x += tppX) pipes.push({ x, y, w: Math.min(tppX, nx - x), h: Math.min(tppY, ny - y) });
  return { width: o.width, height: o.height, binW: binW!, binH: binH!, nx, ny, bases, used, pipes, tppX, tppY };
}

/** Pipe index and bin number within the pipe of bin (bx, by). */
export function pipeOf(pipes: readonly VscPipe[], bx: number, by: number): { p: number; n: number } | undefined {
  for (let p = 0; p < pipes.length; p++) {
    const q = pipes[p]!;
    if (bx >= q.x && bx < q.x + q.w && by >= q.y && by < q.y + q.h) return { p, n: (by - q.y) * q.w + (bx - q.x) };
  }
  return undefined;
}

/** The registers and memory the VSC uses, as the CP provides them. */
export interface VscHost {
  readReg(off: number): number;
  writeReg(off: number, v: number, privileged?: boolean): void;
  regOf(name: string): number;
  write32(addr: number, v: number): void;
  read32(addr: number): number;
  report(id: string, severity: 'error' | 'warning' | 'info', message: string): void;
}

interface PipeCursor {
  drawBytes: number;
  primBytes: number;
  state: number;
}

/**
 * The binning pass's writer: `begin` at CP_SET_MARKER RM6_BINNING, `draw` for each draw with its
 * primitives' boxes (framebuffer pixels), `end` when the pass leaves BINNING.
 */
export class VscWriter {
  private cursors: PipeCursor[] = [];
  private pipes: VscPipe[] = [];
  private binW = 0;
  private binH = 0;
  private active = false;
  draws = 0;
  primitives = 0;
  private overflowReported = false;

  private readonly host: VscHost;
  constructor(host: VscHost) {
    this.host = host;
  }

  private field(name: string, lo: number, hi: number): number {
    return Math.floor(this.host.readReg(this.host.regOf(name)) / 2 ** lo) % 2 ** (hi - lo + 1);
  }

  private addr(name: string): number {
    const o = this.host.regOf(name);
    return this.host.readReg(o + 1) * 2 ** 32 + this.host.readReg(o);
  }

  /** CP_SET_MARKER RM6_BINNING: a new pass (the VSC registers are read at each draw: drivers write them after the marker). */
  begin(): void {
    this.cursors = Array.from({ length: 32 }, () => ({ drawBytes: 0, primBytes: 0, state: 0 }));
    this.pipes = Array.from({ length: 32 }, () => ({ x: 0, y: 0, w: 0, h: 0 }));
    this.active = true;
    this.draws = 0;
    this.primitives = 0;
    this.overflowReported = false;
    this.publish();
  }

  private readConfig(): void {
    this.binW = this.field('VSC_BIN_SIZE', 0, 7) * 32;
    this.binH = this.field('VSC_BIN_SIZE', 8, 16) * 16;
    const cfg0 = this.host.regOf('VSC_PIPE_CONFIG[0].REG');
    for (let i = 0; i < 32; i++) {
      const v = this.host.readReg(cfg0 + i);
      const p = { x: v & 0x3ff, y: (v >>> 10) & 0x3ff, w: (v >>> 20) & 0x3f, h: (v >>> 26) & 0x3f };
      if (p.w * p.h > 32 && this.draws === 0) this.host.report('adreno.vsc.pipe-too-large', 'error', `VSC_PIPE_CONFIG[${i}] assigns ${p.w}x${p.h} bins to one pipe; a pipe's visibility masks hold 32 bins`);
      this.pipes[i] = p;
    }
  }

  get running(): boolean {
    return this.active;
  }

  /** One draw of the binning pass; `boxes` undefined = geometry unknown: visible in every bin. */
  draw(boxes: readonly PrimBox[] | undefined): void {
    if (!this.active) return;
    this.readConfig();
    if ((!this.binW || !this.binH) && this.draws === 0) this.host.report('adreno.vsc.no-bin-size', 'error', 'binning-pass draw with VSC_BIN_SIZE 0: no primitive can be binned');
    const masks = this.pipes.map(() => 0);
    const primMasks: number[][] = this.pipes.map(() => []);
    const all = boxes === undefined;
    const list = boxes ?? [];
    for (const b of list) {
      const pm = this.pipes.map(() => 0);
      if (this.binW && this.binH && b.x1 >= b.x0 && b.y1 >= b.y0) {
        const bx0 = Math.max(0, Math.floor(b.x0 / this.binW)), bx1 = Math.floor(b.x1 / this.binW);
        const by0 = Math.max(0, Math.floor(b.y0 / this.binH)), by1 = Math.floor(b.y1 / this.binH);
        this.pipes.forEach((q, i) => {
          if (!q.w || !q.h) return;
          for (let by = Math.max(by0, q.y); by <= Math.min(by1, q.y + q.h - 1); by++) {
            for (let bx = Math.max(bx0, q.x); bx <= Math.min(bx1, q.x + q.w - 1); bx++) {
              const n = (by - q.y) * q.w + (bx - q.x);
              if (n < 32) pm[i] = (pm[i]! | (1 << n)) >>> 0;
            }
          }
        });
      }
      pm.forEach((m, i) => { masks[i] = (masks[i]! | m) >>> 0; if (this.pipes[i]!.w) primMasks[i]!.push(m); });
      this.primitives++;
    }
    // Geometry unknown: no per-primitive entries (the count reads 0xffffffff: "all visible").
    if (all) this.pipes.forEach((q, i) => { masks[i] = q.w * q.h >= 32 ? 0xffffffff : (2 ** (q.w * q.h) - 1) >>> 0; });
    const drawBase = this.addr('VSC_DRAW_STRM_ADDRESS'), primBase = this.addr('VSC_PRIM_STRM_ADDRESS');
    const dPitch = this.host.readReg(this.host.regOf('VSC_DRAW_STRM_PITCH')), pPitch = this.host.readReg(this.host.regOf('VSC_PRIM_STRM_PITCH'));
    const dLimit = this.host.readReg(this.host.regOf('VSC_DRAW_STRM_LIMIT')), pLimit = this.host.readReg(this.host.regOf('VSC_PRIM_STRM_LIMIT'));
    this.pipes.forEach((q, i) => {
      if (!q.w || !q.h) return;
      const c = this.cursors[i]!;
      this.emit(drawBase + i * dPitch, c.drawBytes, dLimit, masks[i]!, 'draw', i);
      c.drawBytes += 4;
      this.emit(primBase + i * pPitch, c.primBytes, pLimit, all ? 0xffffffff : primMasks[i]!.length, 'primitive', i);
      c.primBytes += 4;
      for (const m of primMasks[i]!) {
        this.emit(primBase + i * pPitch, c.primBytes, pLimit, m, 'primitive', i);
        c.primBytes += 4;
      }
      c.state = (c.state | masks[i]!) >>> 0;
    });
    this.draws++;
    this.publish();
  }

  private emit(base: number, at: number, limit: number, v: number, what: string, pipe: number): void {
    if (at + 4 > limit) {
      if (!this.overflowReported) this.host.report('adreno.vsc.overflow', 'warning', `VSC pipe ${pipe}'s ${what} stream passes its LIMIT (${limit} bytes): later entries are lost; the size registers keep counting so a driver's overflow test can see it`);
      this.overflowReported = true;
      return;
    }
    this.host.write32(base + at, v);
  }

  /** Sizes and VSC_STATE into registers, sizes also to VSC_DRAW_STRM_SIZE_ADDRESS + 4p. */
  private publish(): void {
    const ds = this.host.regOf('VSC_DRAW_STRM_SIZE[0].REG'), ps = this.host.regOf('VSC_PRIM_STRM_SIZE[0].REG'), st = this.host.regOf('VSC_STATE[0].REG');
    const sizeAddr = this.addr('VSC_DRAW_STRM_SIZE_ADDRESS');
    this.cursors.forEach((c, i) => {
      this.host.writeReg(ds + i, c.drawBytes, true);
      this.host.writeReg(ps + i, c.primBytes, true);
      this.host.writeReg(st + i, c.state, true);
      if (sizeAddr && this.pipes[i]!.w) this.host.write32(sizeAddr + 4 * i, c.drawBytes);
    });
  }

  end(): void {
    this.active = false;
  }
}

/** The render pass's reader, from CP_SET_BIN_DATA5's payload. */
export class VscReader {
  /** Draws consumed since CP_SET_BIN_DATA5. */
  index = 0;
  /** The last draw `next` consumed: where its primitives' masks are and how many (undefined = all visible). */
  prims: { readonly addr: number; readonly count: number } | undefined;
  private primCursor = 0;
  private readonly primLimit: number;
  readonly n: number;
  readonly size: number;
  readonly drawStrm: number;
  readonly sizeAddr: number;
  readonly primStrm: number;
  private readonly entries: number;
  private shortReported = false;

  private readonly host: VscHost;
  constructor(host: VscHost, payload: readonly number[]) {
    this.host = host;
    this.size = ((payload[0] ?? 0) >>> 16) & 0x3f;
    this.n = ((payload[0] ?? 0) >>> 22) & 0x1f;
    this.drawStrm = (payload[2] ?? 0) * 2 ** 32 + (payload[1] ?? 0);
    this.sizeAddr = (payload[4] ?? 0) * 2 ** 32 + (payload[3] ?? 0);
    this.primStrm = (payload[6] ?? 0) * 2 ** 32 + (payload[5] ?? 0);
    this.entries = Math.floor(this.host.read32(this.sizeAddr) / 4);
    this.primLimit = host.readReg(host.regOf('VSC_PRIM_STRM_LIMIT'));
    if (this.n >= this.size && this.size) host.report('adreno.vsc.bad-bin', 'error', `CP_SET_BIN_DATA5 VSC_N ${this.n} is not a bin of a ${this.size}-bin pipe`);
  }

  /** Is draw number `index + k` visible in this bin (past the stream: visible)? */
  visibleAt(k: number): boolean {
    const i = this.index + k;
    if (i >= this.entries) {
      if (!this.shortReported) this.host.report('adreno.vsc.stream-short', 'warning', `render pass draw ${i} has no entry in the visibility stream (${this.entries} draws binned, or the stream overflowed): drawn in every bin`);
      this.shortReported = true;
      return true;
    }
    return ((this.host.read32(this.drawStrm + 4 * i) >>> this.n) & 1) === 1;
  }

  /** Is primitive k of the last draw `next` consumed in this bin? */
  primVisible(k: number): boolean {
    return !this.prims || k >= this.prims.count || ((this.host.read32(this.prims.addr + 4 * k) >>> this.n) & 1) === 1;
  }

  /** Consume one draw: whether it is visible in this bin (and its primitive masks into `prims`). */
  next(): boolean {
    const v = this.visibleAt(0);
    this.prims = undefined;
    // Entries past VSC_PRIM_STRM_LIMIT were not written: the draw's primitives are all drawn.
    if (this.index < this.entries && this.primStrm && this.primCursor + 4 <= this.primLimit) {
      const n = this.host.read32(this.primStrm + this.primCursor);
      if (n !== 0xffffffff && this.primCursor + 4 * (n + 1) <= this.primLimit) {
        this.prims = { addr: this.primStrm + this.primCursor + 4, count: n };
        this.primCursor += 4 * (n + 1);
      } else this.primCursor += 4;
    }
    this.index++;
    return v;
  }
}
