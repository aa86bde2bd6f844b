/**
 * Adreno 2xx (a2xx) shader disassembler, printing the text of Mesa's freedreno a2xx disassembler
 * in its raw form (as `cffdump` prints it: CF words as three 16-bit halves, ALU/fetch slots as
 * `NN: w0 w1 w2`). Lines come back without the indentation the caller adds.
 *
 * An a2xx program starts with control-flow (CF) instructions, 48 bits each (two per three dwords);
 * the first EXEC-type CF gives, by its address, where the ALU/fetch slots (three dwords each)
 * begin, and so how many CF instructions there are. Each EXEC runs CNT slots from ADDR; its
 * serialize field says, two bits per slot, fetch-or-ALU and whether the slot waits ("(S)").
 *
 * The field layout and the opcode/format names below are ISA facts as read from Mesa's
 * src/freedreno/ir2/instr-a2xx.h and disasm-a2xx.c; the code is ours.
 */

/** Vector ALU opcodes (5 bits) with their source counts. */
const VECTOR_OPS: readonly (readonly [string, number] | undefined)[] = [
  ['ADDv', 2], ['MULv', 2], ['MAXv', 2], ['MINv', 2], ['SETEv', 2], ['SETGTv', 2], ['SETGTEv', 2], ['SETNEv', 2],
  ['FRACv', 1], ['TRUNCv', 1], ['FLOORv', 1], ['MULADDv', 3], ['CNDEv', 3], ['CNDGTEv', 3], ['CNDGTv', 3], ['DOT4v', 2],
  ['DOT3v', 2], ['DOT2ADDv', 3], ['CUBEv', 2], ['MAX4v', 1], ['PRED_SETE_PUSHv', 2], ['PRED_SETNE_PUSHv', 2], ['PRED_SETGT_PUSHv', 2], ['PRED_SETGTE_PUSHv', 2],
  ['KILLEv', 2], ['KILLGTv', 2], ['KILLGTEv', 2], ['KILLNEv', 2], ['DSTv', 2], ['MOVAv', 1],
];

/** Scalar ALU opcodes (6 bits); 41 and 51.. have no name. */
const SCALAR_OPS: readonly (string | undefined)[] = [
  'ADDs', 'ADD_PREVs', 'MULs', 'MUL_PREVs', 'MUL_PREV2s', 'MAXs', 'MINs', 'SETEs',
  'SETGTs', 'SETGTEs', 'SETNEs', 'FRACs', 'TRUNCs', 'FLOORs', 'EXP_IEEE', 'LOG_CLAMP',
  'LOG_IEEE', 'RECIP_CLAMP', 'RECIP_FF', 'RECIP_IEEE', 'RECIPSQ_CLAMP', 'RECIPSQ_FF', 'RECIPSQ_IEEE', 'MOVAs',
  'MOVA_FLOORs', 'SUBs', 'SUB_PREVs', 'PRED_SETEs', 'PRED_SETNEs', 'PRED_SETGTs', 'PRED_SETGTEs', 'PRED_SET_INVs',
  'PRED_SET_POPs', 'PRED_SET_CLRs', 'PRED_SET_RESTOREs', 'KILLEs', 'KILLGTs', 'KILLGTEs', 'KILLNEs', 'KILLONEs',
  'SQRT_IEEE', undefined, 'MUL_CONST_0', 'MUL_CONST_1', 'ADD_CONST_0', 'ADD_CONST_1', 'SUB_CONST_0', 'SUB_CONST_1',
  'SIN', 'COS', 'RETAIN_PREV',
];

/** The vertex-fetch formats the disassembler names (a2xx_sq_surfaceformat values); others print as TYPE(0x..). */
const FETCH_FORMATS: ReadonlyMap<number, string> = new Map([
  [0, 'FMT_1_REVERSE'], [36, 'FMT_32_FLOAT'], [37, 'FMT_32_32_FLOAT'], [57, 'FMT_32_32_32_FLOAT'], [38, 'FMT_32_32_32_32_FLOAT'],
  [24, 'FMT_16'], [25, 'FMT_16_16'], [26, 'FMT_16_16_16_16'], [2, 'FMT_8'], [10, 'FMT_8_8'], [6, 'FMT_8_8_8_8'],
  [33, 'FMT_32'], [34, 'FMT_32_32'], [35, 'FMT_32_32_32_32'],
]);

