/**
 * Crash analysis: the kernel's one-line GPU fault message and msm devcoredumps. Estimates the
 * packet being executed in IB1/IB2 from the IB base and remaining-size registers (corrected by
 * the ROQ prefetch where the dump has it), decodes RBBM_STATUS and the CP interrupt/protect
 * status bit by bit, and reports the fence numbers.
 */
import { readFileSync } from 'node:fs';
import { EXIT_FINDING, EXIT_OK, InputError, UsageError } from '../core/errors.js';
import { Memory } from '../core/memory.js';
import { parseDevcoredump, writeDevcoredump, type DevCoreDump, type DumpBo } from '../formats/devcoredump.js';
import { maybeGunzip } from '../formats/rd.js';
import { bitsetFields, formatValue, genFromGpuId, gpuRegs, type Gen } from './regs/db.js';
import type { CommandProcessor } from './cp/cp.js';
import { Walker, type PacketRecord } from './cp/walker.js';
import { packetText } from './cp/printer.js';
import { crashdec } from './crash/crashdec.js';
import { crashHints, dumpMemory } from './crash/locate.js';

export { dumpMemory };

export interface FaultLine {
  readonly ring: number;
  readonly fence: number;
  readonly status: number;
  readonly rptr: number;
  readonly wptr: number;
  readonly ib1Base: number;
  readonly ib1Rem: number;
  readonly ib2Base: number;
  readonly ib2Rem: number;
}

const FAULT_RE = /gpu fault ring (\d+) fence ([0-9a-fA-F]+) status ([0-9a-fA-F]+) rb ([0-9a-fA-F]+)\/([0-9a-fA-F]+) ib1 ([0-9a-fA-F]+)\/([0-9a-fA-F]+) ib2 ([0-9a-fA-F]+)\/([0-9a-fA-F]+)/;

/** Parse `gpu fault ring 0 fence 36b0 status 00800005 rb 04f0/0560 ib1 0000000113403000/0002 ib2 ...`. */
export function parseFaultLine(line: string): FaultLine {
  const m = FAULT_RE.exec(line);
  if (!m) throw new InputError(`not a GPU fault line (expected "gpu fault ring N fence F status S rb R/W ib1 A/N ib2 A/N")`);
  const h = (i: number): number => parseInt(m[i]!, 16);
  return { ring: parseInt(m[1]!, 10), fence: h(2), status: h(3), rptr: h(4), wptr: h(5), ib1Base: h(6), ib1Rem: h(7), ib2Base: h(8), ib2Rem: h(9) };
}

/** Names of the set bits of a register value through its bitset. */
export function setBits(type: string, v: number, gen: Gen): string[] {
  return (bitsetFields(type, gen) ?? []).filter((f) => f[1] === f[2] && (v >>> f[1]) & 1).map((f) => f[0]);
}

export function faultLineReport(f: FaultLine, gen: Gen = 'a6xx'): string[] {
  const regs = gpuRegs(gen);
  const st = regs.at(regs.reg('RBBM_STATUS'))!;
  return [
    `ring ${f.ring}, fence 0x${f.fence.toString(16)} (the last job submitted to this ring)`,
    `RBBM_STATUS 0x${f.status.toString(16).padStart(8, '0')}: ${setBits(st.type, f.status, gen).join(' ') || '(idle)'}`,
    `ring buffer: CP_RB_RPTR 0x${f.rptr.toString(16)} / CP_RB_WPTR 0x${f.wptr.toString(16)}${f.rptr === f.wptr ? ' (ring drained)' : ` (${(f.wptr - f.rptr) & 0xffff} dwords not yet consumed)`}`,
    `IB1 (CP_IB1_BASE) 0x${f.ib1Base.toString(16)}, ${f.ib1Rem} dwords remaining (CP_IB1_REM_SIZE)`,
    `IB2 (CP_IB2_BASE) 0x${f.ib2Base.toString(16)}, ${f.ib2Rem} dwords remaining (CP_IB2_REM_SIZE)`,
    f.ib2Rem ? 'the CP was inside IB2 when it faulted' : f.ib1Rem ? 'the CP was inside IB1 (IB2 idle)' : 'IB1 fully fetched: the fault is in the ring buffer or the last packets of IB1',
  ];
}

