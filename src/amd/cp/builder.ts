/**
 * A PM4 command-buffer builder for GFX9 / GFX10.3 / GFX11: emits real type-3 packets (and type
 * 0/2 when asked) with register offsets, field positions and enum values from the generated
 * register database, so a test or a tool writes `setShReg('COMPUTE_NUM_THREAD_X', 64)` and
 * `encode('VGT_DRAW_INITIATOR', { SOURCE_SELECT: 'DI_SRC_SEL_AUTO_INDEX' })`.
 */
import { IT, NOP_PAD_COUNT, PKT2, pkt0Header, pkt3Header } from './pm4.js';
import { REG_SPACES, regDb, spaceOf, type Pm4Gen, type RegDb, type RegSpace } from './regdb.js';

export interface Pkt3Options {
  readonly predicate?: boolean;
  /** SHADER_TYPE = 1 (compute). */
  readonly compute?: boolean;
  readonly resetFilterCam?: boolean;
}

const lo32 = (va: number): number => va % 0x1_0000_0000 >>> 0;
const hi32 = (va: number): number => Math.floor(va / 0x1_0000_0000) >>> 0;

/** WRITE_DATA / COPY_DATA destination selects. */
export const DST_SEL = { REG: 0, MEM_GRBM: 1, TC_L2: 2, GDS: 3, PERF: 4, MEM: 5 } as const;
/** COPY_DATA source selects. */
export const SRC_SEL = { REG: 0, MEM: 1, TC_L2: 2, GDS: 3, PERF: 4, IMM: 5, TIMESTAMP: 9 } as const;
/** WAIT_REG_MEM functions. */
export const WAIT_FN = { ALWAYS: 0, LT: 1, LE: 2, EQ: 3, NE: 4, GE: 5, GT: 6 } as const;
/** EVENT_WRITE_EOP / RELEASE_MEM DATA_SEL. */
export const DATA_SEL = { DISCARD: 0, VALUE_32: 1, VALUE_64: 2, TIMESTAMP: 3 } as const;

export class Pm4Builder {
  readonly gen: Pm4Gen;
  readonly db: RegDb;
  private readonly w: number[] = [];
  constructor(gen: Pm4Gen) {
    this.gen = gen;
    this.db = regDb(gen);
  }

  /** Dwords emitted so far. */
  get length(): number {
    return this.w.length;
  }

  /** Raw dwords (no header added). */
  raw(...dwords: number[]): this {
    for (const d of dwords) this.w.push(d >>> 0);
    return this;
  }

  pkt3(opcode: number, body: readonly number[], opts: Pkt3Options = {}): this {
    this.w.push(pkt3Header(opcode, body.length, opts));
    for (const d of body) this.w.push(d >>> 0);
    return this;
  }

  /** Pack fields of a register by name; enum values may be given by name. */
  encode(reg: string, fields: Readonly<Record<string, number | string>>): number {
    const r = this.db.get(reg);
    if (!r) throw new RangeError(`${this.gen} has no register ${reg}`);
    let v = 0;
    for (const [name, val] of Object.entries(fields)) {
      const f = r.fields.find((x) => x.name === name);
      if (!f) throw new RangeError(`${reg} has no field ${name} on ${this.gen}`);
      let n: number;
      if (typeof val === 'string') {
        const e = [...(f.values ?? new Map<number, string>()).entries()].find(([, s]) => s === val);
        if (!e) throw new RangeError(`${reg}.${name} has no value ${val}`);
        n = e[0];
      } else n = val;
      const width = f.hi - f.lo + 1;
      if (n < 0 || n >= 2 ** width) throw new RangeError(`${reg}.${name} = ${n} does not fit in ${width} bits`);
      v += n * 2 ** f.lo;
    }
    return v >>> 0;
  }

  private setIn(space: RegSpace, opcode: number, reg: string | number, values: readonly number[], index = 0): this {
    const off = typeof reg === 'number' ? reg : this.db.offset(reg);
    if (spaceOf(off) !== space) throw new RangeError(`${typeof reg === 'string' ? reg : '0x' + off.toString(16)} is not a ${space} register`);
    return this.pkt3(opcode, [((off - REG_SPACES[space].base) | (index << 28)) >>> 0, ...values]);
  }

