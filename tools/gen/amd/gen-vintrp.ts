/**
 * Generator for the GFX9/GFX10.3 parameter-interpolation encodings, all read off LLVM by probing:
 * - VINTRP (one dword: vsrc[7:0] attrchan[9:8] attr[15:10] op[17:16] vdst[25:18]): opcodes and
 *   the names v_interp_mov_f32 prints for its vsrc (p10, p20, p0, invalid_param_N);
 * - the VOP3-encoded interpolation ops (v_interp_p1_f32_e64 ... v_interp_p1ll_f16,
 *   v_interp_p1lv_f16, v_interp_p2_f16): found by sweeping the VOP3 opcode field; for each, its
 *   operand form and, per VOP3 modifier bit, whether LLVM prints it ('opt'), ignores it ('ign')
 *   or rejects the word ('no'). gen-valu leaves these out of the VOP3 tables (their src0 is an
 *   attribute, not an operand).
 * Writes src/amd/isa/{gfx10,gfx9}/vintrp.gen.ts and test/golden/amd/{gfx1030,gfx900}/{vintrp,vop3-interp}.tsv.
 */
import { formatGolden, rng } from '../golden.js';
import { goldenFrom, header, probe } from './gen-vop3p.js';

interface VintrpTarget {
  readonly mcpu: string;
  readonly dir: string;
  readonly golden: string;
  /** dw0[31:26] of VINTRP and of VOP3. */
  readonly vintrp: number;
  readonly vop3: number;
}

export const VINTRP_TARGETS: readonly VintrpTarget[] = [
  { mcpu: 'gfx1030', dir: 'src/amd/isa/gfx10', golden: 'test/golden/amd/gfx1030', vintrp: 0b110010, vop3: 0b110101 },
  { mcpu: 'gfx900', dir: 'src/amd/isa/gfx9', golden: 'test/golden/amd/gfx900', vintrp: 0b110101, vop3: 0b110100 },
];

const vintrpWord = (t: VintrpTarget, op: number, vdst: number, attr: number, chan: number, vsrc: number): number =>
  ((t.vintrp << 26) | (vdst << 18) | (op << 16) | (attr << 10) | (chan << 8) | vsrc) >>> 0;

/** VOP3 modifier bits probed per opcode: [name, word, mask]. */
const MODS: readonly (readonly [string, 0 | 1, number])[] = [
  ['abs0', 0, 1 << 8], ['abs1', 0, 1 << 9], ['abs2', 0, 1 << 10],
  ['opsel0', 0, 1 << 11], ['opsel1', 0, 1 << 12], ['opsel2', 0, 1 << 13], ['opsel3', 0, 1 << 14], ['clamp', 0, 1 << 15],
  ['omod', 1, 1 << 27], ['neg0', 1, 1 << 29], ['neg1', 1, 1 << 30], ['neg2', 1, (1 << 31) >>> 0], ['high', 1, 1 << 8],
];

export interface Vop3InterpEntry {
  mn: string;
  /** 'mov': vdst, param, attr; 'p': vdst, src1, attr; 'p3': vdst, src1, attr, src2. */
  form: 'mov' | 'p' | 'p3';
  mods: Record<string, 'opt' | 'ign' | 'no'>;
}

function vop3Word(t: VintrpTarget, op: number, vdst: number, src0: number, src1: number, src2: number): number[] {
  return [((t.vop3 << 26) | (op << 16) | vdst) >>> 0, (src0 | (src1 << 9) | (src2 << 18)) >>> 0];
}

function vop3Table(t: VintrpTarget): Record<number, Vop3InterpEntry> {
  // bases: 3 operands (src2 = 0), 4 operands (src2 = v4), the mov form (src1 = p10)
  const bases = (op: number) => [vop3Word(t, op, 1, 0x43, 0x102, 0), vop3Word(t, op, 1, 0x43, 0x102, 0x104), vop3Word(t, op, 1, 0x43, 0, 0)];
  const all: number[][] = [];
  for (let op = 0; op < 1024; op++) all.push(...bases(op));
  const r = probe(t.mcpu, all);
  const table: Record<number, Vop3InterpEntry> = {};
  const chosen: Record<number, number[]> = {};
  for (let op = 0; op < 1024; op++) {
    const xs = [0, 1, 2].map((k) => r[op * 3 + k]!);
    const ok = xs.map((x) => x.text !== null && !x.invalid && x.text.startsWith('v_interp'));
    if (!ok.some(Boolean)) continue;
    // the mov form prints a parameter name (p10, invalid_param_N) where the others print I/J
    const isMov = (x: string) => !/^[-|]*v\d/.test(x.split(' ')[2]!);
    const k = ok[1] && xs[1]!.text!.split(',').length === 4 ? 1 : ok[0] && !isMov(xs[0]!.text!) ? 0 : 2;
    if (!ok[k]) continue;
    const text = xs[k]!.text!;
    table[op] = { mn: text.split(' ')[0]!, form: k === 1 ? 'p3' : k === 0 ? 'p' : 'mov', mods: {} };
    chosen[op] = bases(op)[k]!;
  }
  const ops = Object.keys(table).map(Number);
  const q: number[][] = [];
  for (const op of ops) for (const [, w, m] of MODS) { const ws = chosen[op]!.slice(); ws[w] = (ws[w]! | m) >>> 0; q.push(ws); }
  const rq = probe(t.mcpu, q);
  const base = probe(t.mcpu, ops.map((op) => chosen[op]!));
  ops.forEach((op, i) => {
    MODS.forEach(([name], j) => {
      const x = rq[i * MODS.length + j]!;
      table[op]!.mods[name] = x.text === null || x.invalid ? 'no' : x.text === base[i]!.text ? 'ign' : 'opt';
    });
  });
  return table;
}

