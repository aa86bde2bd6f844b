/** `gpusim adreno run <trace>`: execute a capture's submits on the simulated a6xx CP. */
import { readFileSync, writeFileSync } from 'node:fs';
import { TraceEvents } from '../core/trace-events.js';
import { CP_CLOCK, CpTimeline } from './cp/timeline.js';
import { EXIT_FINDING, EXIT_OK, InputError, UsageError } from '../core/errors.js';
import { Diagnostics, StrictStop } from '../core/diagnostics.js';
import { Memory, VA_LIMIT } from '../core/memory.js';
import { parseRd, RD } from '../formats/rd.js';
import { CommandProcessor, type ExecutedPacket, type StopReason } from './cp/cp.js';
import { traceGen } from './decode.js';
import { drawRuns, setDrawLimits } from './cp/handlers-gfx.js';
import { DRAW_LIMIT_OPTIONS, type DrawLimits } from './pc/draw.js';
import { intOption } from '../core/numbers.js';
import { formatValue, gpuRegs } from './regs/db.js';

function u32(d: Uint8Array, o: number): number {
  return (d[o]! | (d[o + 1]! << 8) | (d[o + 2]! << 16) | (d[o + 3]! << 24)) >>> 0;
}

export interface RunResult {
  readonly cp: CommandProcessor;
  readonly diag: Diagnostics;
  readonly stops: StopReason[];
}

/** Execute every submit of an .rd capture (buffers loaded as they appear) on one CP. */
export function runRd(bytes: Uint8Array, opts: { strict?: boolean; trace?: (line: string) => void; thread?: 'BR' | 'BV'; timeline?: TraceEvents; limits?: Partial<DrawLimits>; perfMarks?: boolean } = {}, where = 'trace'): RunResult {
  const f = parseRd(bytes, where);
  const gen = traceGen(f) ?? 'a6xx';
  if (gen !== 'a6xx' && gen !== 'a7xx') throw new InputError(`the executing CP models a6xx/a7xx; this trace is ${gen} (decode works for it)`, where);
  const mem = new Memory();
  const diag = new Diagnostics({ strict: !!opts.strict });
  const trace = opts.trace;
  const regsDb = gpuRegs(gen);
  const packetText = (p: ExecutedPacket): string => p.type === 4 ? `write ${regsDb.nameOf(p.reg)}${p.count > 1 ? ` +${p.count - 1}` : ''}` : p.name;
  const tl = opts.timeline ? new CpTimeline(opts.timeline, 1, `CP (${gen}${opts.thread ? ` ${opts.thread}` : ''})`) : undefined;
  const cp: CommandProcessor = new CommandProcessor(mem, {
    gen,
    diag,
    ...(f.gpuId && gen === (f.gpuId >= 700 ? 'a7xx' : 'a6xx') ? { gpuId: f.gpuId } : {}),
    ...(opts.thread ? { thread: opts.thread } : {}),
    ...(trace || tl
      ? {
          onPacket: (p: ExecutedPacket) => {
            // The CP charged the packet's cycles before this call: it began 1 + count cycles ago.
            tl?.packet(p, packetText(p), cp.cycles - 1 - p.count);
            trace?.(`  ${'  '.repeat(p.level)}${p.iova.toString(16).padStart(12, '0')} ${p.type === 4 ? packetText(p) : `${p.name}${p.count ? ` (${p.count} dwords)` : ''}`}`);
          },
        }
      : {}),
  });
  if (opts.limits) setDrawLimits(cp, opts.limits);
  cp.perf.keepMarks = !!opts.perfMarks;
  const stops: StopReason[] = [];
  let pending: number | undefined;
  for (const s of f.sections) {
    const d = s.data;
    if (s.type === RD.GPUADDR) pending = (d.length >= 12 ? u32(d, 8) * 2 ** 32 : 0) + (d.length >= 4 ? u32(d, 0) : 0);
    else if (s.type === RD.BUFFER_CONTENTS && pending !== undefined) {
      const iova = pending;
      pending = undefined;
      for (const seg of [...mem.segments]) if (seg.base < iova + d.length && iova < seg.end) mem.unmap(seg.base);
      if (iova + d.length > VA_LIMIT) throw new InputError(`buffer at 0x${iova.toString(16)} (${d.length} bytes, section at offset 0x${s.offset.toString(16)}) lies above the 48-bit GPU address space`, where);
      if (d.length) mem.map(iova, d.length, 'bo', d.slice());
    } else if (s.type === RD.CMDSTREAM_ADDR) {
      const iova = (d.length >= 12 ? u32(d, 8) * 2 ** 32 : 0) + (d.length >= 4 ? u32(d, 0) : 0);
      const size = d.length >= 8 ? u32(d, 4) : 0;
      tl?.beginSubmit(cp.cycles);
      try {
        stops.push(cp.run(iova, size, 1));
        tl?.endSubmit(cp.cycles, stops[stops.length - 1]!);
      } catch (e) {
        if (e instanceof StrictStop) {
          stops.push('opcode-error');
          tl?.endSubmit(cp.cycles, 'opcode-error');
          break;
        }
        throw e;
      }
    }
  }
  return { cp, diag, stops };
}

