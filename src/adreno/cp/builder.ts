/**
 * A TypeScript command-stream builder: emits real PM4 type-4 / type-7 packets (a5xx+) or type-0 /
 * type-3 packets (a2xx..a4xx) with register names and fields from the generated database.
 *
 *   const cs = new CmdStream('a6xx');
 *   cs.reg('CP_SCRATCH[0]', 0x1234).memWrite(0x100000000, [1, 2]).event('CACHE_FLUSH_TS', addr, 7);
 *   const dwords = cs.dwords();
 */
import { encodeFields, enumValue, gpuRegs, type Gen, type RegisterSpace } from '../regs/db.js';
import { opcode, pkt0, pkt3, pkt4, pkt7 } from './pm4.js';

export const lo32 = (a: number): number => a >>> 0;
export const hi32 = (a: number): number => Math.floor(a / 2 ** 32) >>> 0;

/** Draw-state group for CP_SET_DRAW_STATE. */
export interface DrawStateGroup {
  readonly groupId: number;
  /** IB address of the state object and its size in dwords (0 with `disable`). */
  readonly addr?: number;
  readonly count?: number;
  /** Modes this group runs in; default all three. */
  readonly modes?: readonly ('GMEM' | 'SYSMEM' | 'BINNING')[];
  readonly dirty?: boolean;
  readonly disable?: boolean;
  readonly disableAll?: boolean;
  readonly loadImmed?: boolean;
}

export class CmdStream {
  readonly gen: Gen;
  readonly regs: RegisterSpace;
  private buf: number[] = [];

  constructor(gen: Gen = 'a6xx') {
    this.gen = gen;
    this.regs = gpuRegs(gen);
  }

  get length(): number {
    return this.buf.length;
  }

  get newStyle(): boolean {
    return this.gen === 'a5xx' || this.gen === 'a6xx' || this.gen === 'a7xx';
  }

