/**
 * VALU conversions (v_cvt_*, packed forms, v_sat_pk_u8_i16). Float -> integer conversions
 * truncate and saturate (NaN -> 0) as the ISA defines; float -> float conversions round under
 * MODE (f32 destinations by FP_ROUND[1:0], f16/f64 by FP_ROUND[3:2]) through the wrapper;
 * v_cvt_pk_rtz_f16_f32 rounds toward zero whatever MODE says.
 */
import { R, fop, vop, fin, T0, T1, T2, TF0, TF1, MODE, h, d64, type Shape } from './valu.js';
import { f16, roundF16, flushF16 } from '../../core/float.js';

const satInt = (x: number, lo: number, hi: number) => (x !== x ? 0 : x <= lo ? lo : x >= hi ? hi : Math.trunc(x));
const cvtU32 = (x: number) => satInt(x, 0, 4294967295);
const cvtI32 = (x: number) => satInt(x, -2147483648, 2147483647);
const s16 = (x: number) => (x << 16) >> 16;

const I2F32: Shape = { srcs: ['b32'], dst: 'f32' };
fop('v_cvt_f32_ubyte0', I2F32, (n) => {
  for (let l = 0; l < n; l++) fin(l, T0[l]! & 0xff);
});
fop('v_cvt_f32_ubyte1', I2F32, (n) => {
  for (let l = 0; l < n; l++) fin(l, (T0[l]! >>> 8) & 0xff);
});
fop('v_cvt_f32_ubyte2', I2F32, (n) => {
  for (let l = 0; l < n; l++) fin(l, (T0[l]! >>> 16) & 0xff);
});
fop('v_cvt_f32_ubyte3', I2F32, (n) => {
  for (let l = 0; l < n; l++) fin(l, T0[l]! >>> 24);
});
// Round-to-nearest and floor conversions ignore MODE: floor(S0 + 0.5F) with the f32 add.
vop('v_cvt_nearest_i32_f32', { srcs: ['f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = cvtI32(Math.floor(Math.fround(TF0[l]! + 0.5))));
});
vop('v_cvt_floor_i32_f32', { srcs: ['f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = cvtI32(Math.floor(TF0[l]!)));
});
/** Signed 4-bit offsets in sixteenths for interpolation (CVT_OFF_TABLE). */
fop('v_cvt_off_f32_i4', I2F32, (n) => {
  for (let l = 0; l < n; l++) fin(l, (((T0[l]! & 15) << 28) >> 28) / 16);
});
vop('v_cvt_u32_f64', { srcs: ['f64'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = cvtU32(d64(0, l)));
});
vop('v_cvt_i32_f64', { srcs: ['f64'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = cvtI32(d64(0, l)));
});
fop('v_cvt_f64_u32', { srcs: ['b32'], dst: 'f64' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, T0[l]!);
});
fop('v_cvt_f64_i32', { srcs: ['b32'], dst: 'f64' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, T0[l]! | 0);
});
fop('v_cvt_f32_f64', { srcs: ['f64'], dst: 'f32' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, d64(0, l));
});
fop('v_cvt_f64_f32', { srcs: ['f32'], dst: 'f64' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, TF0[l]!);
});
fop('v_cvt_f16_f32', { srcs: ['f32'], dst: 'f16' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, TF0[l]!);
});
fop('v_cvt_f32_f16', { srcs: ['f16'], dst: 'f32' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, h(0, l));
});
fop('v_cvt_f16_u16', { srcs: ['b16'], dst: 'f16' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, T0[l]!);
});
fop('v_cvt_f16_i16', { srcs: ['b16'], dst: 'f16' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, s16(T0[l]!));
});
vop('v_cvt_u16_f16', { srcs: ['f16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satInt(h(0, l), 0, 65535));
});
vop('v_cvt_i16_f16', { srcs: ['f16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satInt(h(0, l), -32768, 32767) & 0xffff);
});
vop('v_cvt_i32_i16', { srcs: ['b16'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = s16(T0[l]!));
});
vop('v_cvt_u32_u16', { srcs: ['b16'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l]!);
});

/** Round half to even (normalised conversions are 0.5 ULP). */
function rne(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
}
/** f -> snorm16: clamp to [-1, 1], scale by 32767, round to nearest even; NaN -> 0. */
const snorm = (x: number) => (x !== x ? 0 : rne(Math.max(-1, Math.min(1, x)) * 32767) & 0xffff);
/** f -> unorm16: clamp to [0, 1], scale by 65535. */
const unorm = (x: number) => (x !== x ? 0 : rne(Math.max(0, Math.min(1, x)) * 65535));
vop('v_cvt_norm_i16_f16', { srcs: ['f16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = snorm(h(0, l)));
});
vop('v_cvt_norm_u16_f16', { srcs: ['f16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = unorm(h(0, l)));
});
vop('v_cvt_pk_norm_i16_f16', { srcs: ['f16', 'f16'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = snorm(h(0, l)) | (snorm(h(1, l)) << 16));
});
vop('v_cvt_pk_norm_u16_f16', { srcs: ['f16', 'f16'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = unorm(h(0, l)) | (unorm(h(1, l)) << 16));
});
vop('v_cvt_pk_norm_i16_f32', { srcs: ['f32', 'f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = snorm(TF0[l]!) | (snorm(TF1[l]!) << 16));
});
vop('v_cvt_pk_norm_u16_f32', { srcs: ['f32', 'f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = unorm(TF0[l]!) | (unorm(TF1[l]!) << 16));
});
// v_cvt_i16_f32 / v_cvt_u16_f32 semantics: truncate and saturate to the 16-bit range.
vop('v_cvt_pk_i16_f32', { srcs: ['f32', 'f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = (satInt(TF0[l]!, -32768, 32767) & 0xffff) | (satInt(TF1[l]!, -32768, 32767) << 16));
});
vop('v_cvt_pk_u16_f32', { srcs: ['f32', 'f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satInt(TF0[l]!, 0, 65535) | (satInt(TF1[l]!, 0, 65535) << 16));
});
vop('v_cvt_pk_u16_u32', { srcs: ['b32', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = Math.min(T0[l]!, 65535) | (Math.min(T1[l]!, 65535) << 16));
});
vop('v_cvt_pk_i16_i32', { srcs: ['b32', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = Math.max(-32768, Math.min(32767, T0[l]! | 0));
  const b = Math.max(-32768, Math.min(32767, T1[l]! | 0));
  R[l] = (a & 0xffff) | (b << 16);
}
});
/** Convert S0 to u8 (round to nearest even, saturate) into byte S1[1:0] of S2. */
vop('v_cvt_pk_u8_f32', { srcs: ['f32', 'b32', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) {
  const x = TF0[l]!;
  const b = x !== x ? 0 : Math.max(0, Math.min(255, rne(x)));
  const sh = (T1[l]! & 3) * 8;
  R[l] = ((T2[l]! & ~(0xff << sh)) | (b << sh)) >>> 0;
}
});
/** Two f32 -> packed f16 with round toward zero (MODE ignored); f16 denormals per MODE. */
vop('v_cvt_pk_rtz_f16_f32', { srcs: ['f32', 'f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = TF0[l]!, b = TF1[l]!;
  let lo = a !== a ? nan16(T0[l]!) : roundF16(a, 0, 3);
  let hi = b !== b ? nan16(T1[l]!) : roundF16(b, 0, 3);
  if (MODE.fout64) (lo = flushF16(lo)), (hi = flushF16(hi));
  R[l] = (lo | (hi << 16)) >>> 0;
}
});
/** f32 NaN -> quiet f16 NaN with the payload's top bits. */
const nan16 = (b: number) => ((b >>> 16) & 0x8000) | 0x7e00 | ((b >>> 13) & 0x1ff);
vop('v_sat_pk_u8_i16', { srcs: ['b32'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) {
  const sat = (n: number) => (n <= 0 ? 0 : n >= 255 ? 255 : n);
  const x = T0[l]!;
  R[l] = sat(s16(x & 0xffff)) | (sat(x >> 16) << 8);
}
});
/** v_pack_b32_f16: D = {S1.f16, S0.f16} (abs/neg/op_sel apply to each half's source). */
vop('v_pack_b32_f16', { srcs: ['f16', 'f16'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = (T0[l]! | (T1[l]! << 16)) >>> 0);
});
void f16;