export interface CrashLocation {
  readonly level: 1 | 2;
  readonly base: number;
  readonly sizeDwords: number;
  /** Dword offset of the estimated position (size - remaining - prefetched). */
  readonly pos: number;
  readonly packet?: PacketRecord;
}

function regVal(d: DevCoreDump, regs: ReturnType<typeof gpuRegs>, name: string): number | undefined {
  const o = regs.offsetOf(name);
  return o === undefined ? undefined : d.registers.get(o);
}

/** Find the size of an IB called at `base` by scanning the callers (ring buffers, then IB1). */
function ibSize(mem: Memory, gen: Gen, callers: { iova: number; size: number; level: number }[], base: number): number | undefined {
  let found: number | undefined;
  for (const c of callers) {
    const w = new Walker(mem, gen, {
      packet(p) {
        if ((p.name === 'CP_INDIRECT_BUFFER' || p.name === 'CP_INDIRECT_BUFFER_PFE' || p.name === 'CP_INDIRECT_BUFFER_CHAIN') && p.payload.length >= 3) {
          const a = p.payload[1]! * 2 ** 32 + p.payload[0]!;
          if (a === base) found = p.payload[2]! & 0xfffff;
        }
      },
    }, { follow: false, maxPackets: 1_000_000 });
    w.walk(c.iova, c.size, c.level);
    if (found !== undefined) return found;
  }
  return undefined;
}

function locate(mem: Memory, gen: Gen, level: 1 | 2, base: number, size: number, rem: number): CrashLocation {
  const pos = Math.max(0, size - rem);
  let hit: PacketRecord | undefined;
  let last: PacketRecord | undefined;
  new Walker(mem, gen, {
    packet(p) {
      if (p.offset <= pos && pos < p.offset + 1 + Math.max(p.count, 0)) hit = p;
      if (p.offset < pos) last = p;
    },
  }, { follow: false }).walk(base, size, level);
  const packet = hit ?? last;
  return { level, base, sizeDwords: size, pos, ...(packet ? { packet } : {}) };
}

export interface CrashReport {
  readonly gen: Gen;
  readonly lines: string[];
  readonly locations: CrashLocation[];
}

