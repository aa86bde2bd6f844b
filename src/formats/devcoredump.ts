/**
 * msm (freedreno kernel driver) GPU devcoredump text as adreno_show() / a6xx_show() print it:
 * `key: value` header lines (kernel, module, time, comm, cmdline, gpu-initialized, revision
 * `630 (6.3.0.2)`, rbbm-status), `fault-info:` (`  - iova=...`), `ringbuffer:` and `bos:` lists
 * whose data is the kernel's ascii85 (one u32 per five characters, most significant digit first,
 * `z` for a zero dword, trailing zero dwords dropped, on one line after `data: !!ascii85 |`),
 * `registers:` / `registers-gmu:` as `  - { offset: 0x%06x, value: 0x%08x }` where the offset is
 * the register's BYTE address (dword offset << 2), `indexed-registers:` (`  - regs-name: CP_SQE_STAT`,
 * `    dwords: N`, ascii85 data), and `clusters:` (`  - cluster-name: X` / a7xx `  - pipe: P`,
 * `    - cluster-name: X`, then `- context: N` and indented register lines: the context banks).
 * `shader-blocks:`, `gmu-*:` and `debugbus:` are skipped. Also a writer in the same layout.
 */
import { InputError } from '../core/errors.js';

export interface DumpRing {
  id: number;
  iova: number;
  lastFence: number;
  retiredFence: number;
  rptr: number;
  wptr: number;
  size: number;
  data: Uint32Array;
}

export interface DumpBo {
  iova: number;
  size: number;
  name: string;
  data: Uint32Array;
}

export interface DevCoreDump {
  /** Header key/values (kernel, module, time, comm, cmdline, revision, rbbm-status...). */
  readonly header: Record<string, string>;
  readonly rings: DumpRing[];
  readonly bos: DumpBo[];
  /** offset -> value of the `registers:` list (and `registers-gmu:` under gmu). */
  readonly registers: Map<number, number>;
  readonly gmuRegisters: Map<number, number>;
  /** `indexed-registers:` blocks by name (CP_SQE_STAT, CP_MEMPOOL ...), `dwords` long. */
  readonly indexed: Map<string, number[]>;
  /** `clusters:` register values by cluster name (a7xx: `PIPE/CLUSTER`) and context (bank) 0/1. */
  readonly clusters: Map<string, Map<number, Map<number, number>>>;
  /** `fault-info` / iommu lines kept verbatim. */
  readonly faultInfo: string[];
}

/** Decode the kernel's ascii85 (per-u32, `z` = 0). */
export function ascii85Decode(s: string, where = 'ascii85'): Uint32Array {
  const out: number[] = [];
  let i = 0;
  const t = s.replace(/\s+/g, '');
  while (i < t.length) {
    if (t[i] === 'z') {
      out.push(0);
      i++;
      continue;
    }
    if (i + 5 > t.length) throw new InputError(`truncated ascii85 group at character ${i}`, where);
    let v = 0;
    for (let k = 0; k < 5; k++) {
      const c = t.charCodeAt(i + k) - 33;
      if (c < 0 || c > 84) throw new InputError(`bad ascii85 character '${t[i + k]}'`, where);
      v = v * 85 + c;
    }
    if (v > 0xffffffff) throw new InputError(`ascii85 group out of range`, where);
    out.push(v);
    i += 5;
  }
  return Uint32Array.from(out);
}

export function ascii85Encode(d: ArrayLike<number>): string {
  let n = d.length;
  while (n > 0 && d[n - 1] === 0) n--;
  let s = '';
  for (let i = 0; i < n; i++) {
    let v = d[i]! >>> 0;
    if (v === 0) {
      s += 'z';
      continue;
    }
    const c: string[] = [];
    for (let k = 0; k < 5; k++) {
      c.unshift(String.fromCharCode(33 + (v % 85)));
      v = Math.floor(v / 85);
    }
    s += c.join('');
  }
  return s;
}