  setContextReg(reg: string | number, ...values: number[]): this { return this.setIn('context', IT.SET_CONTEXT_REG!, reg, values); }
  setShReg(reg: string | number, ...values: number[]): this { return this.setIn('sh', IT.SET_SH_REG!, reg, values); }
  setShRegIndex(reg: string | number, index: number, ...values: number[]): this { return this.setIn('sh', IT.SET_SH_REG_INDEX!, reg, values, index); }
  setUconfigReg(reg: string | number, ...values: number[]): this { return this.setIn('uconfig', IT.SET_UCONFIG_REG!, reg, values); }
  setUconfigRegIndex(reg: string | number, index: number, ...values: number[]): this { return this.setIn('uconfig', IT.SET_UCONFIG_REG_INDEX!, reg, values, index); }
  setConfigReg(reg: string | number, ...values: number[]): this { return this.setIn('config', IT.SET_CONFIG_REG!, reg, values); }

  /** SET_*_REG for whichever space the register lives in. */
  setReg(reg: string | number, ...values: number[]): this {
    const off = typeof reg === 'number' ? reg : this.db.offset(reg);
    switch (spaceOf(off)) {
      case 'context': return this.setContextReg(off, ...values);
      case 'sh': return this.setShReg(off, ...values);
      case 'uconfig': return this.setUconfigReg(off, ...values);
      case 'config': return this.setConfigReg(off, ...values);
      default: throw new RangeError(`0x${off.toString(16)} is in no SET_*_REG space`);
    }
  }

  /**
   * SET_CONTEXT_REG_PAIRS / SET_SH_REG_PAIRS (GFX11), or the _PACKED forms (an odd count is padded
   * by repeating the first register, as drivers do; `n` picks SET_SH_REG_PAIRS_PACKED_N). The
   * graphics queue needs RESET_FILTER_CAM on these, so it is set unless `compute`.
   */
  setRegPairs(space: 'context' | 'sh', pairs: readonly (readonly [string | number, number])[], opts: { packed?: boolean; n?: boolean; compute?: boolean } = {}): this {
    const offs = pairs.map(([r, v]) => {
      const off = typeof r === 'number' ? r : this.db.offset(r);
      if (spaceOf(off) !== space) throw new RangeError(`${typeof r === 'string' ? r : '0x' + off.toString(16)} is not a ${space} register`);
      return [off - REG_SPACES[space].base, v >>> 0] as const;
    });
    const hdr = { resetFilterCam: !opts.compute, compute: opts.compute ?? false };
    if (!opts.packed) {
      const op = space === 'context' ? IT.SET_CONTEXT_REG_PAIRS! : IT.SET_SH_REG_PAIRS!;
      return this.pkt3(op, offs.flatMap(([o, v]) => [o, v]), hdr);
    }
    const regs = offs.length % 2 === 1 ? [...offs, offs[0]!] : offs;
    const body = [regs.length];
    for (let i = 0; i < regs.length; i += 2) body.push((regs[i]![0] | (regs[i + 1]![0] << 16)) >>> 0, regs[i]![1], regs[i + 1]![1]);
    const op = space === 'context' ? IT.SET_CONTEXT_REG_PAIRS_PACKED! : opts.n ? IT.SET_SH_REG_PAIRS_PACKED_N! : IT.SET_SH_REG_PAIRS_PACKED!;
    return this.pkt3(op, body, hdr);
  }

  /** LOAD_*_REG: `baseVa` holds an image of the space (register R at baseVa + R*4); ranges of (first register, count). */
  loadReg(space: RegSpace, baseVa: number, ranges: readonly (readonly [string | number, number])[], opts: Pkt3Options = {}): this {
    const op = { config: IT.LOAD_CONFIG_REG!, context: IT.LOAD_CONTEXT_REG!, sh: IT.LOAD_SH_REG!, uconfig: IT.LOAD_UCONFIG_REG! }[space];
    const body = [lo32(baseVa) & ~3, hi32(baseVa) & 0xffff];
    for (const [r, n] of ranges) {
      const off = typeof r === 'number' ? r : this.db.offset(r);
      if (spaceOf(off) !== space) throw new RangeError(`${typeof r === 'string' ? r : '0x' + off.toString(16)} is not a ${space} register`);
      body.push(off - REG_SPACES[space].base, n & 0x3fff);
    }
    return this.pkt3(op, body, opts);
  }