/** Analyse a parsed devcoredump. */
export function analyseDump(d: DevCoreDump, forceGen?: Gen): CrashReport {
  const rev = d.header['revision'] ?? '';
  const gen = forceGen ?? genFromGpuId(parseInt(rev, 10)) ?? 'a6xx';
  const regs = gpuRegs(gen);
  const lines: string[] = [];
  lines.push(`gpu: ${rev || 'unknown revision'} -> ${gen}${d.header['comm'] ? `, process ${d.header['comm']}` : ''}${d.header['cmdline'] ? ` (${d.header['cmdline']})` : ''}`);
  // The register dump is read at the hang; the header's rbbm-status may be read after recovery started.
  const status = regVal(d, regs, 'RBBM_STATUS') ?? (d.header['rbbm-status'] !== undefined ? parseInt(d.header['rbbm-status'], 16) : undefined);
  if (status !== undefined) {
    const st = regs.at(regs.reg('RBBM_STATUS'))!;
    lines.push(`RBBM_STATUS 0x${(status >>> 0).toString(16).padStart(8, '0')}: ${setBits(st.type, status, gen).join(' ') || '(idle)'}`);
  }
  for (const r of d.rings) {
    lines.push(`ring ${r.id}: last fence ${r.lastFence}, retired ${r.retiredFence}${r.lastFence !== r.retiredFence ? ` -> the hung job is fence ${r.retiredFence + 1}` : ''}; rptr 0x${r.rptr.toString(16)} wptr 0x${r.wptr.toString(16)}`);
  }
  for (const n of ['CP_INTERRUPT_STATUS', 'RBBM_INT_0_STATUS', 'CP_PROTECT_STATUS', 'CP_HW_FAULT']) {
    const v = regVal(d, regs, n);
    if (v === undefined || v === 0) continue;
    const info = regs.at(regs.reg(n))!;
    const bits = setBits(info.type, v, gen);
    lines.push(`${n} 0x${v.toString(16).padStart(8, '0')}${bits.length ? ': ' + bits.join(' ') : ''}${n === 'CP_PROTECT_STATUS' ? ` (register ${regs.nameOf(v & 0x3ffff)})` : ''}`);
  }
  for (const f of d.faultInfo) lines.push(`fault: ${f}`);
  const fiova = d.faultInfo.map((f) => /iova=(?:0x)?([0-9a-fA-F]+)/.exec(f)).find((m) => m);
  if (fiova) {
    const a = parseInt(fiova[1]!, 16);
    const bo = [...d.bos, ...d.rings.map((r) => ({ iova: r.iova, size: r.size, name: `ring ${r.id}` }))].find((b) => a >= b.iova && a < b.iova + Math.max(b.size, 1));
    lines.push(bo ? `fault iova 0x${a.toString(16)} is inside ${bo.name || 'a bo'} (0x${bo.iova.toString(16)} + 0x${(a - bo.iova).toString(16)})` : `fault iova 0x${a.toString(16)} is in none of the captured buffers`);
  }
  for (const [name, byCtx] of d.clusters) {
    lines.push(`cluster ${name}: ${[...byCtx].map(([c, m]) => `context ${c} ${m.size} registers`).join(', ')}`);
  }
  // Older kernels name it CP_SEQ_STAT.
  const sqe = d.indexed.get('CP_SQE_STAT') ?? d.indexed.get('CP_SEQ_STAT');
  if (sqe && sqe.length) lines.push(`CP_SQE_STAT: ${sqe.length} dwords, SQE PC 0x${sqe[0]!.toString(16).padStart(4, '0')}${sqe.length > 1 ? `, $01 0x${sqe[1]!.toString(16)}` : ''}`);
  const mempool = d.indexed.get('CP_MEMPOOL');
  if (mempool) lines.push(`CP_MEMPOOL: ${mempool.length} dwords captured`);

  const mem = dumpMemory(d);
  const locations: CrashLocation[] = [];
  const hints = crashHints(d, gen);
  const ib1 = hints.ibs[1]!.base;
  const ib1Rem = hints.ibs[1]!.rem;
  const ib2 = hints.ibs[2]!.base;
  const ib2Rem = hints.ibs[2]!.rem;
  for (const [i, name] of [[1, 'IB1'], [2, 'IB2']] as const) {
    if (hints.ibs[i]!.crashFound && hints.ibs[i]!.base !== hints.regBase[i - 1]) {
      lines.push(`prefetch: CP_${name}_BASE 0x${hints.regBase[i - 1].toString(16)} is an IB the ROQ fetched ahead; the SQE was in 0x${hints.ibs[i]!.base.toString(16)} with ${hints.ibs[i]!.rem} dwords left`);
    }
  }
  const rings = d.rings.filter((r) => r.iova).map((r) => ({ iova: r.iova, size: Math.min(r.size ? r.size / 4 : r.data.length, r.data.length || r.size / 4), level: 0 }));
  if (ib1) {
    const size1 = ibSize(mem, gen, rings, ib1);
    if (size1 === undefined) lines.push(`IB1 0x${ib1.toString(16)}: no CP_INDIRECT_BUFFER to it in the captured ring buffers; ${ib1Rem} dwords remained`);
    else {
      const loc = locate(mem, gen, 1, ib1, size1, ib1Rem);
      locations.push(loc);
      if (ib2 && (ib2Rem || loc.packet?.name === 'CP_INDIRECT_BUFFER')) {
        const size2 = ibSize(mem, gen, [{ iova: ib1, size: size1, level: 1 }], ib2);
        if (size2 !== undefined) locations.push(locate(mem, gen, 2, ib2, size2, ib2Rem));
        else lines.push(`IB2 0x${ib2.toString(16)}: not called from the captured IB1; ${ib2Rem} dwords remained`);
      }
    }
  } else lines.push('no CP_IB1_BASE in the dump: the CP was executing the ring buffer');
  for (const loc of locations) {
    const roq = hints.roq[loc.level - 1];
    lines.push(`estimated crash location: IB${loc.level} 0x${loc.base.toString(16)} dword ${loc.pos} of ${loc.sizeDwords}${roq ? ` (${roq} dwords the ROQ fetched ahead of the SQE counted back)` : ''}`);
    if (loc.packet) {
      lines.push(`--> packet at 0x${loc.packet.iova.toString(16)}:`);
      for (const l of packetText(loc.packet, gen)) lines.push('    ' + l);
    } else lines.push('    (IB contents not captured)');
  }
  return { gen, lines, locations };
}