/** Fetch opcodes (5 bits): vertex fetch, texture sample and the texture helpers. */
const FETCH_OPS: ReadonlyMap<number, string> = new Map([
  [0, 'VERTEX'], [1, 'SAMPLE'], [16, '?'], [17, '?'], [18, '?'], [19, '?'], [24, 'SET_TEX_LOD'], [25, '?'], [26, '?'], [27, '?'],
]);

const CF_NAMES = [
  'NOP', 'EXEC', 'EXEC_END', 'COND_EXEC', 'COND_EXEC_END', 'COND_PRED_EXEC', 'COND_PRED_EXEC_END', 'LOOP_START',
  'LOOP_END', 'COND_CALL', 'RETURN', 'COND_JMP', 'ALLOC', 'COND_EXEC_PRED_CLEAN', 'COND_EXEC_PRED_CLEAN_END', 'MARK_VS_FETCH_DONE',
] as const;
/** CF opcodes that run ALU/fetch slots, and those of them that are conditional. */
const CF_EXEC = new Set([1, 2, 3, 4, 5, 6, 13, 14]);
const CF_COND = new Set([3, 4, 5, 6, 13, 14]);

const FILTERS = ['POINT', 'LINEAR', 'BASEMAP'];
const ANISO = ['DISABLED', 'MAX_1_1', 'MAX_2_1', 'MAX_4_1', 'MAX_8_1', 'MAX_16_1'];
const ARBITRARY = ['2x4_SYM', '2x4_ASYM', '4x2_SYM', '4x2_ASYM', '4x4_SYM', '4x4_ASYM'];
const ALLOC_BUFS = ['NO ALLOC', 'POSITION', 'PARAM/PIXEL', 'MEMORY'];
const CHANS = 'xyzw01?_';
/** What C's printf("%s", NULL) prints (glibc). */
const NUL = '(null)';

const hex = (v: number, w: number): string => (v >>> 0).toString(16).padStart(w, '0');
const bits = (w: number, lo: number, n: number): number => (w >>> lo) & ((1 << n) - 1);

function srcReg(num: number, isReg: number, swiz: number, neg: number, abs: number): string {
  let s = (neg ? '-' : '') + (abs ? '|' : '') + (isReg ? 'R' : 'C') + num;
  if (swiz) {
    s += '.';
    // each 2-bit field is relative to its own channel
    for (let i = 0; i < 4; i++, swiz >>>= 2) s += CHANS[(swiz + i) & 3];
  }
  return s + (abs ? '|' : '');
}

function dstReg(num: number, mask: number, exp: number): string {
  let s = (exp ? 'export' : 'R') + num;
  if (mask !== 0xf) {
    s += '.';
    for (let i = 0; i < 4; i++) s += (mask >> i) & 1 ? CHANS[i] : '_';
  }
  return s;
}

function exportComment(num: number, stage: 'VS' | 'FS' | undefined): string {
  const name = stage === 'VS' ? (num === 62 ? 'gl_Position' : num === 63 ? 'gl_PointSize' : undefined) : stage === 'FS' && num === 0 ? 'gl_FragColor' : undefined;
  return name ? `\t; ${name}` : '';
}

function alu(w0: number, w1: number, w2: number, sync: boolean, stage: 'VS' | 'FS' | undefined): string[] {
  const vOp = bits(w2, 24, 5);
  const [vName, nSrc] = VECTOR_OPS[vOp] ?? [NUL, 0];
  const exp = bits(w0, 15, 1);
  const vMask = bits(w0, 16, 4);
  const sMask = bits(w0, 20, 4);
  const pred = bits(w1, 27, 2);
  // sources: 1 in the high byte, 3 in the low one; register/constant select in w2's top bits
  const src = (k: 1 | 2 | 3): string => {
    const sh = (3 - k) * 8;
    return srcReg(bits(w2, sh, 6), bits(w2, 32 - k, 1), bits(w1, sh, 8), bits(w1, 27 - k, 1), bits(w2, sh + 7, 1));
  };
  let v = `${sync ? '(S)' : '   '}ALU:\t${vName}${pred & 2 ? (pred & 1 ? 'EQ' : 'NE') : ''}\t${dstReg(bits(w0, 0, 6), vMask, exp)} = `;
  if (nSrc === 3) v += src(3) + ', ';
  v += src(1);
  if (nSrc > 1) v += ', ' + src(2);
  if (bits(w0, 24, 1)) v += ' CLAMP';
  if (exp) v += exportComment(bits(w0, 0, 6), stage);
  const out = [v];
  if (sMask || !vMask) {
    const sOp = bits(w0, 26, 6);
    let s = `\t    \t${SCALAR_OPS[sOp] ?? `OP(${sOp})`}\t${dstReg(bits(w0, 8, 6), sMask, exp)} = ${src(3)}`;
    if (bits(w0, 25, 1)) s += ' CLAMP';
    if (exp) s += exportComment(bits(w0, 8, 6), stage);
    out.push(s);
  }
  return out;
}

