/**
 * Fetch clauses (CF_INST TC, VC, VC_TC): vertex fetches (VTX words: buffer 1 global memory, buffer
 * 2 the code object's constants) and, in TC clauses, the texture unit's instructions (TEX words):
 * sampling, gathers, LD, RESINFO / GET_LOD, gradients and texel offsets (exec/tex.ts does the
 * texel work). Each instruction runs for the items passing the CF instruction's active test.
 *
 * `bindFetchClause` binds each instruction once per program: a texture instruction's TEX_INST
 * becomes a kind and the flags the sampler path needs, so no lane loop looks at a name.
 */
import type { CfInst, FetchInst, TexInst } from '../isa/decode.js';
import { TEX_DIM, decodeTexResource, decodeTexSampler, gatherLevel, readTexel, sampleLevel, texLevel, type TexFault, type TexResource, type TexSampler } from '../exec/tex.js';
import { B, F } from '../exec/alu.js';
import type { R600Resources, Wave } from './machine.js';
import type { CfOp } from './cf.js';

// What a texture instruction does (decided once per decoded instruction).
const T_GET_GRADIENTS = 0;
const T_SET_GRADIENTS = 1;
const T_KEEP_GRADIENTS = 2;
const T_SET_OFFSETS = 3;
/** Reads a resource: LD, GET_TEXTURE_RESINFO, GET_LOD, SAMPLE*, GATHER4*. */
const T_RESOURCE = 4;
const T_UNSUPPORTED = 5;

// Where a sampling instruction's LOD comes from.
const LOD_IMPLICIT = 0;
const LOD_L = 1;
const LOD_LB = 2;
const LOD_ZERO = 3;
const LOD_G = 4;

/** A texture instruction bound once per program. */
export interface TexOp {
  readonly t: TexInst;
  /** TEX_INST's ISA-document name (messages only). */
  readonly name: string;
  readonly kind: number;
  /** GET_GRADIENTS_H / SET_GRADIENTS_H (else _V). */
  readonly h: boolean;
  readonly ld: boolean;
  readonly resinfo: boolean;
  readonly getLod: boolean;
  /** Needs a sampler (all resource reads but LD and GET_TEXTURE_RESINFO). */
  readonly sampler: boolean;
  readonly lod: number;
  /** SAMPLE_G_LB: the gradient LOD plus W. */
  readonly gLb: boolean;
  /** SAMPLE_C_L / SAMPLE_C_LB: the LOD (bias) in W, the reference in Z. */
  readonly lodInW: boolean;
  readonly gather: boolean;
  /** SAMPLE_C* / GATHER4_C*: compare with the reference. */
  readonly compare: boolean;
  /** GATHER4_O / GATHER4_C_O: add the SET_TEXTURE_OFFSETS offsets. */
  readonly offsets: boolean;
}

/** One fetch-clause instruction bound once per program (`tex` for a texture instruction). */
export interface FetchOp {
  readonly f: FetchInst;
  readonly tex: TexOp | undefined;
}

const RESOURCE_READS = new Set(['LD', 'GET_TEXTURE_RESINFO', 'GET_LOD', 'SAMPLE', 'SAMPLE_L', 'SAMPLE_LB', 'SAMPLE_LZ', 'SAMPLE_G', 'SAMPLE_G_LB', 'SAMPLE_C', 'SAMPLE_C_L', 'SAMPLE_C_LB', 'SAMPLE_C_LZ', 'SAMPLE_C_G', 'GATHER4', 'GATHER4_O', 'GATHER4_C', 'GATHER4_C_O']);

