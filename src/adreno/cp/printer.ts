/**
 * Pretty-printing of packets: register writes with names and bitfields, packet payloads through
 * the rules-ng packet domains (CP_SET_DRAW_STATE, CP_EVENT_WRITE, ...), text or JSON records.
 */
import { DOMAINS, ENUMS, bitsetFields, formatValue, genBit, gpuRegs, type Gen, type RegisterSpace } from '../regs/db.js';
import type { RegDef } from '../regs/db.gen.js';
import type { PacketRecord } from './walker.js';
import { decodeDomain, decodeVal, rnnDomain } from '../regs/rnndec.js';

export interface RegWrite {
  readonly offset: number;
  readonly name: string;
  readonly value: number;
  /** High dword when this write covered a whole reg64. */
  readonly hi?: number;
  readonly text: string;
}

/** Register writes of a type-0/4 packet, reg64 pairs merged. */
export function regWrites(p: PacketRecord, regs: RegisterSpace, gen: Gen): RegWrite[] {
  const out: RegWrite[] = [];
  const n = p.payload.length;
  for (let i = 0; i < n; i++) {
    const off = p.reg + i;
    const r = regs.at(off);
    const v = p.payload[i]!;
    if (r && r.width === 64 && i + 1 < n) {
      const hi = p.payload[i + 1]!;
      out.push({ offset: off, name: r.name, value: v, hi, text: formatValue(r.type, v, hi, 64, gen, undefined, r) });
      i++;
      continue;
    }
    out.push({ offset: off, name: regs.nameOf(off), value: v, text: r ? formatValue(r.type, v, 0, 32, gen, undefined, r) : '0x' + v.toString(16) });
  }
  return out;
}

interface Selector {
  readonly varset: string;
  readonly dword: number;
  readonly low: number;
  readonly high: number;
}

const selectorCache = new Map<string, Selector[]>();

function selectors(domain: string, gen: Gen): Selector[] {
  const key = `${domain}/${gen}`;
  let s = selectorCache.get(key);
  if (s) return s;
  s = [];
  const d = DOMAINS[domain];
  const bit = genBit(gen);
  for (const r of d?.regs ?? []) {
    if (!(r[4] & bit)) continue;
    for (const f of bitsetFields(r[3], gen) ?? []) {
      if (ENUMS[f[3]] && f[3] !== '' && d!.regs.some((x) => x[5].startsWith(f[3] + '=')) ) s.push({ varset: f[3], dword: r[0], low: f[1], high: f[2] });
      else if (ENUMS[f[3]] && (d!.regs.some((x) => bitsetFields(x[3], gen)?.some((ff) => ff[6].startsWith(f[3] + '='))))) s.push({ varset: f[3], dword: r[0], low: f[1], high: f[2] });
    }
  }
  selectorCache.set(key, s);
  return s;
}

/** Resolver for non-chip variant conditions of a packet payload ("compare_mode=REG_COMPARE"). */
function condResolver(domain: string, payload: Uint32Array, gen: Gen): (c: string) => boolean {
  const sels = selectors(domain, gen);
  const bit = genBit(gen);
  return (c: string) => {
    const eq = c.indexOf('=');
    const varset = c.slice(0, eq);
    const wanted = c.slice(eq + 1).split(',');
    const sel = sels.find((s) => s.varset === varset);
    if (!sel) return true;
    const v = ((payload[sel.dword] ?? 0) >>> sel.low) & (2 ** (sel.high - sel.low + 1) - 1);
    const name = ENUMS[varset]?.find((e) => e[0] === v && e[2] & bit)?.[1];
    return name !== undefined && wanted.includes(name);
  };
}

function regMatches(r: RegDef, i: number): number {
  // Returns the array index (or 0) when payload dword i is this entry, else -1.
  if (r[7] === 0) return r[0] === i ? 0 : -1;
  if (i < r[0]) return -1;
  const k = (i - r[0]) / r[6];
  return Number.isInteger(k) && k < r[7] ? k : -1;
}

/** Packets sharing another packet's payload layout. */
const PAYLOAD_ALIAS: Readonly<Record<string, string>> = { CP_LOAD_STATE6_GEOM: 'CP_LOAD_STATE6', CP_LOAD_STATE6_FRAG: 'CP_LOAD_STATE6' };

/** Field lines for a type-3/7 packet payload, through its rules-ng domain when there is one. */
export function payloadLines(p: PacketRecord, gen: Gen): string[] {
  const out: string[] = [];
  const dn = PAYLOAD_ALIAS[p.name] ?? p.name;
  const d = DOMAINS[dn];
  const n = p.payload.length;
  if (!d) {
    for (let i = 0; i < n; i++) out.push(`[${i}] 0x${p.payload[i]!.toString(16).padStart(8, '0')}`);
    return out;
  }
  const bit = genBit(gen);
  const cond = condResolver(dn, p.payload, gen);
  for (let i = 0; i < n; i++) {
    const v = p.payload[i]!;
    const parts: string[] = [];
    for (const r of d.regs) {
      if (!(r[4] & bit)) continue;
      if (r[5] && !cond(r[5])) continue;
      const k = regMatches(r, i);
      if (k < 0) continue;
      const label = r[1].replace('[]', `[${k}]`);
      const hi = r[2] === 64 ? (p.payload[i + 1] ?? 0) : 0;
      parts.push(`${label}: ${formatValue(r[3], v, hi, r[2], gen, cond, { low: r[8] ?? 0, high: r[9] ?? r[2] - 1, shr: r[10] ?? 0 })}`);
    }
    out.push(`[${i}] 0x${v.toString(16).padStart(8, '0')}${parts.length ? '  ' + parts.join('  ') : ''}`);
  }
  return out;
}