function num(s: string | undefined): number {
  if (s === undefined) return 0;
  const t = s.trim();
  const v = /^0x/i.test(t) ? parseInt(t.slice(2), 16) : parseInt(t, 10);
  return Number.isFinite(v) ? v : 0;
}

/** Parse a devcoredump. Not a dump at all (no recognizable key) is an InputError. */
export function parseDevcoredump(text: string, where = 'devcoredump'): DevCoreDump {
  const d: DevCoreDump = { header: {}, rings: [], bos: [], registers: new Map(), gmuRegisters: new Map(), indexed: new Map(), clusters: new Map(), faultInfo: [] };
  const lines = text.split(/\r?\n/);
  let section = '';
  let item: Record<string, string> | undefined;
  let items: Record<string, string>[] = [];
  let dataLines: string[] | undefined;
  let indexedName = '';
  let indexedDwords = 0;
  let indexedData: string[] | undefined;
  let pipe = '';
  let cluster = '';
  let context = 0;
  const flushIndexed = (): void => {
    if (indexedName) {
      const v = indexedData ? Array.from(ascii85Decode(indexedData.join(''), `${where}: ${indexedName}`)) : [];
      while (v.length < indexedDwords) v.push(0);
      d.indexed.set(indexedName, v);
    }
    indexedName = '';
    indexedData = undefined;
    indexedDwords = 0;
  };
  const flushItem = (): void => {
    if (item) {
      if (dataLines) item['data'] = dataLines.join('');
      items.push(item);
    }
    item = undefined;
    dataLines = undefined;
  };
  const endSection = (): void => {
    flushItem();
    flushIndexed();
    if (section === 'ringbuffer')
      for (const it of items)
        d.rings.push({
          id: num(it['id']),
          iova: num(it['iova']),
          lastFence: num(it['last-fence']),
          retiredFence: num(it['retired-fence']),
          rptr: num(it['rptr']),
          wptr: num(it['wptr']),
          size: num(it['size']),
          data: it['data'] ? ascii85Decode(it['data'], `${where}: ringbuffer ${it['id']}`) : new Uint32Array(0),
        });
    if (section === 'bos')
      for (const it of items)
        d.bos.push({ iova: num(it['iova']), size: num(it['size']), name: (it['name'] ?? '').trim(), data: it['data'] ? ascii85Decode(it['data'], `${where}: bo ${it['iova']}`) : new Uint32Array(0) });
    items = [];
  };
  let recognized = false;
  for (const raw of lines) {
    if (raw.trim() === '') continue;
    const top = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(raw);
    if (top && !raw.startsWith(' ')) {
      endSection();
      section = top[1]!;
      if (top[2]) d.header[section] = top[2];
      if (['kernel', 'module', 'revision', 'rbbm-status', 'ringbuffer', 'registers', 'gpu-initialized'].includes(section)) recognized = true;
      pipe = cluster = '';
      context = 0;
      continue;
    }
    const isData = /^\s{5,}\S/.test(raw) && !/^\s*-/.test(raw) && !/^\s*[\w-]+:\s/.test(raw) && !/^\s*[\w-]+:$/.test(raw);
    if (dataLines && isData) {
      dataLines.push(raw.trim());
      continue;
    }
    if (indexedData && isData) {
      indexedData.push(raw.trim());
      continue;
    }
    const reg = /\{\s*offset:\s*(0x[0-9a-fA-F]+|\d+),\s*value:\s*(0x[0-9a-fA-F]+|\d+)\s*\}/.exec(raw);
    if (reg && (section === 'registers' || section === 'registers-gmu')) {
      // The kernel prints byte addresses (offset << 2); the map is by dword register offset.
      (section === 'registers' ? d.registers : d.gmuRegisters).set(num(reg[1]) >>> 2, num(reg[2]) >>> 0);
      continue;
    }
    if (section === 'clusters') {
      const pm = /^\s*-\s*pipe:\s*(\S+)/.exec(raw);
      const cm = /^\s*-\s*cluster-name:\s*(\S+)/.exec(raw);
      const xm = /^\s*-\s*context:\s*(\d+)/.exec(raw);
      if (pm) pipe = pm[1]!;
      else if (cm) cluster = pipe ? `${pipe}/${cm[1]}` : cm[1]!;
      else if (xm) context = parseInt(xm[1]!, 10);
      else if (reg && cluster) {
        let byCtx = d.clusters.get(cluster);
        if (!byCtx) d.clusters.set(cluster, (byCtx = new Map()));
        let m = byCtx.get(context);
        if (!m) byCtx.set(context, (m = new Map()));
        m.set(num(reg[1]) >>> 2, num(reg[2]) >>> 0);
      }
      continue;
    }
    if (section === 'indexed-registers') {
      const nm = /regs-name:\s*(\S+)/.exec(raw);
      if (nm) {
        flushIndexed();
        indexedName = nm[1]!;
        continue;
      }
      const dm = /^\s*dwords:\s*(\d+)/.exec(raw);
      if (dm) indexedDwords = Math.min(parseInt(dm[1]!, 10), 1 << 24);
      else if (/^\s*data:/.test(raw)) indexedData = [];
      continue;
    }
    if (section === 'fault-info' || section === 'iommu') {
      d.faultInfo.push(raw.trim());
      continue;
    }
    if (section === 'ringbuffer' || section === 'bos') {
      const kv = /^\s*(-\s+)?([\w-]+):\s*(.*)$/.exec(raw);
      if (!kv) continue;
      if (kv[1]) {
        flushItem();
        item = {};
      }
      if (!item) item = {};
      if (kv[2] === 'data') dataLines = [];
      else item[kv[2]!] = kv[3]!;
    }
  }
  endSection();
  if (!recognized) throw new InputError('not a GPU devcoredump (no kernel/revision/ringbuffer/registers section)', where);
  return d;
}

