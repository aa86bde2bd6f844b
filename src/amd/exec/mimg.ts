/**
 * MIMG: image_load, image_store and image_sample (GFX11) through a T# (8 SGPRs at srsrc*4) and,
 * for sampling, an S# (4 SGPRs at ssamp*4); descriptor layouts from mimg-rsrc.gen.ts (Mesa's
 * gfx11-rsrc JSON), texel formats from the GFX11_FORMAT table of buffer-formats.gen.ts.
 *
 * Modelled: dim 1D/2D, 32-bit addresses and data (no a16/d16/tfe/lwe), level 0 of linear images
 * (SW_MODE 0; row pitch = WIDTH texels), DST_SEL swizzles, dmask packing (one VGPR per enabled
 * channel, in channel order). image_load/store take integer texel coordinates and ignore texels
 * outside the image (loads return 0, as robust buffer access does). image_sample takes f32
 * coordinates, normalized unless the unorm bit or S# FORCE_UNNORMALIZED; addressing per
 * CLAMP_X/Y (SQ_TEX_WRAP, SQ_TEX_MIRROR, SQ_TEX_CLAMP_LAST_TEXEL, SQ_TEX_CLAMP_BORDER with a
 * transparent black border); XY_MAG_FILTER point or bilinear (weights in doubles, result rounded
 * to f32) at level 0 — no LOD selection, so pixel shaders get the magnification filter.
 * Anything else is diagnosed once (`gfx11.mimg.unsupported`) and the instruction writes 0.
 */
import type { Instruction } from '../isa/types.js';
import type { MimgDecoded } from '../isa/gfx11/memory-mimg.js';
import type { Wave } from '../wave/wave.js';
import type { ExecEnv } from './env.js';
import { define, type Finding } from './registry.js';
import { CNT_MAX, laneOn } from './vmem.js';
import { SQ_IMG_RSRC, SQ_IMG_SAMP, type RsrcBits } from './mimg-rsrc.gen.js';
import { BUF_FORMATS } from './buffer-formats.gen.js';
import { f16, f16bits, f32, f32bits } from '../../core/float.js';
import { diagAt } from './operands.js';

function get(w: Wave, base: number, f: RsrcBits | undefined): number {
  if (!f) return 0;
  const v = w.s[base + f.word]! >>> 0;
  return f.width === 32 ? v : Math.floor(v / 2 ** f.lo) % 2 ** f.width;
}

interface Image { base: number; width: number; height: number; bytes: number; bits: readonly number[]; nfmt: string; dst: number[]; ok: string }

function readTsharp(w: Wave, r: number): Image {
  const R = SQ_IMG_RSRC;
  const base = (w.s[r]! >>> 0) * 256 + get(w, r, R.BASE_ADDRESS_HI) * 2 ** 40;
  const width = (get(w, r, R.WIDTH_LO) | (get(w, r, R.WIDTH_HI) << 2)) + 1;
  const height = get(w, r, R.HEIGHT) + 1;
  const fmt = BUF_FORMATS[get(w, r, R.FORMAT)];
  const dst = [get(w, r, R.DST_SEL_X), get(w, r, R.DST_SEL_Y), get(w, r, R.DST_SEL_Z), get(w, r, R.DST_SEL_W)];
  let ok = '';
  if (!fmt || fmt.packed || !(fmt.nfmt === 'unorm' || fmt.nfmt === 'float' || fmt.nfmt === 'uint') || fmt.bits.some((b) => b !== 8 && b !== 16 && b !== 32)) ok = `T# FORMAT ${get(w, r, R.FORMAT)} (${fmt?.name ?? 'unknown'}) is not modelled for images`;
  else if (get(w, r, R.SW_MODE) !== 0) ok = `T# SW_MODE ${get(w, r, R.SW_MODE)}: only linear (0) images are modelled`;
  return { base, width, height, bytes: fmt?.bytes ?? 4, bits: fmt?.bits ?? [32], nfmt: fmt?.nfmt ?? 'float', dst, ok };
}

/** Texel (x, y) as 4 channels after DST_SEL. */
function fetch(w: Wave, im: Image, x: number, y: number, out: Float64Array): void {
  const raw = [0, 0, 0, 1];
  if (x >= 0 && y >= 0 && x < im.width && y < im.height) {
    let a = im.base + (y * im.width + x) * im.bytes;
    im.bits.forEach((b, c) => {
      const v = b === 8 ? w.mem.read8(a) : b === 16 ? w.mem.read16(a) : w.mem.read32(a);
      a += b / 8;
      raw[c] = im.nfmt === 'unorm' ? v / (2 ** b - 1) : im.nfmt === 'float' ? (b === 16 ? f16(v) : b === 32 ? f32(v) : v) : v;
    });
  } else raw[3] = 0;
  for (let c = 0; c < 4; c++) {
    const s = im.dst[c]!;
    out[c] = s === 0 ? 0 : s === 1 ? 1 : s >= 4 ? raw[s - 4]! : 0;
  }
}

function store(w: Wave, im: Image, x: number, y: number, v: readonly number[]): void {
  if (x < 0 || y < 0 || x >= im.width || y >= im.height) return;
  let a = im.base + (y * im.width + x) * im.bytes;
  im.bits.forEach((b, c) => {
    const x0 = v[c] ?? 0;
    let bits: number;
    if (im.nfmt === 'unorm') { const n = f32(x0); bits = !(n > 0) ? 0 : n >= 1 ? 2 ** b - 1 : Math.floor(n * (2 ** b - 1) + 0.5); } else if (im.nfmt === 'float') bits = b === 16 ? f16bits(f32(x0)) : x0;
    else bits = x0;
    if (b === 8) w.mem.write8(a, bits & 0xff);
    else if (b === 16) w.mem.write16(a, bits & 0xffff);
    else w.mem.write32(a, bits >>> 0);
    a += b / 8;
  });
}