/** --max-vertices, --max-primitives, --max-pixels, --max-instructions, --max-draw-mib (pc/draw.ts DrawLimits). */
export function drawLimitOptions(values: Record<string, unknown>): Partial<DrawLimits> {
  const limits: { -readonly [K in keyof DrawLimits]?: number } = {};
  for (const [k, opt] of Object.entries(DRAW_LIMIT_OPTIONS) as [keyof DrawLimits, string][]) {
    const v = intOption(values[opt.slice(2)], `adreno run: ${opt}`, { min: 1, max: k === 'drawBytes' ? 2 ** 20 : Number.MAX_SAFE_INTEGER });
    if (v !== undefined) limits[k] = k === 'drawBytes' ? v * 2 ** 20 : v;
  }
  return limits;
}

export function runCommand(values: Record<string, unknown>, rest: string[], out: (l: string) => void): number {
  const file = rest[0];
  if (!file) throw new UsageError('adreno run: missing trace file');
  const thread = values['thread'] === undefined ? undefined : String(values['thread']).toUpperCase();
  if (thread !== undefined && thread !== 'BR' && thread !== 'BV') throw new UsageError('--thread must be BR or BV (a7xx concurrent binning)');
  const timeline = values['timeline'] !== undefined ? new TraceEvents() : undefined;
  const limits = drawLimitOptions(values);
  const { cp, diag, stops } = runRd(new Uint8Array(readFileSync(file)), { strict: !!values['strict'], ...(values['trace'] ? { trace: out } : {}), ...(thread ? { thread } : {}), ...(timeline ? { timeline } : {}), limits }, file);
  if (timeline) writeFileSync(String(values['timeline']), timeline.json(CP_CLOCK));
  const regs = gpuRegs(cp.gen);
  if (values['json']) {
    out(JSON.stringify({
      stops,
      packets: cp.packets,
      cycles: cp.cycles,
      diagnostics: diag.list,
      work: cp.work.map((w) => ({ kind: w.kind, packet: w.packet, iova: '0x' + w.iova.toString(16), level: w.level, mode: w.mode, bank: w.bank, killed: w.killed })),
      events: cp.events.map((e) => ({ name: e.name, value: e.value, irq: e.irq })),
      compute: cp.computeRuns.map((c) => ({ iova: '0x' + c.iova.toString(16), groups: c.groups, block: c.block, waveSize: c.waveSize, ran: c.ran, waves: c.waves, instructions: c.instructions, missing: c.missing })),
      draws: drawRuns(cp).map((d) => ({ iova: '0x' + d.iova.toString(16), packet: d.packet, ran: d.ran, missing: d.missing, ...(d.result ? { primitives: d.result.primitives, fragments: d.result.fragments, samplesWritten: d.result.rb.samplesWritten } : {}) })),
    }));
  } else {
    out(`${cp.gen}: ${stops.length} submit(s), ${cp.packets} packets, ${cp.cycles} cycles; stops: ${stops.join(', ') || 'none'}`);
    for (const c of cp.computeRuns) out(`  compute at 0x${c.iova.toString(16)}: ${c.groups.join('x')} groups of ${c.block.join('x')}, wave ${c.waveSize}: ${c.ran ? `ran on the SP (${c.waves} waves, ${c.instructions} wave-instructions)` : `not run, missing: ${c.missing.join('; ')}`}`);
    for (const d of drawRuns(cp)) out(`  draw at 0x${d.iova.toString(16)}: ${d.ran ? `rendered (${d.result!.primitives} primitive(s), ${d.result!.fragments} fragment(s), ${d.result!.rb.samplesWritten} sample(s) written)` : `not run, missing: ${d.missing.join('; ')}`}`);
    for (const w of cp.work) out(`  ${w.kind} ${w.packet} at 0x${w.iova.toString(16)} (level ${w.level}, ${w.mode}, bank ${w.bank}${w.bin >= 0 ? `, bin ${w.bin}` : ''}${w.killed ? ', killed by predicate' : ''})`);
    if (cp.otherThreadPackets) out(`  ${cp.otherThreadPackets} packet(s) left to the other CP thread (CP_THREAD_CONTROL; --thread ${cp.thread === 'BR' ? 'BV' : 'BR'} runs them)`);
    for (const e of cp.events) out(`  event ${e.name}${e.addr !== undefined ? ` -> 0x${e.addr.toString(16)} = 0x${e.value.toString(16)}` : ''}${e.irq ? ' irq' : ''}`);
    for (const d of diag.list) out(`  ${d.severity} ${d.id}: ${d.message} ${JSON.stringify(d.where)}`);
    for (const n of ['RBBM_STATUS', 'CP_INTERRUPT_STATUS', 'RBBM_INT_0_STATUS']) {
      const o = regs.reg(n);
      out(`  ${n}: 0x${cp.regs[o]!.toString(16).padStart(8, '0')} ${formatValue(regs.at(o)!.type, cp.regs[o]!, 0, 32, cp.gen, undefined, regs.at(o))}`);
    }
  }
  return diag.list.some((d) => d.severity !== 'info') || stops.some((s) => s !== 'done') ? EXIT_FINDING : EXIT_OK;
}