export interface DumpWriterInput {
  readonly header: Record<string, string>;
  readonly rings: readonly DumpRing[];
  readonly bos: readonly DumpBo[];
  /** By dword register offset (written as byte addresses, as the kernel does). */
  readonly registers: ReadonlyMap<number, number>;
  readonly indexed?: ReadonlyMap<string, readonly number[]>;
}

const hx = (v: number, w: number): string => '0x' + (v >>> 0 === v ? v.toString(16) : v.toString(16)).padStart(w, '0');

/** Write a devcoredump in the kernel's text layout. */
export function writeDevcoredump(d: DumpWriterInput): string {
  const L: string[] = [];
  for (const [k, v] of Object.entries(d.header)) L.push(`${k}: ${v}`);
  L.push('ringbuffer:');
  for (const r of d.rings) {
    L.push(`  - id: ${r.id}`, `    iova: ${hx(r.iova, 16)}`, `    last-fence: ${r.lastFence}`, `    retired-fence: ${r.retiredFence}`, `    rptr: ${r.rptr}`, `    wptr: ${r.wptr}`, `    size: ${r.size}`);
    const a = ascii85Encode(r.data);
    if (a) L.push('    data: !!ascii85 |', ...chunk(a));
  }
  L.push('bos:');
  for (const b of d.bos) {
    L.push(`  - iova: ${hx(b.iova, 16)}`, `    size: ${b.size}`, '    flags: 0x0', `    name: ${b.name.padEnd(32)}`);
    const a = ascii85Encode(b.data);
    if (a) L.push('    data: !!ascii85 |', ...chunk(a));
  }
  L.push('registers:');
  for (const [o, v] of [...d.registers].sort((a, b) => a[0] - b[0])) L.push(`  - { offset: ${hx(o * 4, 6)}, value: ${hx(v, 8)} }`);
  if (d.indexed?.size) {
    L.push('indexed-registers:');
    for (const [name, v] of d.indexed) {
      L.push(`  - regs-name: ${name}`, `    dwords: ${v.length}`);
      const a = ascii85Encode(v);
      if (a) L.push('    data: !!ascii85 |', '      ' + a);
    }
  }
  return L.join('\n') + '\n';
}

/** adreno_show_object prints the whole encoding on one line after five spaces. */
function chunk(s: string): string[] {
  return ['     ' + s];
}