  dwords(): Uint32Array {
    return Uint32Array.from(this.buf);
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.dwords().buffer);
  }

  /** Append raw dwords (for corrupt-stream tests and hand-made payloads). */
  raw(...dw: number[]): this {
    for (const d of dw) this.buf.push(d >>> 0);
    return this;
  }

  private regOffset(reg: number | string): number {
    return typeof reg === 'number' ? reg : this.regs.reg(reg);
  }

  /** Write consecutive registers starting at `reg` (type 4, or type 0 before a5xx). */
  regs32(reg: number | string, values: readonly number[]): this {
    const r = this.regOffset(reg);
    if (values.length === 0) throw new RangeError('register write with no values');
    for (let i = 0; i < values.length; i += 127) {
      const chunk = values.slice(i, i + 127);
      this.buf.push(this.newStyle ? pkt4(r + i, chunk.length) : pkt0(r + i, chunk.length));
      for (const v of chunk) this.buf.push(v >>> 0);
    }
    return this;
  }

  /** Write one register; a field object is encoded through the register's bitset. */
  reg(reg: number | string, value: number | Record<string, number | boolean | string>): this {
    const r = this.regOffset(reg);
    if (typeof value === 'number') return this.regs32(r, [value]);
    const info = this.regs.at(r);
    if (!info) throw new Error(`register 0x${r.toString(16)} has no fields`);
    return this.regs32(r, [encodeFields(info.type, value, this.gen)]);
  }

  /** Write a 64-bit register (two dwords). */
  reg64(reg: number | string, value: number): this {
    return this.regs32(reg, [lo32(value), hi32(value)]);
  }

  /** A type-7 (or type-3 before a5xx) packet. */
  pkt(op: number | string, payload: readonly number[] = []): this {
    const o = typeof op === 'number' ? op : opcode(op, this.gen);
    if (this.newStyle) this.buf.push(pkt7(o, payload.length));
    else this.buf.push(pkt3(o, Math.max(payload.length, 1)));
    for (const v of payload) this.buf.push(v >>> 0);
    if (!this.newStyle && payload.length === 0) this.buf.push(0);
    return this;
  }

  nop(payload: readonly number[] = []): this {
    return this.pkt('CP_NOP', payload);
  }

  memWrite(addr: number, values: readonly number[]): this {
    return this.pkt('CP_MEM_WRITE', [lo32(addr), hi32(addr), ...values]);
  }

  /** CP_INDIRECT_BUFFER (0x3f; named CP_INDIRECT_BUFFER_PFE on a5xx) or CP_INDIRECT_BUFFER_CHAIN. */
  indirectBuffer(addr: number, sizeDwords: number, chain = false): this {
    if (!this.newStyle) return this.pkt('CP_INDIRECT_BUFFER', [lo32(addr), sizeDwords]);
    return this.pkt(chain ? 'CP_INDIRECT_BUFFER_CHAIN' : 0x3f, [lo32(addr), hi32(addr), sizeDwords]);
  }

  setDrawState(groups: readonly DrawStateGroup[]): this {
    const p: number[] = [];
    for (const g of groups) {
      const modes = g.modes ?? ['GMEM', 'SYSMEM', 'BINNING'];
      const d0 = encodeFields(
        'CP_SET_DRAW_STATE.[].0',
        {
          COUNT: g.count ?? 0,
          DIRTY: !!g.dirty,
          DISABLE: !!g.disable,
          DISABLE_ALL_GROUPS: !!g.disableAll,
          LOAD_IMMED: !!g.loadImmed,
          // The per-mode bits exist from a6xx on.
          ...(this.gen === 'a6xx' || this.gen === 'a7xx' ? { BINNING: modes.includes('BINNING'), GMEM: modes.includes('GMEM'), SYSMEM: modes.includes('SYSMEM') } : {}),
          GROUP_ID: g.groupId,
        },
        this.gen,
      );
      p.push(d0, lo32(g.addr ?? 0));
      if (this.gen !== 'a4xx') p.push(hi32(g.addr ?? 0)); // ADDR_HI from a5xx on
    }
    return this.pkt('CP_SET_DRAW_STATE', p);
  }

  /** CP_EVENT_WRITE with an event name; with an address, writes `value` (or the timestamp) there. */
  event(name: string, addr?: number, value?: number, opts: { timestamp?: boolean; irq?: boolean } = {}): this {
    const ev = enumValue('vgt_event_type', name, this.gen);
    if (ev === undefined) throw new Error(`no event ${name} on ${this.gen}`);
    const d0 = (ev | (opts.timestamp ? 1 << 30 : 0) | (opts.irq ? 1 << 31 : 0)) >>> 0;
    if (addr === undefined) return this.pkt('CP_EVENT_WRITE', [d0]);
    return this.pkt('CP_EVENT_WRITE', [d0, lo32(addr), hi32(addr), value ?? 0]);
  }

  setMarker(mode: string | number): this {
    const m = typeof mode === 'number' ? mode : enumValue('a6xx_marker', mode, this.gen);
    if (m === undefined) throw new Error(`no marker ${mode}`);
    return this.pkt('CP_SET_MARKER', [m]);
  }

  setMode(v: number): this {
    return this.pkt('CP_SET_MODE', [v]);
  }

  waitForIdle(): this {
    return this.pkt('CP_WAIT_FOR_IDLE');
  }

  waitForMe(): this {
    return this.pkt('CP_WAIT_FOR_ME');
  }

  regToMem(reg: number | string, addr: number, cnt = 1, opts: { b64?: boolean; accumulate?: boolean } = {}): this {
    const r = this.regOffset(reg);
    const d0 = (r | ((cnt & 0xfff) << 18) | (opts.b64 ? 1 << 30 : 0) | (opts.accumulate ? 1 << 31 : 0)) >>> 0;
    return this.pkt('CP_REG_TO_MEM', [d0, lo32(addr), hi32(addr)]);
  }

  memToReg(reg: number | string, addr: number, cnt = 1, shiftBy2 = false): this {
    const r = this.regOffset(reg);
    return this.pkt('CP_MEM_TO_REG', [(r | ((cnt & 0x7ff) << 19) | (shiftBy2 ? 1 << 30 : 0)) >>> 0, lo32(addr), hi32(addr)]);
  }

  /** dst = ((dst & src0) rot rotate) (+ or |) src1 */
  regRmw(reg: number | string, and: number, or: number, opts: { add?: boolean; rotate?: number } = {}): this {
    const r = this.regOffset(reg);
    return this.pkt('CP_REG_RMW', [(r | ((opts.rotate ?? 0) << 24) | (opts.add ? 1 << 29 : 0)) >>> 0, and, or]);
  }

  memToMem(dst: number, srcs: readonly number[], opts: { double?: boolean; negA?: boolean; negB?: boolean; negC?: boolean } = {}): this {
    const d0 = ((opts.negA ? 1 : 0) | (opts.negB ? 2 : 0) | (opts.negC ? 4 : 0) | (opts.double ? 1 << 29 : 0)) >>> 0;
    const p = [d0, lo32(dst), hi32(dst)];
    for (const s of srcs) p.push(lo32(s), hi32(s));
    return this.pkt('CP_MEM_TO_MEM', p);
  }

  memcpy(dst: number, src: number, dwords: number): this {
    return this.pkt('CP_MEMCPY', [dwords, lo32(src), hi32(src), lo32(dst), hi32(dst)]);
  }

  /** Compare functions: cp_cond_function names (WRITE_ALWAYS, WRITE_LT, WRITE_LE, WRITE_EQ, WRITE_NE, WRITE_GE, WRITE_GT). */
  condWrite5(fn: string, pollAddr: number, ref: number, mask: number, writeAddr: number, writeData: number, pollRegister = false): this {
    const f = enumValue('cp_cond_function', fn, this.gen);
    if (f === undefined) throw new Error(`no compare function ${fn}`);
    const d0 = (f | ((pollRegister ? 0 : 1) << 4) | (1 << 8)) >>> 0;
    return this.pkt('CP_COND_WRITE5', [d0, lo32(pollAddr), hi32(pollAddr), ref, mask, lo32(writeAddr), hi32(writeAddr), writeData]);
  }

  waitRegMem(fn: string, pollAddr: number, ref: number, mask: number, pollRegister = false, delay = 16): this {
    const f = enumValue('cp_cond_function', fn, this.gen);
    if (f === undefined) throw new Error(`no compare function ${fn}`);
    return this.pkt('CP_WAIT_REG_MEM', [(f | ((pollRegister ? 0 : 1) << 4)) >>> 0, lo32(pollAddr), hi32(pollAddr), ref, mask, delay]);
  }

  /** CP_COND_EXEC: run the next `dwords` dwords if *addr0 != 0 and *addr1 < ref. */
  condExec(addr0: number, addr1: number, ref: number, dwords: number): this {
    return this.pkt('CP_COND_EXEC', [lo32(addr0), hi32(addr0), lo32(addr1), hi32(addr1), ref, dwords]);
  }

  regTest(reg: number | string, bit: number): this {
    return this.pkt('CP_REG_TEST', [(this.regOffset(reg) | ((bit & 31) << 20)) >>> 0]);
  }

  /** CP_COND_REG_EXEC in PRED_TEST mode (after CP_REG_TEST) or RENDER_MODE mode. */
  condRegExecPred(dwords: number): this {
    return this.pkt('CP_COND_REG_EXEC', [(1 << 28) >>> 0, dwords]);
  }

  condRegExecRenderMode(modes: readonly ('GMEM' | 'SYSMEM' | 'BINNING')[], dwords: number): this {
    const d0 = ((3 << 28) | (modes.includes('BINNING') ? 1 << 25 : 0) | (modes.includes('GMEM') ? 1 << 26 : 0) | (modes.includes('SYSMEM') ? 1 << 27 : 0)) >>> 0;
    return this.pkt('CP_COND_REG_EXEC', [d0, dwords]);
  }

  condRegExecCompare(reg0: number | string, reg1: number | string, dwords: number): this {
    return this.pkt('CP_COND_REG_EXEC', [((2 << 28) | this.regOffset(reg0)) >>> 0, this.regOffset(reg1), dwords]);
  }

  /** CP_REG_TEST with the gen3+/a7xx fields: the predicate bit to set, a7xx scratch-memory source. */
  regTestEx(regOrScratchOffset: number | string, bit: number, opts: { predBit?: number; skipWaitForMe?: boolean; scratchMem?: boolean } = {}): this {
    const d0 = encodeFields('CP_REG_TEST.0', { REG: opts.scratchMem ? 0 : this.regOffset(regOrScratchOffset), BIT: bit, PRED_BIT: opts.predBit ?? 0, SKIP_WAIT_FOR_ME: !!opts.skipWaitForMe }, this.gen);
    const src = opts.scratchMem ? ((Number(regOrScratchOffset) & 0x3ffff) | (1 << 18)) >>> 0 : 0;
    return this.pkt('CP_REG_TEST', [(d0 | src) >>> 0]);
  }

  /** CP_REG_TEST PRED_UPDATE: PRED_REG = (PRED_REG & ~mask) | (val & mask). */
  regTestPredUpdate(mask: number, val: number): this {
    return this.pkt('CP_REG_TEST', [encodeFields('CP_REG_TEST.0', { PRED_UPDATE: true }, this.gen), mask, val]);
  }

  /** CP_COND_REG_EXEC PRED_TEST on a given predicate bit. */
  condRegExecPredBit(predBit: number, dwords: number): this {
    return this.pkt('CP_COND_REG_EXEC', [encodeFields('CP_COND_REG_EXEC.0', { MODE: 'PRED_TEST', PRED_BIT: predBit }, this.gen), dwords]);
  }

  /** a7xx CP_COND_REG_EXEC REG_COMPARE_IMM: run the next `dwords` if REG0 == imm. */
  condRegExecCompareImm(reg: number | string, imm: number, dwords: number, onchip = false): this {
    return this.pkt('CP_COND_REG_EXEC', [(encodeFields('CP_COND_REG_EXEC.0', { MODE: 'REG_COMPARE_IMM', ONCHIP_MEM: onchip }, this.gen) | (typeof reg === 'number' && onchip ? reg : this.regOffset(reg))) >>> 0, imm, dwords]);
  }

  /** a7xx CP_COND_REG_EXEC THREAD_MODE: run the next `dwords` on the named threads. */
  condRegExecThread(threads: readonly ('BR' | 'BV' | 'LPAC')[], dwords: number): this {
    const d0 = encodeFields('CP_COND_REG_EXEC.0', { MODE: 'THREAD_MODE', BV: threads.includes('BV'), BR: threads.includes('BR'), LPAC: threads.includes('LPAC') }, this.gen);
    return this.pkt('CP_COND_REG_EXEC', [d0, dwords]);
  }

  /** a7xx CP_THREAD_CONTROL: the following packets are for BR, BV or both. */
  threadControl(thread: 'BR' | 'BV' | 'BOTH', opts: { concurrentBinDisable?: boolean; syncThreads?: boolean } = {}): this {
    return this.pkt('CP_THREAD_CONTROL', [encodeFields('CP_THREAD_CONTROL.0', { THREAD: `CP_SET_THREAD_${thread}`, CONCURRENT_BIN_DISABLE: !!opts.concurrentBinDisable, SYNC_THREADS: !!opts.syncThreads }, this.gen)]);
  }

  /** a7xx CP_EVENT_WRITE7: an event, optionally writing user data, a timestamp or registers to memory or on-chip memory. */
  event7(name: string, opts: { src?: 'EV_WRITE_USER_32B' | 'EV_WRITE_USER_64B' | 'EV_WRITE_TIMESTAMP_SUM' | 'EV_WRITE_ALWAYSON' | 'EV_WRITE_REGS_CONTENT'; addr?: number; onchip?: number; payload?: readonly number[]; incBv?: boolean; incBr?: boolean } = {}): this {
    const ev = enumValue('vgt_event_type', name, this.gen);
    if (ev === undefined) throw new Error(`no event ${name} on ${this.gen}`);
    const write = opts.addr !== undefined || opts.onchip !== undefined;
    const d0 = encodeFields('CP_EVENT_WRITE7.0', { EVENT: ev, INC_BV_COUNT: !!opts.incBv, INC_BR_COUNT: !!opts.incBr, WRITE_SRC: opts.src ?? 'EV_WRITE_USER_32B', WRITE_DST: opts.onchip !== undefined ? 'EV_DST_ONCHIP' : 'EV_DST_RAM', WRITE_ENABLED: write }, this.gen);
    if (!write) return this.pkt('CP_EVENT_WRITE7', [d0]);
    const a = opts.onchip !== undefined ? [opts.onchip, 0] : [lo32(opts.addr!), hi32(opts.addr!)];
    return this.pkt('CP_EVENT_WRITE7', [d0, ...a, ...(opts.payload ?? [])]);
  }

  /** a7xx CP_MODIFY_TIMESTAMP. */
  modifyTimestamp(op: 'MODIFY_TIMESTAMP_CLEAR' | 'MODIFY_TIMESTAMP_ADD_GLOBAL' | 'MODIFY_TIMESTAMP_ADD_LOCAL', add = 0): this {
    return this.pkt('CP_MODIFY_TIMESTAMP', [encodeFields('CP_MODIFY_TIMESTAMP.0', { ADD: add, OP: op }, this.gen)]);
  }

  /** a7xx CP_WAIT_TIMESTAMP on a memory address (or on-chip dword with `onchip`). */
  waitTimestamp(src: 'TS_WAIT_GE_32B' | 'TS_WAIT_GE_64B' | 'TS_WAIT_GE_TIMESTAMP_SUM', addr: number, ref0: number, ref1 = 0, onchip = false): this {
    const d0 = encodeFields('CP_WAIT_TIMESTAMP.0', { WAIT_VALUE_SRC: src, WAIT_DST: onchip ? 'TS_WAIT_ONCHIP' : 'TS_WAIT_RAM' }, this.gen);
    return this.pkt('CP_WAIT_TIMESTAMP', [d0, onchip ? addr : lo32(addr), onchip ? 0 : hi32(addr), ref0, ref1]);
  }

  /** a7xx CP_MEM_TO_SCRATCH_MEM: `cnt` dwords from memory into the CP scratch memory at `offset`. */
  memToScratchMem(src: number, offset: number, cnt: number): this {
    return this.pkt('CP_MEM_TO_SCRATCH_MEM', [cnt & 0x3f, offset & 0x3f, lo32(src), hi32(src)]);
  }

  /** a7xx CP_BV_BR_COUNT_OPS. */
  bvBrCountOps(op: 'PIPE_CLEAR_BV_BR' | 'PIPE_SET_BR_OFFSET' | 'PIPE_BR_WAIT_FOR_BV' | 'PIPE_BV_WAIT_FOR_BR', brOffset = 0): this {
    return this.pkt('CP_BV_BR_COUNT_OPS', [encodeFields('CP_BV_BR_COUNT_OPS.0', { OP: op }, this.gen), brOffset & 0xffff]);
  }

  /** a7xx CP_RESET_CONTEXT_STATE. */
  resetContextState(opts: { onChipTs?: boolean; resourceTable?: boolean; globalLocalTs?: boolean }): this {
    return this.pkt('CP_RESET_CONTEXT_STATE', [encodeFields('CP_RESET_CONTEXT_STATE.0', { CLEAR_ON_CHIP_TS: !!opts.onChipTs, CLEAR_RESOURCE_TABLE: !!opts.resourceTable, CLEAR_GLOBAL_LOCAL_TS: !!opts.globalLocalTs }, this.gen)]);
  }

  /** a7xx CP_FIXED_STRIDE_DRAW_TABLE: `count` buffers of `stride` dwords at `base`. */
  fixedStrideDrawTable(base: number, stride: number, count: number): this {
    return this.pkt('CP_FIXED_STRIDE_DRAW_TABLE', [lo32(base), hi32(base), encodeFields('CP_FIXED_STRIDE_DRAW_TABLE.2', { IB_SIZE: (stride * count) & 0xfff, STRIDE: stride }, this.gen), count]);
  }

  /** CP_START_BIN (a650+): `bins` iterations of a per-bin prefix and the body that follows, closed by CP_END_BIN. */
  startBin(bins: number, prefixAddr: number, prefixDwords: number, body: CmdStream): this {
    this.pkt('CP_START_BIN', [bins, lo32(prefixAddr), hi32(prefixAddr), prefixDwords, body.length]);
    this.raw(...body.dwords());
    return this.pkt('CP_END_BIN');
  }

  /** CP_CONTEXT_REG_BUNCH (register, value) pairs; CP_CONTEXT_REG_BUNCH2 (a7xx) after two leading dwords. */
  contextRegBunch(pairs: readonly [number | string, number][], bunch2?: readonly [number, number]): this {
    const p: number[] = bunch2 ? [bunch2[0], bunch2[1]] : [];
    for (const [r, v] of pairs) p.push(this.regOffset(r), v);
    return this.pkt(bunch2 ? 'CP_CONTEXT_REG_BUNCH2' : 'CP_CONTEXT_REG_BUNCH', p);
  }

  regToScratch(reg: number | string, scratch: number, cnt: number): this {
    return this.pkt('CP_REG_TO_SCRATCH', [(this.regOffset(reg) | ((scratch & 7) << 20) | (((cnt - 1) & 7) << 24)) >>> 0]);
  }

  scratchToReg(reg: number | string, scratch: number, cnt: number): this {
    return this.pkt('CP_SCRATCH_TO_REG', [(this.regOffset(reg) | ((scratch & 7) << 20) | (((cnt - 1) & 7) << 24)) >>> 0]);
  }

  drawPredEnableGlobal(on: boolean): this {
    return this.pkt('CP_DRAW_PRED_ENABLE_GLOBAL', [on ? 1 : 0]);
  }

  drawPredEnableLocal(on: boolean): this {
    return this.pkt('CP_DRAW_PRED_ENABLE_LOCAL', [on ? 1 : 0]);
  }

  /** CP_DRAW_PRED_SET from memory: predicate = (*addr == 0) for EQ_0_PASS, != 0 for NE_0_PASS. */
  drawPredSet(addr: number, test: 'NE_0_PASS' | 'EQ_0_PASS'): this {
    return this.pkt('CP_DRAW_PRED_SET', [((5 << 4) | (test === 'EQ_0_PASS' ? 1 << 8 : 0)) >>> 0, lo32(addr), hi32(addr)]);
  }

  skipIb2EnableGlobal(on: boolean): this {
    return this.pkt('CP_SKIP_IB2_ENABLE_GLOBAL', [on ? 1 : 0]);
  }

  skipIb2EnableLocal(on: boolean): this {
    return this.pkt('CP_SKIP_IB2_ENABLE_LOCAL', [on ? 1 : 0]);
  }

  /** CP_DRAW_INDX_OFFSET, auto-index form: primitive type name (pc_di_primtype), vertex count. */
  drawAuto(prim: string, numIndices: number, numInstances = 1): this {
    const p = enumValue('pc_di_primtype', prim, this.gen);
    if (p === undefined) throw new Error(`no primitive type ${prim}`);
    // dword0: PRIM_TYPE [0:5], SOURCE_SELECT [6:7] = DI_SRC_SEL_AUTO_INDEX (2)
    return this.pkt('CP_DRAW_INDX_OFFSET', [(p | (2 << 6)) >>> 0, numInstances, numIndices]);
  }

  execCs(x: number, y: number, z: number): this {
    return this.pkt('CP_EXEC_CS', [0, x, y, z]);
  }
}

/** Bump allocator of GPU addresses for streams and buffers built in tests and examples. */
export class Layout {
  private next: number;
  readonly buffers: { iova: number; data: Uint8Array; label: string }[] = [];
  constructor(base = 0x1_0000_0000) {
    this.next = base;
  }
  /** Place `data` (bytes or dwords) at the next 4 KiB-aligned address. */
  place(data: Uint8Array | Uint32Array | CmdStream, label = ''): { iova: number; sizeDwords: number } {
    const bytes = data instanceof CmdStream ? data.bytes() : data instanceof Uint32Array ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data;
    const iova = this.next;
    this.buffers.push({ iova, data: bytes.slice(), label });
    this.next += Math.ceil(Math.max(bytes.length, 1) / 0x1000) * 0x1000 + 0x1000;
    return { iova, sizeDwords: bytes.length >>> 2 };
  }
  /** Reserve zeroed space. */
  reserve(size: number, label = ''): number {
    return this.place(new Uint8Array(size), label).iova;
  }
}
