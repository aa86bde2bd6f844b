/**
 * Generator for the GFX11 VINTERP (v_interp_p10_f32 ...) and LDSDIR (lds_param_load,
 * lds_direct_load) encodings: opcode tables in src/amd/isa/gfx11/{vinterp,ldsdir}.gen.ts and
 * goldens test/golden/amd/gfx1100/{vinterp,ldsdir}.tsv, all read off LLVM by probing.
 */
import { formatGolden, rng } from '../golden.js';
import { goldenFrom, header, probe } from './gen-vop3p.js';

interface InterpTarget {
  readonly mcpu: string;
  /** dw0[31:24] of VINTERP and LDSDIR. */
  readonly vinterp: number;
  readonly ldsdir: number;
  readonly vinterpTable: string;
  readonly ldsdirTable: string;
  readonly vinterpGolden: string;
  readonly ldsdirGolden: string;
}

export const INTERP_TARGETS: readonly InterpTarget[] = [
  {
    mcpu: 'gfx1100', vinterp: 0xcd, ldsdir: 0xce,
    vinterpTable: 'src/amd/isa/gfx11/vinterp.gen.ts', ldsdirTable: 'src/amd/isa/gfx11/ldsdir.gen.ts',
    vinterpGolden: 'test/golden/amd/gfx1100/vinterp.tsv', ldsdirGolden: 'test/golden/amd/gfx1100/ldsdir.tsv',
  },
];

const VSRC = (256 + 16) | ((256 + 32) << 9) | ((256 + 48) << 18);

function vinterpTable(t: InterpTarget): { ops: Record<number, { mnemonic: string; opsel: boolean }>; srcOk: number[] } {
  const all = Array.from({ length: 128 }, (_, op) => [((t.vinterp << 24) | (op << 16) | 8) >>> 0, VSRC >>> 0]);
  const r = probe(t.mcpu, all);
  const ops: Record<number, { mnemonic: string; opsel: boolean }> = {};
  const found = r.map((p, op) => ({ p, op })).filter((x) => x.p.text !== null);
  const os = probe(t.mcpu, found.map(({ op }) => [((t.vinterp << 24) | (op << 16) | 8 | (1 << 11)) >>> 0, VSRC >>> 0]));
  found.forEach(({ p, op }, i) => {
    ops[op] = { mnemonic: p.text!.split(' ')[0]!, opsel: os[i]!.text !== null && !os[i]!.invalid };
  });
  // Which non-VGPR source values LLVM accepts (same rule for every source position).
  const op0 = found[0]!.op;
  const vals = Array.from({ length: 256 }, (_, v) => v);
  const sv = probe(t.mcpu, vals.map((v) => [((t.vinterp << 24) | (op0 << 16) | 8) >>> 0, ((VSRC & ~0x1ff) | v) >>> 0, 0x3c00]));
  const srcOk = vals.filter((v) => sv[v]!.text !== null && !sv[v]!.invalid);
  return { ops, srcOk };
}

function ldsdirTable(t: InterpTarget): Record<number, { mnemonic: string; attr: boolean }> {
  const r = probe(t.mcpu, [0, 1, 2, 3].map((op) => [((t.ldsdir << 24) | (op << 20) | 8) >>> 0]));
  const out: Record<number, { mnemonic: string; attr: boolean }> = {};
  r.forEach((p, op) => {
    if (p.text) out[op] = { mnemonic: p.text.split(' ')[0]!, attr: p.text.includes('attr') };
  });
  return out;
}

export function generate(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const t of INTERP_TARGETS) {
    const vi = vinterpTable(t);
    files[t.vinterpTable] = header('gen-interp.ts', `${t.mcpu} VINTERP opcodes (dw0[31:24] = 0x${t.vinterp.toString(16)}) and the non-VGPR source values LLVM accepts.`) +
      `import type { VinterpOp } from './interp.js';\n\n` +
      `export const VINTERP_OPS: Readonly<Record<number, VinterpOp>> = {\n` +
      Object.entries(vi.ops).map(([op, e]) => `  ${op}: { mnemonic: '${e.mnemonic}', opsel: ${e.opsel} },`).join('\n') +
      `\n};\n\n/** Source values below 256 (non-VGPR) that LLVM prints without an "Invalid" remark. */\n` +
      `export const VINTERP_SRC_OK: readonly number[] = [${vi.srcOk.join(', ')}];\n`;
    const ld = ldsdirTable(t);
    files[t.ldsdirTable] = header('gen-interp.ts', `${t.mcpu} LDSDIR opcodes (dw0[31:24] = 0x${t.ldsdir.toString(16)}, op[21:20]).`) +
      `import type { LdsdirOp } from './interp.js';\n\n` +
      `export const LDSDIR_OPS: Readonly<Record<number, LdsdirOp>> = {\n` +
      Object.entries(ld).map(([op, e]) => `  ${op}: { mnemonic: '${e.mnemonic}', attr: ${e.attr} },`).join('\n') + `\n};\n`;

    const r = rng(0x1e7e);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
    const vprobes: number[][] = [];
    const srcChoices = [...vi.srcOk, 1, 106, 128, 240, 255, 254];
    for (const op of Object.keys(vi.ops).map(Number)) {
      for (let k = 0; k < 60; k++) {
        const s = [0, 1, 2].map(() => (r() < 0.8 ? 256 + Math.floor(r() * 256) : pick(srcChoices)));
        const mods0 = k < 3 ? 0 : Math.floor(r() * 0x100) << 8;
        const hi1 = k < 3 ? 0 : (Math.floor(r() * 32) << 27) >>> 0;
        const w0 = ((t.vinterp << 24) | (op << 16) | mods0 | Math.floor(r() * 256) | (r() < 0.05 ? 1 << 23 : 0)) >>> 0;
        vprobes.push([w0, (s[0]! | (s[1]! << 9) | (s[2]! << 18) | hi1) >>> 0, 0x3c00]);
      }
    }
    for (let op = 0; op < 128; op++) if (!vi.ops[op]) vprobes.push([((t.vinterp << 24) | (op << 16) | 1) >>> 0, VSRC >>> 0]);
    files[t.vinterpGolden] = formatGolden(goldenFrom(t.mcpu, vprobes, 40));

    const lprobes: number[][] = [];
    for (let k = 0; k < 400; k++) {
      const w = ((t.ldsdir << 24) | (Math.floor(r() * 4) << 20) | (Math.floor(r() * 16) << 16) | (Math.floor(r() * 256) << 8) | Math.floor(r() * 256)) >>> 0;
      lprobes.push([k % 10 === 9 ? (w | (Math.floor(r() * 3) + 1) << 22) >>> 0 : w]);
    }
    files[t.ldsdirGolden] = formatGolden(goldenFrom(t.mcpu, lprobes, 20));
  }
  return files;
}
