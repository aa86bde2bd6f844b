/**
 * Generator for the GFX11 VOPD (dual-issue) encoding: which opcodes LLVM accepts in the X and the
 * Y slot, each op's operand shape (vdst, src0, vsrc1, literal K) and how its literals print —
 * all read off llvm-objdump-19 by probing the opX x opY grid — into src/amd/isa/gfx11/vopd.gen.ts,
 * and goldens test/golden/amd/gfx1100/vopd.tsv from seeded random encodings.
 */
import { formatGolden, rng } from '../golden.js';
import { goldenFrom, header, probe } from './gen-vop3p.js';
import { LITERAL_KINDS, printLiteral, type LiteralKind } from '../../../src/amd/isa/gfx11/vop3p.js';

interface VopdTarget {
  readonly mcpu: string;
  /** dw0[31:26]. */
  readonly prefix6: number;
  readonly table: string;
  readonly golden: string;
}

export const VOPD_TARGETS: readonly VopdTarget[] = [
  { mcpu: 'gfx1100', prefix6: 0b110010, table: 'src/amd/isa/gfx11/vopd.gen.ts', golden: 'test/golden/amd/gfx1100/vopd.tsv' },
];

type Slot = 'vdst' | 'src0' | 'vsrc1' | 'k';

interface HalfInfo {
  mnemonic: string;
  shape: Slot[];
  lit: LiteralKind;
  inv2pi: string;
  klit: LiteralKind;
}

const K = 0x3f800000;
// X: vdst v4, src0 v0, vsrc1 v1.  Y: vdst v5, src0 v2, vsrc1 v3.
function enc(t: VopdTarget, x: number, y: number, f: { sx?: number; vx1?: number; sy?: number; vy1?: number; lit?: number }): number[] {
  const sx = f.sx ?? 256, vx1 = f.vx1 ?? 1, sy = f.sy ?? 258, vy1 = f.vy1 ?? 3;
  return [
    ((t.prefix6 << 26) | (x << 22) | (y << 17) | (vx1 << 9) | sx) >>> 0,
    (sy | (vy1 << 9) | (2 << 17) | (4 << 24)) >>> 0,
    (f.lit ?? K) >>> 0,
  ];
}

function shapeOf(half: string, names: Record<string, Slot>): { mnemonic: string; shape: Slot[] } {
  const sp = half.indexOf(' ');
  const ops = half.slice(sp + 1).split(', ');
  return { mnemonic: half.slice(0, sp), shape: ops.map((o, i) => (i === 0 ? 'vdst' : names[o] ?? 'k')) };
}

const LITS = [0x3c00, 0x3f800000, 0x12345678, 5, 0xfffffffd, 0x3118, 0x3e22f983, 0xfffd, 0x3c003c00, 0x4400, 0xc400, 0xbf800000, 0x3f80, 0x3e22];

function enumerate(t: VopdTarget): { X: Record<number, HalfInfo>; Y: Record<number, HalfInfo>; withK: LiteralKind } {
  const grid: { x: number; y: number; v: number }[] = [];
  for (let x = 0; x < 16; x++) for (let y = 0; y < 32; y++) for (const v of [1, 0]) grid.push({ x, y, v });
  const r = probe(t.mcpu, grid.map((g) => enc(t, g.x, g.y, g.v ? {} : { vx1: 0, vy1: 0 })));
  const xs = new Map<number, { mnemonic: string; shape: Slot[] }>();
  const ys = new Map<number, { mnemonic: string; shape: Slot[] }>();
  grid.forEach((g, i) => {
    const text = r[i]!.text;
    if (!text) return;
    const [hx, hy] = text.split(' :: ') as [string, string];
    if (!xs.has(g.x) || g.v) xs.set(g.x, shapeOf(hx, g.v ? { v0: 'src0', v1: 'vsrc1' } : { v0: 'src0' }));
    if (!ys.has(g.y) || g.v) ys.set(g.y, shapeOf(hy, g.v ? { v2: 'src0', v3: 'vsrc1' } : { v2: 'src0' }));
  });
  // Pure sets: a shape from the vsrc1 = 0 probe only is kept when the vsrc1 != 0 probe never decoded.
  const plainX = [...xs.entries()].find(([, s]) => !s.shape.includes('k') && s.shape.includes('vsrc1'))![0];
  const plainY = [...ys.entries()].find(([, s]) => !s.shape.includes('k') && s.shape.includes('vsrc1'))![0];
  const infer = (isX: boolean, op: number, s: { mnemonic: string; shape: Slot[] }): HalfInfo => {
    const mk = (src0: number, lit: number): number[] => {
      const x = isX ? op : plainX, y = isX ? plainY : op;
      const nsrc = s.shape.includes('vsrc1');
      return enc(t, x, y, isX ? { sx: src0, lit, vx1: nsrc ? 1 : 0 } : { sy: src0, lit, vy1: nsrc ? 3 : 0 });
    };
    const pr = probe(t.mcpu, [mk(248, K), ...LITS.map((l) => mk(255, l)), ...LITS.map((l) => mk(256, l))]);
    const half = (i: number): string[] => pr[i]!.text!.split(' :: ')[isX ? 0 : 1]!.split(' ').slice(1).join(' ').split(', ');
    const si = s.shape.indexOf('src0');
    const ki = s.shape.indexOf('k');
    const inv2pi = half(0)[si]!;
    const pick = (printed: string[], what: string): LiteralKind => {
      const k = LITERAL_KINDS.find((kind) => LITS.every((l, i) => printLiteral(kind, l) === printed[i]));
      if (!k) throw new Error(`${s.mnemonic} ${what}: no literal printer matches ${printed.join(' ')}`);
      return k;
    };
    const lit = pick(LITS.map((_, i) => half(1 + i)[si]!), 'src0');
    const klit = ki >= 0 ? pick(LITS.map((_, i) => half(1 + LITS.length + i)[ki]!), 'K') : 'hex32';
    return { ...s, lit, inv2pi, klit };
  };
  const X: Record<number, HalfInfo> = {};
  const Y: Record<number, HalfInfo> = {};
  for (const [op, s] of [...xs.entries()].sort((a, b) => a[0] - b[0])) X[op] = infer(true, op, s);
  for (const [op, s] of [...ys.entries()].sort((a, b) => a[0] - b[0])) Y[op] = infer(false, op, s);
  // With a K op in the pair, LLVM prints the other half's src0 literal by one type for every op:
  // find it from an op whose own literal kind differs from the K op's.
  const kx = Number(Object.entries(X).find(([, e]) => e.shape.includes('k'))![0]);
  const oy = Object.entries(Y).find(([, e]) => !e.shape.includes('k') && e.lit !== X[kx]!.lit);
  let withK: LiteralKind = X[kx]!.lit;
  if (oy) {
    const y = Number(oy[0]);
    const pr = probe(t.mcpu, LITS.map((l) => enc(t, kx, y, { sy: 255, lit: l, vy1: oy[1].shape.includes('vsrc1') ? 3 : 0 })));
    const si = oy[1].shape.indexOf('src0');
    const printed = pr.map((p) => p.text!.split(' :: ')[1]!.split(' ').slice(1).join(' ').split(', ')[si]!);
    const k = LITERAL_KINDS.find((kind) => LITS.every((l, i) => printLiteral(kind, l) === printed[i]));
    if (!k) throw new Error(`src0 literal beside K: no printer matches ${printed.join(' ')}`);
    withK = k;
  }
  return { X, Y, withK };
}