export function generate(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const t of VINTRP_TARGETS) {
    // VINTRP opcodes and v_interp_mov_f32's parameter names
    const r = probe(t.mcpu, [0, 1, 2, 3].map((op) => [vintrpWord(t, op, 9, 7, 2, 5)]));
    const ops: Record<number, { mn: string; mov: boolean }> = {};
    r.forEach((p, op) => { if (p.text) ops[op] = { mn: p.text.split(' ')[0]!, mov: !/^v\d/.test(p.text.split(' ')[2]!) }; });
    const movOp = Number(Object.keys(ops).find((k) => ops[Number(k)]!.mov));
    const pr = probe(t.mcpu, Array.from({ length: 256 }, (_, v) => [vintrpWord(t, movOp, 9, 7, 2, v)]));
    const params = pr.map((p) => p.text!.split(' ')[2]!.replace(/,$/, ''));
    const v3 = vop3Table(t);
    files[`${t.dir}/vintrp.gen.ts`] = header('gen-vintrp.ts', `${t.mcpu} parameter interpolation: VINTRP opcodes (dw0[31:26] = 0b${t.vintrp.toString(2)}), the names v_interp_mov_f32 prints\n * for its vsrc, and the VOP3-encoded v_interp_* opcodes (dw0[31:26] = 0b${t.vop3.toString(2)}) with their operand form\n * and per modifier bit whether LLVM prints it ('opt'), ignores it ('ign') or rejects the word ('no').`) +
      `export interface Vop3InterpEntry {\n  readonly mn: string;\n  readonly form: 'mov' | 'p' | 'p3';\n  readonly mods: Readonly<Record<string, 'opt' | 'ign' | 'no'>>;\n}\n\n` +
      `export const VINTRP_OPS: Readonly<Record<number, { readonly mn: string; readonly mov: boolean }>> = {\n` +
      Object.entries(ops).map(([op, e]) => `  ${op}: { mn: '${e.mn}', mov: ${e.mov} },`).join('\n') + '\n};\n\n' +
      `/** v_interp_mov_f32's vsrc as LLVM prints it. */\nexport const VINTRP_PARAMS: readonly string[] = ${JSON.stringify(params)};\n\n` +
      `export const VOP3_INTERP_OPS: Readonly<Record<number, Vop3InterpEntry>> = {\n` +
      Object.entries(v3).map(([op, e]) => `  ${op}: ${JSON.stringify(e).replace(/"([a-z][a-z0-9]*)":/g, '$1:')},`).join('\n') + '\n};\n';

    const R = rng(t.mcpu === 'gfx900' ? 0x1f9 : 0x1f10);
    const r8 = () => Math.floor(R() * 256);
    const gp: number[][] = [];
    for (const op of Object.keys(ops).map(Number)) {
      for (let n = 0; n < 80; n++) {
        const vs = ops[op]!.mov ? (n < 60 ? n % 3 : r8()) : r8();
        gp.push([vintrpWord(t, op, r8(), Math.floor(R() * 64), Math.floor(R() * 4), vs)]);
      }
    }
    for (let n = 0; n < 4; n++) gp.push([vintrpWord(t, 3, r8(), n, n, 1)]);
    files[`${t.golden}/vintrp.tsv`] = formatGolden(goldenFrom(t.mcpu, gp, 10));

    const vp: number[][] = [];
    for (const [k, e] of Object.entries(v3)) {
      const op = Number(k);
      for (let n = 0; n < 80; n++) {
        const src0 = Math.floor(R() * 256);
        const src1 = e.form === 'mov' ? (n < 70 ? n % 3 : Math.floor(R() * 8)) : 256 + r8();
        const src2 = e.form === 'p3' ? 256 + r8() : 0;
        const ws = vop3Word(t, op, n === 0 ? 0 : r8(), src0, src1, src2);
        for (const [name, w, m] of MODS) {
          const rule = e.mods[name]!;
          if (R() < (rule === 'opt' ? 0.3 : rule === 'ign' ? 0.1 : n === 79 ? 0.5 : 0)) ws[w] = (ws[w]! | m) >>> 0;
        }
        if (e.mods.omod !== 'no' && R() < 0.2) ws[1] = (ws[1]! | (Math.floor(R() * 4) << 27)) >>> 0;
        vp.push(ws);
      }
    }
    files[`${t.golden}/vop3-interp.tsv`] = formatGolden(goldenFrom(t.mcpu, vp, 20));
  }
  return files;
}