function bindTex(t: TexInst): TexOp {
  const name = t.op?.name ?? '';
  const kind = name === 'GET_GRADIENTS_H' || name === 'GET_GRADIENTS_V' ? T_GET_GRADIENTS
    : name === 'SET_GRADIENTS_H' || name === 'SET_GRADIENTS_V' ? T_SET_GRADIENTS
    : name === 'KEEP_GRADIENTS' ? T_KEEP_GRADIENTS
    : name === 'SET_TEXTURE_OFFSETS' ? T_SET_OFFSETS
    : RESOURCE_READS.has(name) ? T_RESOURCE : T_UNSUPPORTED;
  let lod = LOD_IMPLICIT;
  switch (name) {
    case 'SAMPLE_L': case 'SAMPLE_C_L': lod = LOD_L; break;
    case 'SAMPLE_LB': case 'SAMPLE_C_LB': lod = LOD_LB; break;
    case 'SAMPLE_LZ': case 'SAMPLE_C_LZ': case 'GATHER4': case 'GATHER4_O': case 'GATHER4_C': case 'GATHER4_C_O': lod = LOD_ZERO; break;
    case 'SAMPLE_G': case 'SAMPLE_G_LB': case 'SAMPLE_C_G': lod = LOD_G; break;
  }
  return {
    t, name, kind,
    h: name === 'GET_GRADIENTS_H' || name === 'SET_GRADIENTS_H',
    ld: name === 'LD',
    resinfo: name === 'GET_TEXTURE_RESINFO',
    getLod: name === 'GET_LOD',
    sampler: name !== 'LD' && name !== 'GET_TEXTURE_RESINFO',
    lod,
    gLb: name === 'SAMPLE_G_LB',
    lodInW: name === 'SAMPLE_C_L' || name === 'SAMPLE_C_LB',
    gather: name.startsWith('GATHER4'),
    compare: name.startsWith('SAMPLE_C') || name.startsWith('GATHER4_C'),
    offsets: name.endsWith('_O'),
  };
}

/** Bind a fetch clause's instructions, once per program. */
export function bindFetchClause(list: readonly FetchInst[]): FetchOp[] {
  return list.map((f) => ({ f, tex: f.tex ? bindTex(f.tex) : undefined }));
}

export function fetchClause(w: Wave, op: CfOp): void {
  const c = op.c;
  const res = w.opts.resources;
  for (const f of op.fetch!) {
    w.stats.fetches++;
    if (f.tex) {
      texFetch(w, c, f.tex);
      continue;
    }
    for (let l = 0; l < w.W; l++) {
      // The CF instruction's condition test (COND, WHOLE_QUAD_MODE, VALID_PIXEL_MODE) picks the items.
      if (!w.condTest(l, c)) continue;
      vtx(w, f.f, l, res);
    }
  }
}

function vtx(w: Wave, f: FetchInst, l: number, res: R600Resources): void {
  const addr = (w.gpr[(f.srcGpr * 4 + f.srcSelX) * w.W + l]! + f.offsetBytes) >>> 0;
  // Vertex buffer 3 holds the kernel parameters (CB0's bytes) for dynamically indexed reads, as
  // Mesa's evergreen_compute_upload_input binds it (LLVM's vtx_id3 loads).
  const cb0 = f.bufferId === 3 ? res.constBuffers.get(0) : undefined;
  const mem = f.bufferId === 2 ? res.constData : f.bufferId === 1 ? res.global : cb0 ? new Uint8Array(cb0.buffer, cb0.byteOffset, cb0.byteLength) : undefined;
  const n = f.bytes || 4;
  const vals = [0, 0, 0, 0];
  if (!mem) w.diag('r600.fetch.buffer', `vertex buffer ${f.bufferId} is not bound (1: global, 2: constants, 3: kernel parameters)`, 'error', { lane: l });
  else if (addr + n > mem.length) w.diag('r600.mem.out-of-range', `fetch of ${n} bytes at ${addr} outside buffer ${f.bufferId} (${mem.length} bytes)`, 'error', { lane: l, addr });
  else {
    const dv = mem === res.global ? w.globalView : mem === res.constData ? w.constView : new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
    if (n === 1) vals[0] = dv.getUint8(addr);
    else if (n === 2) vals[0] = dv.getUint16(addr, true);
    else for (let k = 0; k < n / 4; k++) vals[k] = dv.getUint32(addr + 4 * k, true);
  }
  for (let ch = 0; ch < 4; ch++) {
    const s = f.dstSel[ch]!;
    if (s === 7) continue;
    const v = s < 4 ? vals[s]! : s === 4 ? 0 : s === 5 ? 0x3f800000 : 0;
    w.gpr[(f.dstGpr * 4 + ch) * w.W + l] = v >>> 0;
  }
}

function texDiag(w: Wave, t: TexInst, id: string, message: string, lane?: number): void {
  w.diag(id, `${t.op?.llvm ?? `TEX_INST ${t.code}`}: ${message}`, id === 'r600.tex.unsupported' ? 'warning' : 'error', lane === undefined ? {} : { lane });
}

/**
 * One texture instruction for every passing work-item. Sources are read for all 64 lanes first
 * (the destination may be the source; derivatives need the whole quad), then results are written.
 */