  /** LOAD_SH_REG_INDEX / LOAD_CONTEXT_REG_INDEX with a direct address: `count` values at `va` (or `count` (offset, value) pairs with offsetAndData). */
  loadRegIndex(space: 'sh' | 'context', va: number, reg: string | number, count: number, opts: { offsetAndData?: boolean; compute?: boolean } = {}): this {
    const off = typeof reg === 'number' ? reg : this.db.offset(reg);
    if (spaceOf(off) !== space) throw new RangeError(`${typeof reg === 'string' ? reg : '0x' + off.toString(16)} is not a ${space} register`);
    const op = space === 'sh' ? IT.LOAD_SH_REG_INDEX! : IT.LOAD_CONTEXT_REG_INDEX!;
    return this.pkt3(op, [lo32(va) & ~3, hi32(va), ((off - REG_SPACES[space].base) | (opts.offsetAndData ? 1 << 31 : 0)) >>> 0, count & 0x3fff], { compute: opts.compute ?? false });
  }

  /** SET_PREDICATION: op 0 clear, 1 zpass, 2 primcount, 3 bool64, 4 bool32; drawVisible = run predicated packets when the value is non-zero. */
  setPredication(op: 0 | 1 | 2 | 3 | 4, va = 0, opts: { drawVisible?: boolean; continue?: boolean; noWait?: boolean } = {}): this {
    const cntl = (op << 16) | ((opts.drawVisible ?? true) ? 1 << 8 : 0) | (opts.noWait ? 1 << 12 : 0) | (opts.continue ? 1 << 31 : 0);
    return this.pkt3(IT.SET_PREDICATION!, [cntl >>> 0, lo32(va) & ~3, hi32(va) & 0xffff]);
  }

  /** Emit `fn`'s packets with the PREDICATE bit [0] set on every type-3 header (SET_PREDICATION decides whether they run). */
  predicated(fn: (b: this) => void): this {
    let at = this.w.length;
    fn(this);
    while (at < this.w.length) {
      const h = this.w[at]!;
      if (h >>> 30 !== 3) throw new RangeError(`predicated() takes type-3 packets only (dword ${at} is 0x${h.toString(16)})`);
      this.w[at] = (h | 1) >>> 0;
      at += ((h >>> 16) & 0x3fff) + 2;
    }
    return this;
  }

  /** COND_EXEC: if the dword at `va` is zero, the CP skips the next `dwords` dwords. */
  condExec(va: number, dwords: number): this {
    return this.pkt3(IT.COND_EXEC!, [lo32(va) & ~3, hi32(va) & 0xffff, 0, dwords & 0x3fff]);
  }

  nop(bodyDwords = 1): this {
    if (bodyDwords === 0) return this.raw(pkt3Header(IT.NOP!, 1) & ~(0x3fff << 16) | (NOP_PAD_COUNT << 16));
    return this.pkt3(IT.NOP!, new Array<number>(bodyDwords).fill(0));
  }
  type0(baseIndex: number, ...values: number[]): this { return this.raw(pkt0Header(baseIndex, values.length), ...values); }
  type2(): this { return this.raw(PKT2); }

  contextControl(load = 0x80000000, shadow = 0x80000000): this { return this.pkt3(IT.CONTEXT_CONTROL!, [load, shadow]); }
  clearState(): this { return this.pkt3(IT.CLEAR_STATE!, [0]); }
  indexType(type: 0 | 1 | 2): this { return this.pkt3(IT.INDEX_TYPE!, [type]); }
  numInstances(n: number): this { return this.pkt3(IT.NUM_INSTANCES!, [n]); }
  indexBase(va: number): this { return this.pkt3(IT.INDEX_BASE!, [lo32(va), hi32(va) & 0xffff]); }
  indexBufferSize(indices: number): this { return this.pkt3(IT.INDEX_BUFFER_SIZE!, [indices]); }
  setBase(index: number, va: number): this { return this.pkt3(IT.SET_BASE!, [index, lo32(va), hi32(va) & 0xffff]); }