function fetchDst(reg: number, swiz: number): string {
  let s = `\tR${reg}.`;
  for (let i = 0; i < 4; i++, swiz >>>= 3) s += CHANS[swiz & 7];
  return s;
}

function fetchVtx(w0: number, w1: number, w2: number): string {
  let s = bits(w1, 31, 1) ? (bits(w2, 31, 1) ? 'EQ' : 'NE') : '';
  s += fetchDst(bits(w0, 12, 6), bits(w1, 0, 12));
  s += ` = R${bits(w0, 5, 6)}.${CHANS[bits(w0, 30, 2)]}`;
  const fmt = bits(w1, 16, 6);
  s += ' ' + (FETCH_FORMATS.get(fmt) ?? `TYPE(0x${fmt.toString(16)})`);
  s += bits(w1, 12, 1) ? ' SIGNED' : ' UNSIGNED';
  if (!bits(w1, 13, 1)) s += ' NORMALIZED';
  s += ` STRIDE(${bits(w2, 0, 8)})`;
  const off = bits(w2, 8, 22);
  if (off) s += ` OFFSET(${off})`;
  return s + ` CONST(${bits(w0, 20, 5)}, ${bits(w0, 25, 2)})`;
}

function fetchTex(w0: number, w1: number, w2: number): string {
  let s = bits(w1, 31, 1) ? (bits(w2, 31, 1) ? 'EQ' : 'NE') : '';
  s += fetchDst(bits(w0, 12, 6), bits(w1, 0, 12));
  s += ` = R${bits(w0, 5, 6)}.`;
  for (let i = 0, sw = bits(w0, 26, 6); i < 3; i++, sw >>>= 2) s += CHANS[sw & 3];
  s += ` CONST(${bits(w0, 20, 5)})`;
  if (bits(w0, 19, 1)) s += ' VALID_ONLY';
  if (bits(w0, 25, 1)) s += ' DENORM';
  const opt = (label: string, v: number, none: number, names: readonly string[]): void => {
    if (v !== none) s += ` ${label}(${names[v] ?? NUL})`;
  };
  opt('MAG', bits(w1, 12, 2), 3, FILTERS);
  opt('MIN', bits(w1, 14, 2), 3, FILTERS);
  opt('MIP', bits(w1, 16, 2), 3, FILTERS);
  opt('ANISO', bits(w1, 18, 3), 7, ANISO);
  opt('ARBITRARY', bits(w1, 21, 3), 7, ARBITRARY);
  opt('VOL_MAG', bits(w1, 24, 2), 3, FILTERS);
  opt('VOL_MIN', bits(w1, 26, 2), 3, FILTERS);
  if (!bits(w1, 28, 1)) s += ` LOD(0) LOD_BIAS(${bits(w2, 2, 7)})`;
  const regLod = bits(w1, 29, 2);
  if (regLod) s += ` REG_LOD(${regLod})`;
  if (bits(w2, 0, 1)) s += ' USE_REG_GRADIENTS';
  s += ` LOCATION(${bits(w2, 1, 1) ? 'CENTER' : 'CENTROID'})`;
  const ox = bits(w2, 16, 5);
  const oy = bits(w2, 21, 5);
  const oz = bits(w2, 26, 5);
  if (ox || oy || oz) s += ` OFFSET(${ox},${oy},${oz})`;
  return s;
}

function fetch(w0: number, w1: number, w2: number, sync: boolean): string {
  const op = bits(w0, 0, 5);
  const name = FETCH_OPS.get(op);
  // opcodes without a name have no printer in Mesa's table either; only the name is printed
  const body = name === undefined ? '' : op === 0 ? fetchVtx(w0, w1, w2) : fetchTex(w0, w1, w2);
  return `${sync ? '(S)' : '   '}FETCH:\t${name ?? NUL}${body}`;
}

/** One 48-bit CF instruction as its three 16-bit halves (lo, mid, hi). */
interface Cf {
  readonly h: readonly [number, number, number];
  readonly opc: number;
}