function texFetch(w: Wave, c: CfInst, x: TexOp): void {
  const t = x.t;
  const res = w.opts.resources;
  const rel = (reg: number, isRel: boolean): number => reg + (isRel ? w.loopIndex() : 0);
  const sreg = rel(t.srcGpr, t.srcRel);
  const dreg = rel(t.dstGpr, t.dstRel);
  if (sreg < 0 || sreg >= w.ngpr || dreg < 0 || dreg >= w.ngpr) {
    texDiag(w, t, 'r600.alu.gpr-out-of-range', `texture register T${sreg < 0 || sreg >= w.ngpr ? sreg : dreg} out of range`);
    return;
  }
  const src = w.texSrc, srcBits = w.texSrcBits;
  for (let l = 0; l < w.W; l++) {
    for (let ch = 0; ch < 4; ch++) {
      const sel = t.srcSel[ch]!;
      const b = sel < 4 ? w.gpr[(sreg * 4 + sel) * w.W + l]! : sel === 5 ? 0x3f800000 : 0;
      srcBits[ch * w.W + l] = b;
      src[ch * w.W + l] = F(b);
    }
  }
  const fine = t.instMod === 1 && w.evergreenUp;
  const quadDelta = (arr: Float64Array, ch: number, l: number, h: boolean): number => {
    const q = l & ~3;
    const row = fine && h ? l & 2 : 0;
    const col = fine && !h ? l & 1 : 0;
    return h ? arr[ch * w.W + q + row + 1]! - arr[ch * w.W + q + row]! : arr[ch * w.W + q + col + 2]! - arr[ch * w.W + q + col]!;
  };
  const out = w.texOut;
  const pass = (l: number): boolean => w.condTest(l, c, c.wholeQuadMode || t.fetchWholeQuad);
  switch (x.kind) {
    case T_GET_GRADIENTS:
      for (let l = 0; l < w.W; l++) for (let ch = 0; ch < 4; ch++) out[ch * w.W + l] = B(quadDelta(src, ch, l, x.h));
      break;
    case T_SET_GRADIENTS:
    case T_KEEP_GRADIENTS:
      for (let l = 0; l < w.W; l++) {
        if (!pass(l)) continue;
        for (let ch = 0; ch < 4; ch++) {
          if (x.kind === T_KEEP_GRADIENTS) {
            w.grad[ch * w.W + l] = quadDelta(src, ch, l, true);
            w.grad[(4 + ch) * w.W + l] = quadDelta(src, ch, l, false);
          } else w.grad[((x.h ? 0 : 4) + ch) * w.W + l] = src[ch * w.W + l]!;
        }
      }
      return;
    case T_SET_OFFSETS:
      // Per-pixel integer texel offsets (x, y, z) for the next GATHER4_O / GATHER4_C_O (Mesa
      // emits it with the offset vector of a non-constant textureGatherOffset).
      for (let l = 0; l < w.W; l++) {
        if (!pass(l)) continue;
        for (let ch = 0; ch < 3; ch++) w.texOffsets[ch * w.W + l] = srcBits[ch * w.W + l]! | 0;
      }
      return;
    case T_RESOURCE: {
      const words = res.textures?.get(t.resourceId);
      const r = words ? decodeTexResource(words) : undefined;
      if (!r || r.type !== 2) {
        texDiag(w, t, 'r600.tex.resource', words ? `resource ${t.resourceId} is not a valid texture (TYPE ${r!.type})` : `texture resource ${t.resourceId} is not bound`);
        return;
      }
      if (r.dim === TEX_DIM.CUBEMAP || r.dim >= TEX_DIM.D2_MSAA || r.arrayMode > 1) {
        texDiag(w, t, 'r600.tex.unsupported', r.arrayMode > 1 ? `ARRAY_MODE ${r.arrayMode} (tiled) textures are not modelled` : `texture DIM ${r.dim} is not modelled`);
        return;
      }
      let smp: TexSampler | undefined;
      if (x.sampler) {
        const sw = res.samplers?.get(t.samplerId);
        if (!sw) {
          texDiag(w, t, 'r600.tex.sampler', `sampler ${t.samplerId} is not bound`);
          return;
        }
        smp = decodeTexSampler(sw);
      }
      for (let l = 0; l < w.W; l++) {
        if (!pass(l)) continue;
        const fault = texLane(w, x, r, smp, l, quadDelta);
        if (fault) {
          texDiag(w, t, fault.id, fault.message, l);
          for (let ch = 0; ch < 4; ch++) out[ch * w.W + l] = 0;
        }
      }
      break;
    }
    default:
      texDiag(w, t, 'r600.tex.unsupported', 'this texture instruction is not modelled');
      return;
  }
  for (let l = 0; l < w.W; l++) {
    if (!pass(l)) continue;
    for (let ch = 0; ch < 4; ch++) {
      const s = t.dstSel[ch]!;
      if (s === 7) continue;
      w.gpr[(dreg * 4 + ch) * w.W + l] = s < 4 ? out[s * w.W + l]! : s === 5 ? 0x3f800000 : 0;
    }
  }
}

