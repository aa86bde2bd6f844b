/**
 * Decoding of whole captures: `.rd`/`.rd.gz` traces (every submit, command stream, IB, packet and
 * register write) and raw builder streams. Used by `gpusim adreno decode` and the benchmark.
 */
import { Memory } from '../core/memory.js';
import { InputError } from '../core/errors.js';
import { parseRd, RD, RD_NAMES, type RdFile } from '../formats/rd.js';
import { enumName, genFromChipId, genFromGpuId, gpuRegs, type Gen } from './regs/db.js';
import { Walker, type PacketRecord, type Problem, type IbInfo } from './cp/walker.js';
import { packetJson, packetText } from './cp/printer.js';

export interface DecodeOptions {
  /** Force the generation (else from RD_GPU_ID / RD_CHIP_ID; a6xx when unknown). */
  readonly gen?: Gen;
  /** Only this submit (0-based). */
  readonly submit?: number;
  readonly json?: boolean;
  /** Only collect the summary (no per-packet output). */
  readonly quiet?: boolean;
  /** Output sink, one string per line (no newline). */
  readonly out: (line: string) => void;
}

export interface DecodeSummary {
  gen: Gen;
  submits: number;
  packets: number;
  problems: Problem[];
  warnings: string[];
  /** Analysis: packets by name, register writes by register name, packets by IB kind. */
  byName: Map<string, number>;
  byReg: Map<string, number>;
  byKind: Map<string, number>;
}

function newSummary(gen: Gen, warnings: string[] = []): DecodeSummary {
  return { gen, submits: 0, packets: 0, problems: [], warnings, byName: new Map(), byReg: new Map(), byKind: new Map() };
}

const bump = (m: Map<string, number>, k: string, n = 1): void => void m.set(k, (m.get(k) ?? 0) + n);

/** The analysis view: packet and register-write histograms. */
export function summaryLines(s: DecodeSummary, top = 20): string[] {
  const sorted = (m: Map<string, number>): [string, number][] => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const out = [`${s.gen}: ${s.submits} submit(s), ${s.packets} packets, ${s.problems.length} problem(s)`, 'packets by buffer kind:'];
  for (const [k, v] of sorted(s.byKind)) out.push(`  ${String(v).padStart(8)}  ${k}`);
  out.push('packets:');
  for (const [k, v] of sorted(s.byName).slice(0, top)) out.push(`  ${String(v).padStart(8)}  ${k}`);
  out.push(`registers written (top ${top} of ${s.byReg.size}):`);
  for (const [k, v] of sorted(s.byReg).slice(0, top)) out.push(`  ${String(v).padStart(8)}  ${k}`);
  return out;
}

function u32(d: Uint8Array, o: number): number {
  return (d[o]! | (d[o + 1]! << 8) | (d[o + 2]! << 16) | (d[o + 3]! << 24)) >>> 0;
}

/** The generation a trace declares, if any. */
export function traceGen(f: RdFile): Gen | undefined {
  if (f.gpuId) {
    const g = genFromGpuId(f.gpuId);
    if (g) return g;
  }
  if (f.chipId) return genFromChipId(f.chipId[0], f.chipId[1]);
  return undefined;
}

function makeVisitor(gen: Gen, opts: DecodeOptions, sum: DecodeSummary, extra: () => Record<string, unknown>, mem: Memory | undefined) {
  const regs = gpuRegs(gen);
  return {
    packet(p: PacketRecord) {
      sum.packets++;
      bump(sum.byName, p.name);
      bump(sum.byKind, p.kind);
      if (p.type === 4 || p.type === 0) for (let i = 0; i < p.payload.length; i++) bump(sum.byReg, regs.nameOf(p.reg + i));
      if (opts.quiet) return;
      if (opts.json) opts.out(JSON.stringify(packetJson(p, gen, regs, extra())));
      else {
        for (const l of packetText(p, gen, regs)) opts.out(l);
        if (mem && p.type === 4) noteShaders(p, regs, mem, opts.out);
        if (mem && p.type === 7 && p.name.startsWith('CP_LOAD_STATE6')) noteLoadState(p, gen, mem, opts.out);
      }
    },
    enterIb(ib: IbInfo) {
      if (!opts.json && ib.kind !== 'RAW' && ib.level > 0) opts.out(`${'  '.repeat(ib.level)}-- ${ib.kind}${ib.group !== undefined ? ` group ${ib.group}` : ''} level ${ib.level} at 0x${ib.iova.toString(16)} (${ib.sizeDwords} dwords)`);
    },
    problem(p: Problem) {
      sum.problems.push(p);
      if (opts.quiet) return;
      if (opts.json) opts.out(JSON.stringify({ ...extra(), problem: p.id, message: p.message, level: p.level, iova: '0x' + p.iova.toString(16) }));
      else opts.out(`!! ${p.id}: ${p.message} (level ${p.level}, at 0x${p.iova.toString(16)})`);
    },
  };
}