  drawInitiator(source: 'DI_SRC_SEL_DMA' | 'DI_SRC_SEL_AUTO_INDEX' | 'DI_SRC_SEL_IMMEDIATE'): number {
    return this.encode('VGT_DRAW_INITIATOR', { SOURCE_SELECT: source });
  }
  drawIndexAuto(vertexCount: number, initiator = this.drawInitiator('DI_SRC_SEL_AUTO_INDEX')): this {
    return this.pkt3(IT.DRAW_INDEX_AUTO!, [vertexCount, initiator]);
  }
  drawIndex2(maxSize: number, indexVa: number, indexCount: number, initiator = this.drawInitiator('DI_SRC_SEL_DMA')): this {
    return this.pkt3(IT.DRAW_INDEX_2!, [maxSize, lo32(indexVa), hi32(indexVa) & 0xffff, indexCount, initiator]);
  }
  /** DRAW_INDIRECT / DRAW_INDEX_INDIRECT: arguments at SET_BASE(1) + dataOffset; *Loc are SH offsets of user-data registers (0 = none). */
  drawIndirect(dataOffset: number, baseVtxLoc = 0, startInstLoc = 0, initiator = this.drawInitiator('DI_SRC_SEL_AUTO_INDEX')): this {
    return this.pkt3(IT.DRAW_INDIRECT!, [dataOffset, baseVtxLoc, startInstLoc, initiator]);
  }
  drawIndexIndirect(dataOffset: number, baseVtxLoc = 0, startInstLoc = 0, initiator = this.drawInitiator('DI_SRC_SEL_DMA')): this {
    return this.pkt3(IT.DRAW_INDEX_INDIRECT!, [dataOffset, baseVtxLoc, startInstLoc, initiator]);
  }
  drawIndirectMulti(indexed: boolean, o: { dataOffset: number; count: number; stride: number; countVa?: number; baseVtxLoc?: number; startInstLoc?: number; drawIndexLoc?: number; initiator?: number }): this {
    const loc = (o.drawIndexLoc ?? 0) | (o.drawIndexLoc !== undefined ? 1 << 31 : 0) | (o.countVa !== undefined ? 1 << 30 : 0);
    return this.pkt3(indexed ? IT.DRAW_INDEX_INDIRECT_MULTI! : IT.DRAW_INDIRECT_MULTI!, [
      o.dataOffset, o.baseVtxLoc ?? 0, o.startInstLoc ?? 0, loc >>> 0, o.count, lo32(o.countVa ?? 0), hi32(o.countVa ?? 0), o.stride,
      o.initiator ?? this.drawInitiator(indexed ? 'DI_SRC_SEL_DMA' : 'DI_SRC_SEL_AUTO_INDEX'),
    ]);
  }

  dispatchInitiator(opts: { useThreadDimensions?: boolean; wave32?: boolean; partialGroups?: boolean; forceStartAt000?: boolean } = {}): number {
    const f: Record<string, number> = { COMPUTE_SHADER_EN: 1 };
    if (opts.useThreadDimensions) f.USE_THREAD_DIMENSIONS = 1;
    if (opts.partialGroups) f.PARTIAL_TG_EN = 1;
    if (opts.forceStartAt000) f.FORCE_START_AT_000 = 1;
    if (opts.wave32 && this.gen !== 'gfx9') f.CS_W32_EN = 1;
    return this.encode('COMPUTE_DISPATCH_INITIATOR', f);
  }
  dispatchDirect(x: number, y: number, z: number, initiator = this.dispatchInitiator(), opts: Pkt3Options = { compute: true }): this {
    return this.pkt3(IT.DISPATCH_DIRECT!, [x, y, z, initiator], opts);
  }
  /** Graphics-ring form (DATA_OFFSET from SET_BASE index 1), or the compute-ring form with an address. */
  dispatchIndirect(arg: { dataOffset: number } | { va: number }, initiator = this.dispatchInitiator()): this {
    return 'va' in arg
      ? this.pkt3(IT.DISPATCH_INDIRECT!, [lo32(arg.va), hi32(arg.va), initiator], { compute: true })
      : this.pkt3(IT.DISPATCH_INDIRECT!, [arg.dataOffset, initiator], { compute: true });
  }

  indirectBuffer(va: number, dwords: number, opts: { chain?: boolean; valid?: boolean } = {}): this {
    if (va % 4 !== 0) throw new RangeError('an IB address is dword aligned');
    const control = (dwords & 0xfffff) | (opts.chain ? 1 << 20 : 0) | (opts.valid === false ? 0 : 1 << 23);
    return this.pkt3(IT.INDIRECT_BUFFER!, [lo32(va), hi32(va) & 0xffff, control >>> 0]);
  }

  writeData(dstSel: number, addr: number, data: readonly number[], opts: { oneAddr?: boolean; wrConfirm?: boolean; engine?: number } = {}): this {
    const control = (dstSel << 8) | (opts.oneAddr ? 1 << 16 : 0) | (opts.wrConfirm ? 1 << 20 : 0) | ((opts.engine ?? 0) << 30);
    return this.pkt3(IT.WRITE_DATA!, [control >>> 0, lo32(addr), hi32(addr), ...data]);
  }
  writeMem(va: number, ...data: number[]): this { return this.writeData(DST_SEL.MEM, va, data, { wrConfirm: true }); }