function cfText(cf: Cf): string {
  const [a, b, c] = cf.h;
  const lo32 = (a | (b << 16)) >>> 0; // bits 0..31
  const hi = c; // bits 32..47
  let s = CF_NAMES[cf.opc]!;
  if (CF_EXEC.has(cf.opc)) {
    s += ` ADDR(0x${bits(lo32, 0, 9).toString(16)}) CNT(0x${bits(lo32, 12, 3).toString(16)})`;
    if (bits(lo32, 15, 1)) s += ' YIELD';
    const vc = bits(lo32, 28, 4) | (bits(hi, 0, 2) << 4);
    if (vc) s += ` VC(0x${vc.toString(16)})`;
    const boolAddr = bits(hi, 2, 8);
    if (boolAddr) s += ` BOOL_ADDR(0x${boolAddr.toString(16)})`;
    if (bits(hi, 11, 1)) s += ' ABSOLUTE_ADDR';
    if (CF_COND.has(cf.opc)) s += ` COND(${bits(hi, 10, 1)})`;
  } else if (cf.opc === 7 || cf.opc === 8) {
    s += ` ADDR(0x${bits(lo32, 0, 10).toString(16)}) LOOP_ID(${bits(lo32, 16, 5)})`;
    if (bits(hi, 11, 1)) s += ' ABSOLUTE_ADDR';
  } else if (cf.opc >= 9 && cf.opc <= 11) {
    s += ` ADDR(0x${bits(lo32, 0, 10).toString(16)}) DIR(${bits(hi, 1, 1)})`;
    if (bits(lo32, 13, 1)) s += ' FORCE_CALL';
    if (bits(lo32, 14, 1)) s += ` COND(${bits(hi, 10, 1)})`;
    const boolAddr = bits(hi, 2, 8);
    if (boolAddr) s += ` BOOL_ADDR(0x${boolAddr.toString(16)})`;
    if (bits(hi, 11, 1)) s += ' ABSOLUTE_ADDR';
  } else if (cf.opc === 12) {
    s += ` ${ALLOC_BUFS[bits(hi, 9, 2)]} SIZE(0x${bits(lo32, 0, 4).toString(16)})`;
    if (bits(hi, 8, 1)) s += ' NO_SERIAL';
    if (bits(hi, 11, 1)) s += ' ALLOC_MODE';
  }
  return `    ${hex(a, 4)} ${hex(b, 4)} ${hex(c, 4)}            \t${s}`;
}

/**
 * Disassembles an a2xx program; `stage` picks the export comments (gl_Position / gl_PointSize for
 * 'VS', gl_FragColor for 'FS'). Words past the end read as zero. Never throws.
 */
export function disasmA2xx(words: Uint32Array, stage: 'VS' | 'FS' | undefined): string[] {
  const word = (i: number): number => (i >= 0 && i < words.length ? words[i]! : 0);
  const half = (i: number): number => (word(i >> 1) >>> ((i & 1) * 16)) & 0xffff;
  const cfAt = (idx: number): Cf => {
    const h = [half(idx * 3), half(idx * 3 + 1), half(idx * 3 + 2)] as const;
    return { h, opc: h[2] >>> 12 };
  };
  // the CF program ends where the first EXEC's slots begin (two CFs per three-dword slot)
  let end = -1;
  const maxCf = Math.floor((words.length * 2) / 3);
  for (let i = 0; i < maxCf; i++) {
    const cf = cfAt(i);
    if (CF_EXEC.has(cf.opc)) {
      end = 2 * bits(cf.h[0], 0, 9);
      break;
    }
  }
  const out: string[] = [];
  for (let i = 0; i < end; i++) {
    const cf = cfAt(i);
    out.push(cfText(cf));
    if (!CF_EXEC.has(cf.opc)) continue;
    const addr = bits(cf.h[0], 0, 9);
    const cnt = bits(cf.h[0], 12, 3);
    let seq = bits(cf.h[1], 0, 12);
    for (let k = 0; k < cnt; k++, seq >>>= 2) {
      const off = addr + k;
      const w0 = word(off * 3);
      const w1 = word(off * 3 + 1);
      const w2 = word(off * 3 + 2);
      const raw = `${hex(off, 2)}: ${hex(w0, 8)} ${hex(w1, 8)} ${hex(w2, 8)}\t   `;
      if (seq & 1) out.push(raw + fetch(w0, w1, w2, (seq & 2) !== 0));
      else {
        const [first, ...rest] = alu(w0, w1, w2, (seq & 2) !== 0, stage);
        out.push(raw + first, ...rest.map((l) => '                          \t' + l));
      }
    }
  }
  return out;
}