const levelName = (p: PacketRecord): string => (p.kind === 'SDS' ? `sds${p.group ?? ''}` : p.kind === 'RAW' ? 'raw' : p.level === 0 ? 'rb' : `ib${p.level}`);

/** Text lines for one packet. */
export function packetText(p: PacketRecord, gen: Gen, regs: RegisterSpace = gpuRegs(gen)): string[] {
  const indent = '  '.repeat(Math.max(0, p.level));
  const where = `${p.iova.toString(16).padStart(12, '0')} ${levelName(p)}+${(p.offset * 4).toString(16).padStart(4, '0')}`;
  const hdr = p.header.toString(16).padStart(8, '0');
  const lines: string[] = [];
  if (p.type === -1) {
    lines.push(`${where} ${indent}${hdr}  ?? not a packet header`);
    return lines;
  }
  const parity = p.parityOk ? '' : '  (BAD PARITY)';
  if (p.type === 4 || p.type === 0) {
    lines.push(`${where} ${indent}${hdr}  t${p.type} write ${regs.nameOf(p.reg)} (0x${p.reg.toString(16)}) ${p.count} dword${p.count === 1 ? '' : 's'}${parity}`);
    for (const w of regWrites(p, regs, gen)) lines.push(`${' '.repeat(where.length)} ${indent}    ${w.name}: ${w.text}`);
    if (p.payload.length < p.count) lines.push(`${' '.repeat(where.length)} ${indent}    (truncated: ${p.payload.length} of ${p.count} dwords)`);
    return lines;
  }
  if (p.type === 2) {
    lines.push(`${where} ${indent}${hdr}  t2 nop`);
    return lines;
  }
  lines.push(`${where} ${indent}${hdr}  t${p.type} ${p.name} (0x${p.opcode.toString(16)}) ${p.count} dword${p.count === 1 ? '' : 's'}${parity}`);
  for (const l of payloadLines(p, gen)) lines.push(`${' '.repeat(where.length)} ${indent}    ${l}`);
  if (p.payload.length < p.count) lines.push(`${' '.repeat(where.length)} ${indent}    (truncated: ${p.payload.length} of ${p.count} dwords)`);
  return lines;
}

/** One JSON record per packet, for tools (values as hex strings). */
export function packetJson(p: PacketRecord, gen: Gen, regs: RegisterSpace = gpuRegs(gen), extra?: Record<string, unknown>): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  if (extra) for (const k in extra) rec[k] = extra[k];
  rec['level'] = p.level;
  rec['kind'] = p.kind;
  rec['iova'] = '0x' + p.iova.toString(16);
  rec['offset'] = p.offset;
  rec['type'] = p.type;
  if (p.type === 7 || p.type === 3) rec['opcode'] = p.opcode;
  rec['name'] = p.name;
  rec['count'] = p.count;
  if (p.group !== undefined) rec['group'] = p.group;
  if (!p.parityOk) rec['parity'] = 'bad';
  const pl = p.payload;
  if (p.type === 4 || p.type === 0) {
    const writes: { reg: string; offset: string; value: string; decoded?: string }[] = [];
    // `decoded`: the value as freedreno's tools print it (librnn text, see regs/rnndec.ts).
    const dom = rnnDomain(gen === 'a2xx' || gen === 'a3xx' ? [gen.toUpperCase(), 'AXXX'] : [gen === 'a7xx' ? 'A6XX' : gen.toUpperCase()], gen);
    for (let i = 0; i < pl.length; i++) {
      const off = p.reg + i;
      const r = regs.at(off);
      const info = dom.lookup(off);
      if (r && r.width === 64 && i + 1 < pl.length) {
        const w: (typeof writes)[number] = { reg: r.name, offset: '0x' + off.toString(16), value: '0x' + (pl[i + 1]! * 2 ** 32 + pl[i]!).toString(16) };
        if (info.ti) w.decoded = decodeVal(info.ti, (BigInt(pl[i + 1]!) << 32n) | BigInt(pl[i]!), gen);
        writes.push(w);
        i++;
      } else {
        const w: (typeof writes)[number] = { reg: r ? r.name : regs.nameOf(off), offset: '0x' + off.toString(16), value: '0x' + pl[i]!.toString(16) };
        if (info.ti && info.width === 32) w.decoded = decodeVal(info.ti, BigInt(pl[i]!), gen);
        writes.push(w);
      }
    }
    rec['writes'] = writes;
  } else if (p.type === 7 || p.type === 3) {
    const a = new Array<string>(pl.length);
    for (let i = 0; i < pl.length; i++) a[i] = '0x' + pl[i]!.toString(16);
    rec['payload'] = a;
    const dn = PAYLOAD_ALIAS[p.name] ?? p.name;
    const fields = decodeDomain(pl, dn, gen);
    if (fields.length) rec['fields'] = fields.map((f) => ({ dword: f.dword, name: f.name, decoded: f.text }));
  } else if (p.type === -1) rec['raw'] = '0x' + p.header.toString(16);
  if (pl.length < p.count) rec['truncated'] = true;
  return rec;
}