function tableSource(t: VopdTarget, X: Record<number, HalfInfo>, Y: Record<number, HalfInfo>, withK: LiteralKind): string {
  const rows = (tab: Record<number, HalfInfo>): string => Object.entries(tab).map(([op, e]) =>
    `  ${op}: { mnemonic: '${e.mnemonic}', shape: [${e.shape.map((s) => `'${s}'`).join(', ')}], lit: '${e.lit}', inv2pi: '${e.inv2pi}', klit: '${e.klit}' },`).join('\n');
  return header('gen-vopd.ts', `${t.mcpu} VOPD (dw0[31:26] = 0b${t.prefix6.toString(2)}): the ops legal in the X slot (opX[25:22]) and the Y slot (opY[21:17]), in LLVM's operand order.`) +
    `import type { LiteralKind } from './vop3p.js';\nimport type { VopdOp } from './vopd.js';\n\n` +
    `export const VOPD_X: Readonly<Record<number, VopdOp>> = {\n${rows(X)}\n};\n\n` +
    `export const VOPD_Y: Readonly<Record<number, VopdOp>> = {\n${rows(Y)}\n};\n\n` +
    `/** How a src0 literal prints when the pair also has a K operand (fmaak/fmamk), whatever the op. */\n` +
    `export const VOPD_LIT_WITH_K: LiteralKind = '${withK}';\n`;
}

const SRC0_PICKS = [1, 2, 105, 106, 107, 124, 125, 126, 127, 108, 128, 129, 192, 193, 208, 240, 243, 247, 248, 253, 235, 255, 255, 254, 209];

function probes(t: VopdTarget, X: Record<number, HalfInfo>, Y: Record<number, HalfInfo>): number[][] {
  const r = rng(0xd0a1);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const xs = Object.keys(X).map(Number);
  const ys = Object.keys(Y).map(Number);
  const out: number[][] = [];
  const lits = [0x3f800000, 0x3c00, 0x12345678, 0x40490fdb, 7, 0xbf800000, 0x3118, 0xc0400000];
  for (const x of xs) {
    for (const y of ys) {
      for (let k = 0; k < 6; k++) {
        const vgprs = k < 2;
        const src = (): number => (vgprs || r() < 0.6 ? 256 + Math.floor(r() * 256) : pick(SRC0_PICKS));
        const sx = src(), sy = src();
        const x1 = X[x]!.shape.includes('vsrc1') ? Math.floor(r() * 256) : (r() < 0.1 ? 1 + Math.floor(r() * 255) : 0);
        const y1 = Y[y]!.shape.includes('vsrc1') ? Math.floor(r() * 256) : (r() < 0.1 ? 1 + Math.floor(r() * 255) : 0);
        const w0 = ((t.prefix6 << 26) | (x << 22) | (y << 17) | (x1 << 9) | sx) >>> 0;
        const w1 = (sy | (y1 << 9) | (Math.floor(r() * 128) << 17) | (Math.floor(r() * 256) << 24)) >>> 0;
        out.push([w0, w1, pick(lits)]);
      }
    }
  }
  // Ops no slot has.
  for (let x = 0; x < 16; x++) if (!X[x]) out.push([((t.prefix6 << 26) | (x << 22) | (ys[0]! << 17) | (1 << 9) | 256) >>> 0, 0x04040302]);
  for (let y = 0; y < 32; y++) if (!Y[y]) out.push([((t.prefix6 << 26) | (xs[0]! << 22) | (y << 17) | (1 << 9) | 256) >>> 0, 0x04040302]);
  return out;
}

export function generate(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const t of VOPD_TARGETS) {
    const { X, Y, withK } = enumerate(t);
    files[t.table] = tableSource(t, X, Y, withK);
    files[t.golden] = formatGolden(goldenFrom(t.mcpu, probes(t, X, Y), 60));
  }
  return files;
}