/** Note shader binaries: registers named *_OBJ_START / *_INSTR_BASE pointing into captured buffers. */
function noteShaders(p: PacketRecord, regs: ReturnType<typeof gpuRegs>, mem: Memory, out: (l: string) => void): void {
  for (let i = 0; i < p.payload.length; i++) {
    const r = regs.at(p.reg + i);
    if (!r || !/(_OBJ_START|_INSTR_BASE|_OBJ_START_LO)$/.test(r.name)) continue;
    const addr = r.width === 64 && i + 1 < p.payload.length ? p.payload[i + 1]! * 2 ** 32 + p.payload[i]! : p.payload[i]!;
    const seg = mem.find(addr, 4);
    out(`        shader: ${r.name} -> 0x${addr.toString(16)}${seg ? ` (in captured buffer of ${seg.end - addr} bytes)` : ' (not captured)'}`);
  }
}

/** Note what a CP_LOAD_STATE6 loads: block, type, source, units, and for indirect loads whether the data was captured. */
function noteLoadState(p: PacketRecord, gen: Gen, mem: Memory, out: (l: string) => void): void {
  if (p.payload.length < 1) return;
  const d0 = p.payload[0]!;
  const block = enumName('a6xx_state_block', (d0 >>> 18) & 0xf, gen) ?? String((d0 >>> 18) & 0xf);
  const type = enumName('a6xx_state_type', (d0 >>> 14) & 3, gen) ?? String((d0 >>> 14) & 3);
  const src = enumName('a6xx_state_src', (d0 >>> 16) & 3, gen) ?? String((d0 >>> 16) & 3);
  const units = (d0 >>> 22) & 0x3ff;
  let where = '';
  if (((d0 >>> 16) & 3) !== 0 && p.payload.length >= 3) {
    const addr = p.payload[2]! * 2 ** 32 + (p.payload[1]! & ~3);
    const seg = mem.find(addr, 4);
    where = ` from 0x${addr.toString(16)}${seg ? ` (captured, ${seg.end - addr} bytes)` : ' (not captured)'}`;
  }
  const shader = type === 'ST6_SHADER' && block.endsWith('_SHADER') ? ' [shader binary]' : '';
  out(`        load-state: ${block} ${type} ${src} ${units} unit(s)${where}${shader}`);
}