/** One lane of a resource-reading texture instruction into texOut. */
function texLane(w: Wave, xo: TexOp, r: TexResource, s: TexSampler | undefined, l: number, quadDelta: (a: Float64Array, ch: number, l: number, h: boolean) => number): TexFault | undefined {
  const t = xo.t;
  const src = w.texSrc, srcBits = w.texSrcBits, out = w.texOut;
  const mem = w.globalView;
  const dims = r.dim === TEX_DIM.D1 || r.dim === TEX_DIM.D1_ARRAY ? 1 : r.dim === TEX_DIM.D3 ? 3 : 2;
  const layerCh = r.dim === TEX_DIM.D1_ARRAY ? 1 : r.dim === TEX_DIM.D2_ARRAY ? 2 : -1;
  const levels = Math.max(1, r.lastLevel - r.baseLevel + 1);
  const put = (k: number, v: number, isInt: boolean): void => { out[k * w.W + l] = isInt ? v >>> 0 : B(v); };
  const isInt = r.numFormat === 1;
  if (xo.resinfo) {
    const lv = texLevel(r, r.baseLevel + (srcBits[l]! | 0));
    put(0, lv.width, true);
    put(1, layerCh === 1 ? r.depth : lv.height, true);
    put(2, dims === 3 || layerCh === 2 ? lv.depth : 1, true);
    put(3, levels, true);
    return undefined;
  }
  const acc = w.texAcc;
  acc.fill(0);
  if (xo.ld) {
    const iv = (ch: number): number => srcBits[ch * w.W + l]! | 0;
    const level = r.baseLevel + iv(3);
    let inRange = level >= r.baseLevel && level <= Math.max(r.baseLevel, r.lastLevel);
    if (inRange) {
      const lv = texLevel(r, level);
      const x = iv(0) + Math.trunc(t.offset[0]! / 2);
      const y = dims >= 2 ? iv(1) + Math.trunc(t.offset[1]! / 2) : 0;
      const z = dims === 3 ? iv(2) + Math.trunc(t.offset[2]! / 2) : layerCh >= 0 ? iv(layerCh) : 0;
      inRange = x >= 0 && x < lv.width && y >= 0 && y < lv.height && z >= 0 && z < lv.depth;
      if (inRange) {
        const fault = readTexel(r, lv, mem, x, y, z, acc);
        if (fault) return fault;
      }
    }
    if (!inRange) acc.fill(0);
  } else {
    const smp = s!;
    const sz = [r.width, r.height, r.depth];
    const toTexel = (ch: number, v: number, size: number): number => (t.coordNormalized[ch] ? v * size : v);
    // LOD from quad derivatives (implicit) or the SET_GRADIENTS state (SAMPLE_G*), in level-0 texels.
    const lodFrom = (h: (ch: number) => number, v: (ch: number) => number): number => {
      let dx = 0, dy = 0;
      for (let ch = 0; ch < dims; ch++) {
        const scale = t.coordNormalized[ch] ? sz[ch]! : 1;
        dx += (h(ch) * scale) ** 2;
        dy += (v(ch) * scale) ** 2;
      }
      const rho = Math.sqrt(Math.max(dx, dy));
      return rho > 0 ? Math.log2(rho) : -Infinity;
    };
    const implicit = (): number => lodFrom((ch) => quadDelta(src, ch, l, true), (ch) => quadDelta(src, ch, l, false));
    const bias = t.lodBias / 16 + smp.lodBias;
    const wv = src[3 * w.W + l]!;
    // SAMPLE_C_L / SAMPLE_C_LB carry the LOD (bias) in W and the compare reference in Z; the other
    // compares take the reference in W (LLVM's old R600 emitter and Mesa's sfn agree).
    const lodInW = xo.lodInW;
    if (lodInW && (r.dim === TEX_DIM.D2_ARRAY || r.dim === TEX_DIM.D3)) return { id: 'r600.tex.unsupported', message: `${xo.name} on a ${r.dim === TEX_DIM.D3 ? '3D' : '2D array'} texture: Z is both a coordinate and the reference` };
    const gather = xo.gather;
    let lod: number;
    switch (xo.lod) {
      case LOD_L: lod = wv + bias; break;
      case LOD_LB: lod = implicit() + wv + bias; break;
      case LOD_ZERO: lod = 0; break;
      case LOD_G:
        lod = lodFrom((ch) => w.grad[ch * w.W + l]!, (ch) => w.grad[(4 + ch) * w.W + l]!) + bias + (xo.gLb ? wv : 0);
        break;
      default: lod = implicit() + bias;
    }
    if (xo.getLod) {
      // X the computed LOD (biases applied), Y the LOD clamped to the sampler's MIN/MAX_LOD; Mesa
      // swaps them into textureQueryLod's (clamped, computed) order with DST_SEL 1,0.
      put(0, lod, false);
      put(1, Math.min(Math.max(lod, smp.minLod), smp.maxLod), false);
      put(2, 0, false);
      put(3, 0, false);
      return undefined;
    }
    lod = Math.min(Math.max(lod, smp.minLod), smp.maxLod);
    const mag = !(lod > 0);
    const filt = mag ? smp.magFilter : smp.minFilter;
    const last = Math.max(r.baseLevel, r.lastLevel);
    const pick: [number, number][] = [];
    if (smp.mipFilter === 0 || mag) pick.push([r.baseLevel, 1]);
    else if (smp.mipFilter === 1) pick.push([Math.min(last, r.baseLevel + Math.floor(lod + 0.5)), 1]);
    else {
      const lo = Math.floor(lod);
      const a = lod - lo;
      pick.push([Math.min(last, r.baseLevel + lo), 1 - a], [Math.min(last, r.baseLevel + lo + 1), a]);
    }
    const border = [0, 0, 0, 0];
    if (smp.borderType === 1) border[3] = 1;
    else if (smp.borderType === 2) border.fill(1);
    else if (smp.borderType === 3) {
      const bc = w.opts.resources.borderColors?.get(t.samplerId);
      if (bc) for (let k = 0; k < 4; k++) border[k] = bc[k]!;
    }
    const compare = xo.compare ? smp.compare : -1;
    const texOfs = xo.offsets ? w.texOffsets : undefined;
    const layer = layerCh >= 0 ? Math.min(Math.max(Math.round(src[layerCh * w.W + l]!), r.baseArray), Math.max(r.baseArray, r.lastArray, 0)) : 0;
    for (const [level, weight] of pick) {
      if (weight === 0) continue;
      const lv = texLevel(r, level);
      const lsz = [lv.width, lv.height, lv.depth];
      const coord = (ch: number): number => {
        const v = src[ch * w.W + l]!;
        // Unnormalized coordinates address level-0 texels.
        const tv = t.coordNormalized[ch] ? toTexel(ch, v, lsz[ch]!) : v / 2 ** level;
        return tv + t.offset[ch]! / 2 + (texOfs ? texOfs[ch * w.W + l]! : 0);
      };
      const p = {
        u: coord(0), v: dims >= 2 ? coord(1) : 0, w: dims === 3 ? coord(2) : 0, layer,
        linearXY: filt !== 0, linearZ: smp.zFilter === 2 || (smp.zFilter === 0 && filt !== 0), border, compare, ref: lodInW ? src[2 * w.W + l]! : wv,
      };
      const fault = gather ? gatherLevel(r, lv, smp, mem, p, acc) : sampleLevel(r, lv, smp, mem, p, weight, acc);
      if (fault) return fault;
      if (gather) break;
    }
  }
  // The resource's DST_SEL, then the 32-bit patterns.
  const v = [acc[0]!, acc[1]!, acc[2]!, acc[3]!];
  for (let k = 0; k < 4; k++) {
    const sel = r.dstSel[k]!;
    put(k, sel < 4 ? v[sel]! : sel === 5 ? 1 : 0, isInt);
  }
  return undefined;
}

