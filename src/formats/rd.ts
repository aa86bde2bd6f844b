/**
 * freedreno `.rd` capture files (written by the kernel's msm_rd debugfs, libwrap and turnip's
 * capture tools): a sequence of sections `{ u32 type; u32 size; u8 data[size] }`, little-endian,
 * optionally gzip-compressed (`.rd.gz`). Section types below are the rd_sect_type values.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { InputError } from '../core/errors.js';

export const RD = {
  NONE: 0,
  TEST: 1,
  CMD: 2,
  GPUADDR: 3,
  CONTEXT: 4,
  CMDSTREAM: 5,
  CMDSTREAM_ADDR: 6,
  PARAM: 7,
  FLUSH: 8,
  PROGRAM: 9,
  VERT_SHADER: 10,
  FRAG_SHADER: 11,
  BUFFER_CONTENTS: 12,
  GPU_ID: 13,
  CHIP_ID: 14,
  SHADER_LOG_BUFFER: 15,
  CP_LOG_BUFFER: 16,
  WRBUFFER: 17,
} as const;

export const RD_NAMES: readonly string[] = Object.keys(RD);

export interface RdSection {
  readonly type: number;
  /** Byte offset of the section header in the (decompressed) file. */
  readonly offset: number;
  readonly data: Uint8Array;
}

export interface RdBuffer {
  readonly iova: number;
  readonly size: number;
  /** Contents if an RD_BUFFER_CONTENTS section followed, else undefined (unknown contents). */
  data: Uint8Array | undefined;
}

export interface RdSubmit {
  readonly index: number;
  /** Command streams of this submit (RD_CMDSTREAM_ADDR): iova and size in dwords. */
  readonly cmdstreams: { iova: number; sizeDwords: number }[];
  /** RD_CMD text (process name / pid) seen before this submit. */
  readonly cmd: string;
}

export interface RdFile {
  readonly sections: RdSection[];
  gpuId: number | undefined;
  /** 64-bit chip id as [lo, hi]. */
  chipId: [number, number] | undefined;
  readonly params: { type: number; value: number; bitlen: number }[];
  /** Every buffer ever described, in file order (a buffer may be re-described per submit). */
  readonly buffers: RdBuffer[];
  readonly submits: RdSubmit[];
  /** Non-fatal problems (truncated tail...). */
  readonly warnings: string[];
}

function u32(d: Uint8Array, o: number): number {
  return (d[o]! | (d[o + 1]! << 8) | (d[o + 2]! << 16) | (d[o + 3]! << 24)) >>> 0;
}

/** Decompress if gzip (magic 1f 8b), else return as is. Corrupt gzip is an InputError. */
export function maybeGunzip(buf: Uint8Array, where = 'trace'): Uint8Array {
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      return new Uint8Array(gunzipSync(buf));
    } catch (e) {
      throw new InputError(`corrupt gzip data (${(e as Error).message})`, where);
    }
  }
  return buf;
}

function parseAddr(d: Uint8Array): { addr: number; len: number } {
  const lo = d.length >= 4 ? u32(d, 0) : 0;
  const len = d.length >= 8 ? u32(d, 4) : 0;
  const hi = d.length >= 12 ? u32(d, 8) : 0;
  return { addr: hi * 2 ** 32 + lo, len };
}