/** Decode an .rd / .rd.gz capture. */
export function decodeRd(bytes: Uint8Array, optsIn: DecodeOptions, where = 'trace'): DecodeSummary {
  let opts = optsIn;
  const f = parseRd(bytes, where);
  const gen = opts.gen ?? traceGen(f) ?? 'a6xx';
  const sum = newSummary(gen, [...f.warnings]);
  const out0 = opts.out;
  opts = { ...opts, out: opts.quiet ? () => {} : out0 };
  const mem = new Memory();
  let submit = -1;
  let lastWasStream = false;
  let pendingAddr: { iova: number; size: number } | undefined;
  let stream = 0;
  if (!opts.json) {
    opts.out(`rd: ${f.sections.length} sections, ${f.buffers.length} buffers, ${f.submits.length} submits`);
    opts.out(`gpu: ${f.gpuId !== undefined ? `a${f.gpuId}` : 'unknown'}${f.chipId ? ` chip-id 0x${(f.chipId[1] * 2 ** 32 + f.chipId[0]).toString(16)}` : ''} -> ${gen}${opts.gen ? ' (forced)' : ''}`);
  }
  for (const s of f.sections) {
    const d = s.data;
    switch (s.type) {
      case RD.GPUADDR:
        pendingAddr = { iova: (d.length >= 12 ? u32(d, 8) * 2 ** 32 : 0) + (d.length >= 4 ? u32(d, 0) : 0), size: d.length >= 8 ? u32(d, 4) : 0 };
        break;
      case RD.BUFFER_CONTENTS: {
        if (!pendingAddr) break;
        const { iova } = pendingAddr;
        pendingAddr = undefined;
        // A buffer re-captured for a later submit replaces the earlier contents.
        for (const seg of [...mem.segments]) if (seg.base < iova + d.length && iova < seg.end) mem.unmap(seg.base);
        try {
          mem.map(iova, d.length, 'bo', d.slice());
        } catch (e) {
          sum.warnings.push(`buffer at 0x${iova.toString(16)}: ${(e as Error).message}`);
        }
        break;
      }
      case RD.CMDSTREAM_ADDR: {
        if (!lastWasStream) {
          submit++;
          stream = 0;
        }
        const iova = (d.length >= 12 ? u32(d, 8) * 2 ** 32 : 0) + (d.length >= 4 ? u32(d, 0) : 0);
        const size = d.length >= 8 ? u32(d, 4) : 0;
        if (opts.submit !== undefined && submit !== opts.submit) break;
        if (!lastWasStream) sum.submits++;
        const sub = submit;
        const st = stream;
        if (!opts.json) opts.out(`== submit ${sub} cmdstream ${st}: 0x${iova.toString(16)} (${size} dwords)`);
        const w = new Walker(mem, gen, makeVisitor(gen, opts, sum, () => ({ submit: sub, stream: st }), mem));
        w.walk(iova, size, 1, 'IB1');
        stream++;
        break;
      }
      case RD.TEST:
      case RD.CMD: {
        const t = new TextDecoder().decode(d).replace(/\0+$/, '');
        if (opts.json) opts.out(JSON.stringify({ section: s.type === RD.TEST ? 'TEST' : 'CMD', text: t }));
        else opts.out(`-- ${s.type === RD.TEST ? 'test' : 'cmd'}: ${t}`);
        break;
      }
      case RD.PARAM: {
        const v = d.length >= 12 ? { param: u32(d, 0), value: u32(d, 4), bitlen: u32(d, 8) } : { raw: d.length };
        if (opts.json) opts.out(JSON.stringify({ section: 'PARAM', ...v }));
        else opts.out(`-- param: ${JSON.stringify(v)}`);
        break;
      }
      case RD.PROGRAM:
      case RD.VERT_SHADER:
      case RD.FRAG_SHADER:
      case RD.SHADER_LOG_BUFFER:
      case RD.CP_LOG_BUFFER:
      case RD.WRBUFFER: {
        const name = RD_NAMES[s.type]!;
        const extra = s.type === RD.SHADER_LOG_BUFFER || s.type === RD.CP_LOG_BUFFER || s.type === RD.WRBUFFER ? parseAddrNote(d) : `${d.length} bytes`;
        if (opts.json) opts.out(JSON.stringify({ section: name, size: d.length }));
        else opts.out(`-- ${name.toLowerCase().replace(/_/g, ' ')}: ${extra}`);
        break;
      }
      case RD.FLUSH:
        if (!opts.json) opts.out('-- flush');
        break;
      default:
        break;
    }
    lastWasStream = s.type === RD.CMDSTREAM_ADDR;
  }
  for (const w of sum.warnings) opts.out(opts.json ? JSON.stringify({ warning: w }) : `!! warning: ${w}`);
  return sum;
}

function parseAddrNote(d: Uint8Array): string {
  if (d.length < 8) return `${d.length} bytes`;
  const iova = (d.length >= 12 ? u32(d, 8) * 2 ** 32 : 0) + u32(d, 0);
  return `iova 0x${iova.toString(16)}, ${u32(d, 4)} bytes`;
}

/** Decode a raw little-endian dword stream (as the builder writes) sitting at `base`. */
export function decodeRaw(bytes: Uint8Array, gen: Gen, opts: DecodeOptions, base = 0): DecodeSummary {
  if (bytes.length % 4 !== 0) throw new InputError(`raw stream is ${bytes.length} bytes, not a whole number of dwords`);
  const dw = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < dw.length; i++) dw[i] = u32(bytes, i * 4);
  const sum = newSummary(gen);
  sum.submits = 1;
  const mem = new Memory();
  const w = new Walker(mem, gen, makeVisitor(gen, opts, sum, () => ({}), undefined));
  w.walkDwords(dw, base, 1, 'IB1');
  return sum;
}

/** Is this an .rd file (possibly gzipped)? Checks the first section header. */
export function looksLikeRd(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  if (bytes.length < 8) return false;
  const t = u32(bytes, 0);
  const sz = u32(bytes, 4);
  return t >= 1 && t <= 17 && sz <= bytes.length - 8;
}