  copyData(srcSel: number, src: number, dstSel: number, dst: number, opts: { wide?: boolean; wrConfirm?: boolean } = {}): this {
    const control = srcSel | (dstSel << 8) | (opts.wide ? 1 << 16 : 0) | (opts.wrConfirm ? 1 << 20 : 0);
    return this.pkt3(IT.COPY_DATA!, [control, lo32(src), hi32(src), lo32(dst), hi32(dst)]);
  }

  eventType(name: string): number {
    const f = this.db.get('VGT_EVENT_INITIATOR')?.fields.find((x) => x.name === 'EVENT_TYPE');
    const e = [...(f?.values ?? new Map<number, string>()).entries()].find(([, s]) => s === name);
    if (!e) throw new RangeError(`${this.gen} has no event ${name}`);
    return e[0];
  }
  eventWrite(event: string | number, eventIndex = 0, va?: number): this {
    const t = typeof event === 'string' ? this.eventType(event) : event;
    return this.pkt3(IT.EVENT_WRITE!, va === undefined ? [t | (eventIndex << 8)] : [t | (eventIndex << 8), lo32(va), hi32(va)]);
  }
  /**
   * The occlusion-query dump a driver emits at query begin (va) and end (va + 8): every RB writes
   * its samples-passed counter at va + 16*rb. GFX9/GFX10.3 EVENT_WRITE ZPASS_DONE, GFX11
   * EVENT_WRITE PIXEL_PIPE_STAT_DUMP (EVENT_INDEX 1), or with `packet` GFX11's EVENT_WRITE_ZPASS.
   */
  zpassDump(va: number, opts: { packet?: boolean } = {}): this {
    if (opts.packet) {
      if (this.gen !== 'gfx11') throw new RangeError(`EVENT_WRITE_ZPASS is a GFX11 packet, not ${this.gen}`);
      return this.pkt3(IT.EVENT_WRITE_ZPASS!, [lo32(va), hi32(va) & 0xffff]);
    }
    return this.eventWrite(this.gen === 'gfx11' ? 'PIXEL_PIPE_STAT_DUMP' : 'ZPASS_DONE', 1, va);
  }
  eventWriteEop(event: string | number, va: number, dataSel: number, data = 0, dataHi = 0): this {
    const t = typeof event === 'string' ? this.eventType(event) : event;
    return this.pkt3(IT.EVENT_WRITE_EOP!, [t | (5 << 8), lo32(va), (hi32(va) & 0xffff) | (dataSel << 29), data, dataHi]);
  }
  releaseMem(event: string | number, va: number, dataSel: number, data = 0, dataHi = 0, opts: { dstSel?: number; intSel?: number } = {}): this {
    const t = typeof event === 'string' ? this.eventType(event) : event;
    return this.pkt3(IT.RELEASE_MEM!, [t | (5 << 8), ((opts.dstSel ?? 0) << 16) | ((opts.intSel ?? 0) << 24) | (dataSel << 29), lo32(va), hi32(va), data, dataHi, 0]);
  }
  /** ACQUIRE_MEM over the whole address range (CP_COHER_CNTL and, on GFX10+, GCR_CNTL as given). */
  acquireMem(coherCntl = 0, gcrCntl = 0): this {
    const body = [coherCntl, 0xffffffff, 0xffffff, 0, 0, 10];
    if (this.gen !== 'gfx9') body.push(gcrCntl);
    return this.pkt3(IT.ACQUIRE_MEM!, body);
  }
  /** WAIT_REG_MEM on memory (space 1) or a register (space 0; `addr` is its dword offset). */
  waitRegMem(memSpace: 0 | 1, fn: number, addr: number, reference: number, mask = 0xffffffff, pollInterval = 4): this {
    return this.pkt3(IT.WAIT_REG_MEM!, [fn | (memSpace << 4), lo32(addr), hi32(addr), reference, mask, pollInterval]);
  }
  pfpSyncMe(): this { return this.pkt3(IT.PFP_SYNC_ME!, [0]); }

  finish(): Uint32Array {
    return Uint32Array.from(this.w);
  }
  /** Little-endian bytes (what `gpusim pm4 decode` reads). */
  bytes(): Uint8Array {
    const u = this.finish();
    return new Uint8Array(u.buffer, u.byteOffset, u.byteLength);
  }
}