/** A devcoredump of the simulated CP's current state (ring, the mapped buffers, registers). */
export function cpDevcoredump(cp: CommandProcessor, ring: { iova: number; sizeDwords: number }, fence: { last: number; retired: number }, comm = 'gpusim'): string {
  cp.syncCounters();
  const regs = new Map<number, number>();
  for (const r of cp.regsDb.entries()) {
    if (r.offset >= 0x8000 && r.offset < 0xc000) continue;
    const v = cp.regs[r.offset];
    if (v === undefined) continue;
    regs.set(r.offset, v);
    if (r.width === 64) regs.set(r.offset + 1, cp.regs[r.offset + 1]!);
  }
  const seg = (iova: number): Uint32Array => {
    const s = cp.mem.find(iova, 4);
    if (!s) return new Uint32Array(0);
    return new Uint32Array(s.u8.slice(0, s.size - (s.size % 4)).buffer);
  };
  const bos: DumpBo[] = cp.mem.segments.filter((s) => s.base !== ring.iova).map((s) => ({ iova: s.base, size: s.size, name: s.label, data: seg(s.base) }));
  const revNum = cp.gen === 'a7xx' ? 730 : 630;
  return writeDevcoredump({
    header: {
      kernel: 'gpusim',
      module: 'msm',
      comm,
      revision: `${revNum} (${String(revNum)[0]}.${String(revNum)[1]}.${String(revNum)[2]}.0)`,
      'rbbm-status': '0x' + cp.regs[cp.regsDb.reg('RBBM_STATUS')]!.toString(16).padStart(8, '0'),
    },
    rings: [{ id: 0, iova: ring.iova, lastFence: fence.last, retiredFence: fence.retired, rptr: cp.regs[cp.regsDb.reg('CP_RB_RPTR')]!, wptr: cp.regs[cp.regsDb.reg('CP_RB_WPTR')]!, size: ring.sizeDwords * 4, data: seg(ring.iova) }],
    bos,
    registers: regs,
  });
}

export function crashCommand(values: Record<string, unknown>, rest: string[], out: (l: string) => void): number {
  const gen = values['gen'] as Gen | undefined;
  const fl = values['fault-line'];
  if (typeof fl === 'string') {
    for (const l of faultLineReport(parseFaultLine(fl), gen ?? 'a6xx')) out(l);
    return EXIT_OK;
  }
  const file = rest[0] ?? (typeof values['file'] === 'string' ? values['file'] : undefined);
  if (!file) throw new UsageError('adreno crash: give a devcoredump file or --fault-line "gpu fault ring ..."');
  const format = values['format'];
  if (format !== undefined && format !== 'crashdec' && format !== 'text') throw new UsageError(`adreno crash: --format must be crashdec or text, got '${String(format)}'`);
  const bytes = maybeGunzip(new Uint8Array(readFileSync(file)), file);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (format === 'crashdec') {
    const r = crashdec(text, { summary: !!values['summary'], verbose: !!values['verbose'] });
    for (const l of r.lines) out(l);
    if (r.error) throw new InputError(r.error, file);
    return EXIT_OK;
  }
  // A kernel log with the one-line message is accepted too.
  const dump = (() => {
    try {
      return parseDevcoredump(text, file);
    } catch (e) {
      const m = FAULT_RE.exec(text);
      if (m) return undefined;
      throw e;
    }
  })();
  if (!dump) {
    for (const l of faultLineReport(parseFaultLine(text), gen ?? 'a6xx')) out(l);
    return EXIT_OK;
  }
  const rep = analyseDump(dump, gen);
  for (const l of rep.lines) out(l);
  return rep.locations.length ? EXIT_FINDING : EXIT_OK;
}

export { formatValue };