/** Parse an .rd / .rd.gz file. A truncated last section becomes a warning, not an error. */
export function parseRd(input: Uint8Array, where = 'trace'): RdFile {
  const buf = maybeGunzip(input, where);
  const f: RdFile = { sections: [], gpuId: undefined, chipId: undefined, params: [], buffers: [], submits: [], warnings: [] };
  let off = 0;
  let pendingCmd = '';
  let lastBuf: RdBuffer | undefined;
  let cur: RdSubmit | undefined;
  let lastWasStream = false;
  if (buf.length < 8) throw new InputError(`not an .rd trace (${buf.length} bytes)`, where);
  while (off + 8 <= buf.length) {
    const type = u32(buf, off);
    const size = u32(buf, off + 4);
    // libwrap pads between sections with 0xffffffff pairs; freedreno's reader skips them.
    if (type === 0xffffffff && size === 0xffffffff) {
      off += 8;
      continue;
    }
    if (type > 0xff) {
      if (f.sections.length === 0) throw new InputError(`not an .rd trace (section type 0x${type.toString(16)} at offset 0)`, where);
      f.warnings.push(`bad section type 0x${type.toString(16)} at offset 0x${off.toString(16)}; stopped`);
      break;
    }
    if (off + 8 + size > buf.length) {
      f.warnings.push(`section at offset 0x${off.toString(16)} (type ${RD_NAMES[type] ?? type}) truncated: ${size} bytes declared, ${buf.length - off - 8} present`);
      break;
    }
    const data = buf.subarray(off + 8, off + 8 + size);
    f.sections.push({ type, offset: off, data });
    switch (type) {
      case RD.GPU_ID:
        if (size >= 4) f.gpuId = u32(data, 0);
        break;
      case RD.CHIP_ID:
        if (size >= 8) f.chipId = [u32(data, 0), u32(data, 4)];
        else if (size >= 4) f.chipId = [u32(data, 0), 0];
        break;
      case RD.PARAM:
        if (size >= 12) f.params.push({ type: u32(data, 0), value: u32(data, 4), bitlen: u32(data, 8) });
        break;
      case RD.CMD:
        pendingCmd = new TextDecoder().decode(data).replace(/\0+$/, '');
        break;
      case RD.GPUADDR: {
        const a = parseAddr(data);
        lastBuf = { iova: a.addr, size: a.len, data: undefined };
        f.buffers.push(lastBuf);
        break;
      }
      case RD.BUFFER_CONTENTS:
        if (lastBuf && lastBuf.data === undefined) lastBuf.data = data;
        else f.warnings.push(`buffer contents at offset 0x${off.toString(16)} without a preceding RD_GPUADDR`);
        break;
      case RD.CMDSTREAM_ADDR: {
        const a = parseAddr(data);
        if (!cur || !lastWasStream) {
          cur = { index: f.submits.length, cmdstreams: [], cmd: pendingCmd };
          f.submits.push(cur);
        }
        cur.cmdstreams.push({ iova: a.addr, sizeDwords: a.len });
        break;
      }
      default:
        break;
    }
    lastWasStream = type === RD.CMDSTREAM_ADDR;
    off += 8 + size;
  }
  if (off < buf.length && off + 8 > buf.length) f.warnings.push(`${buf.length - off} trailing bytes ignored`);
  return f;
}

/** Writer, for tests and for turning builder streams into traces that other tools can read. */
export class RdWriter {
  private parts: Uint8Array[] = [];

  section(type: number, data: Uint8Array): this {
    const h = new Uint8Array(8);
    const dv = new DataView(h.buffer);
    dv.setUint32(0, type, true);
    dv.setUint32(4, data.length, true);
    this.parts.push(h, data);
    return this;
  }

  private words(...w: number[]): Uint8Array {
    const u = new Uint8Array(w.length * 4);
    const dv = new DataView(u.buffer);
    w.forEach((x, i) => dv.setUint32(i * 4, x >>> 0, true));
    return u;
  }

  gpuId(id: number): this {
    return this.section(RD.GPU_ID, this.words(id));
  }

  chipId(lo: number, hi = 0): this {
    return this.section(RD.CHIP_ID, this.words(lo, hi));
  }

  cmd(text: string): this {
    return this.section(RD.CMD, new TextEncoder().encode(text));
  }

  buffer(iova: number, data: Uint8Array): this {
    this.section(RD.GPUADDR, this.words(iova >>> 0, data.length, Math.floor(iova / 2 ** 32)));
    return this.section(RD.BUFFER_CONTENTS, data);
  }

  cmdstream(iova: number, sizeDwords: number): this {
    return this.section(RD.CMDSTREAM_ADDR, this.words(iova >>> 0, sizeDwords, Math.floor(iova / 2 ** 32)));
  }

  bytes(gzip = false): Uint8Array {
    let n = 0;
    for (const p of this.parts) n += p.length;
    const out = new Uint8Array(n);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return gzip ? new Uint8Array(gzipSync(out, { level: 6 })) : out;
  }
}