function wrap(mode: number, i: number, n: number): number {
  switch (mode) {
    case 0: return ((i % n) + n) % n;
    case 1: { const p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    case 2: return Math.min(n - 1, Math.max(0, i));
    default: return i < 0 || i >= n ? -1 : i; // border: outside reads the border (0)
  }
}

function addrRegs(inst: Instruction): number[] {
  const d = inst.info as MimgDecoded;
  const out: number[] = [];
  for (const [r, n] of d.addr) for (let k = 0; k < n; k++) out.push(r + k);
  return out;
}

function unsupported(inst: Instruction): string {
  const f = inst.fields;
  if (f.a16 || f.d16 || f.tfe || f.lwe) return 'a16/d16/tfe/lwe are not modelled';
  if (f.dim !== 0 && f.dim !== 1) return `dim ${f.dim} is not modelled (1D and 2D only)`;
  return '';
}

for (const kind of ['load', 'store', 'sample'] as const) {
  define(`image_${kind}`, (inst, env: ExecEnv) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const findings: Finding[] = [];
    const why = unsupported(inst);
    const regs = addrRegs(inst);
    const dims = f.dim === 0 ? 1 : 2;
    const dmask = f.dmask! & 15;
    const chans = [0, 1, 2, 3].filter((c) => (dmask >> c) & 1);
    if (!chans.length && kind !== 'store') chans.push(0);
    const vdata = f.vdata!;
    if (vdata + chans.length > env.vgprs || regs.some((r) => r >= env.vgprs)) findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: a data or address VGPR is past the ${env.vgprs} allocated` });
    const srsrc = f.srsrc! * 4;
    const ssamp = (f.ssamp ?? 0) * 4;
    const px = new Float64Array(4), t = new Float64Array(4);
    let warned = false;
    return {
      cls: 'vmem',
      findings,
      run: (w) => {
        const pc = w.pc - inst.size;
        if (kind === 'store') { if (w.vscnt < CNT_MAX) w.vscnt++; } else if (w.vmcnt < CNT_MAX) w.vmcnt++;
        const im = readTsharp(w, srsrc);
        const bad = why || im.ok;
        if (bad || findings.length) {
          if (!warned) diagAt(env, w, pc, 'gfx11.mimg.unsupported', `${inst.mnemonic}: ${bad || findings[0]!.message}; the instruction writes 0`);
          warned = true;
          if (kind !== 'store') for (let l = 0; l < ws; l++) if (laneOn(w, l)) for (let k = 0; k < chans.length && vdata + k < env.vgprs; k++) w.v[(vdata + k) * ws + l] = 0;
          return;
        }
        const v = w.v;
        const S = SQ_IMG_SAMP;
        const unnorm = f.unorm === 1 || (kind === 'sample' && get(w, ssamp, S.FORCE_UNNORMALIZED) === 1);
        const bilinear = kind === 'sample' && get(w, ssamp, S.XY_MAG_FILTER) === 1;
        const cx = get(w, ssamp, S.CLAMP_X), cy = get(w, ssamp, S.CLAMP_Y);
        let n = 0;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          n++;
          if (kind === 'store') {
            const x = v[regs[0]! * ws + l]!, y = dims === 2 ? v[regs[1]! * ws + l]! : 0;
            const data = [0, 0, 0, 0];
            chans.forEach((c, k) => { data[c] = v[(vdata + k) * ws + l]!; });
            store(w, im, x, y, data);
            continue;
          }
          if (kind === 'load') {
            const x = v[regs[0]! * ws + l]! | 0, y = dims === 2 ? v[regs[1]! * ws + l]! | 0 : 0;
            fetch(w, im, x, y, px);
          } else {
            let u = f32(v[regs[0]! * ws + l]!), vv = dims === 2 ? f32(v[regs[1]! * ws + l]!) : 0;
            if (!unnorm) { u *= im.width; vv *= dims === 2 ? im.height : 1; }
            if (!bilinear) {
              const x = wrap(cx, Math.floor(u), im.width), y = dims === 2 ? wrap(cy, Math.floor(vv), im.height) : 0;
              fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, px);
            } else {
              const fu = u - 0.5, fv = dims === 2 ? vv - 0.5 : 0;
              const x0 = Math.floor(fu), y0 = Math.floor(fv);
              const a = fu - x0, b = fv - y0;
              px.fill(0);
              for (const [dx, dy, wt] of [[0, 0, (1 - a) * (1 - b)], [1, 0, a * (1 - b)], [0, 1, (1 - a) * b], [1, 1, a * b]] as const) {
                if (wt === 0) continue;
                const x = wrap(cx, x0 + dx, im.width), y = dims === 2 ? wrap(cy, y0 + dy, im.height) : 0;
                fetch(w, im, x < 0 ? -1 : x, y < 0 ? -1 : y, t);
                for (let c = 0; c < 4; c++) px[c]! += wt * t[c]!;
              }
            }
          }
          chans.forEach((c, k) => {
            const val = px[c]!;
            v[(vdata + k) * ws + l] = im.nfmt === 'uint' && kind === 'load' ? val >>> 0 : f32bits(val);
          });
        }
        w.laneOps += n;
      },
    };
  });
}
