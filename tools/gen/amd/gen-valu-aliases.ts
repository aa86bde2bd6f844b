/**
 * Generator for src/amd/isa/valu-aliases.gen.ts: the VALU mnemonics llvm-mc accepts on a target
 * under another generation's name (on gfx1100: v_cmp_tru_f32 -> v_cmp_t_f32, v_ffbh_u32 ->
 * v_clz_i32_u32, v_mul_legacy_f32 -> v_mul_dx9_zero_f32, v_cvt_pkrtz_f16_f32 ->
 * v_cvt_pk_rtz_f16_f32...), read off LLVM.
 *
 * Candidates are the base mnemonics (no _e32/_e64/_dpp/_sdwa) of the other targets' VALU golden
 * files (test/golden/amd/<mcpu>/vop*.tsv, llvm-objdump-19's texts) that the target's own tables
 * lack. A few example lines of each are assembled by llvm-mc-19 for the target; when LLVM takes
 * one, gpusim's decoder of the target names the instruction it encoded, and the pair is an alias
 * when that is a VALU instruction of another name. The assembler then reads `alias` + any
 * encoding suffix as the instruction + that suffix.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LLVM_MC, llvmVersion } from '../llvm.js';
import { decodeAt, encodingFamily, type IsaTarget } from '../../../src/amd/isa/target.js';
import { targets, waveTarget } from '../../../src/amd/isa/targets.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const CLASSES = ['vop1', 'vop2', 'vop3', 'vop3sd', 'vopc', 'vop3p', 'vop1-dpp', 'vop2-dpp', 'vop3-dpp', 'vopc-dpp', 'vop2-w64', 'vop3-w64', 'vopc-w64'];
const MCPUS = ['gfx1100', 'gfx1030', 'gfx900'] as const;
const PER_MNEMONIC = 6;

/** A mnemonic without LLVM's encoding suffix. */
export function aliasBase(m: string): string {
  return m.replace(/(_e32|_e64|_e64_dpp|_dpp|_sdwa)$/, '');
}

/** Base mnemonics a target's decoder knows, from its own golden files. */
function knownBases(mcpu: string): Set<string> {
  const out = new Set<string>();
  for (const c of CLASSES) {
    const p = join(ROOT, 'test/golden/amd', mcpu, `${c}.tsv`);
    if (!existsSync(p)) continue;
    for (const line of readFileSync(p, 'utf8').split('\n')) {
      const cols = line.split('\t');
      if (cols.length >= 3 && cols[1]) out.add(aliasBase(cols[1].trim().split(/\s+/)[0]!));
    }
  }
  return out;
}

/** Example lines of the other targets' mnemonics the target lacks, by base mnemonic, for one wave size. */
function candidates(mcpu: string, wave: 32 | 64, known: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const other of MCPUS) {
    if (other === mcpu) continue;
    for (const c of CLASSES) {
      // wave32 text (vcc_lo, one SGPR masks) from GFX10+ files without -w64; wave64 text otherwise.
      const w64file = c.endsWith('-w64') || other === 'gfx900';
      if (w64file !== (wave === 64)) continue;
      const p = join(ROOT, 'test/golden/amd', other, `${c}.tsv`);
      if (!existsSync(p)) continue;
      for (const line of readFileSync(p, 'utf8').split('\n')) {
        const cols = line.split('\t');
        if (cols.length < 3 || !cols[1] || cols[2] === '') continue;
        const text = cols[1].trim();
        const base = aliasBase(text.split(/\s+/)[0]!);
        if (known.has(base)) continue;
        const list = out.get(base) ?? [];
        if (list.length >= PER_MNEMONIC || list.includes(text)) continue;
        list.push(text);
        out.set(base, list);
      }
    }
  }
  return out;
}

/** Assemble the examples with llvm-mc for the target; by alias base, the base gpusim decodes. */
function probe(mcpu: string, wave: 32 | 64, t: IsaTarget, ex: Map<string, string[]>): Map<string, string> {
  const keys: { base: string; text: string }[] = [];
  for (const [b, list] of [...ex].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) for (const text of list) keys.push({ base: b, text });
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-valias-'));
  const res = new Map<string, string>();
  try {
    const s = join(dir, 'a.s');
    writeFileSync(s, keys.map((k, i) => `L${i}:\n${k.text}\n`).join(''));
    const args = ['-arch=amdgcn', `-mcpu=${mcpu}`, '-show-encoding', s];
    if (mcpu !== 'gfx900') args.splice(2, 0, `-mattr=+wavefrontsize${wave}`);
    let out: string;
    try {
      out = execFileSync(LLVM_MC, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
    } catch (e) {
      const err = e as { stdout?: string; code?: string };
      if (err.code === 'ENOENT' || err.stdout === undefined) throw e;
      out = err.stdout; // llvm-mc exits 1 when it refuses a line; what it took is on stdout
    }
    let cur = -1;
    for (const line of out.split('\n')) {
      const l = /^L(\d+):$/.exec(line.trim());
      if (l) { cur = Number(l[1]); continue; }
      const m = /^(.*?)\s*; encoding: \[([^\]]*)\]/.exec(line.trim());
      if (cur < 0 || !m) continue;
      const k = keys[cur]!;
      cur = -1;
      if (res.has(k.base)) continue;
      const bytes = m[2]!.split(',').map((b) => Number(b.trim()));
      const words: number[] = [];
      for (let i = 0; i + 3 < bytes.length; i += 4) words.push((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0);
      let inst;
      try {
        inst = decodeAt(t, words, 0);
      } catch {
        continue;
      }
      if (encodingFamily(inst.encoding) !== 'VALU') continue;
      const to = aliasBase(inst.mnemonic);
      if (to !== k.base) res.set(k.base, to);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return res;
}

export function generate(): Record<string, string> {
  const lines = [
    '/**',
    ` * GENERATED by tools/gen/amd/gen-valu-aliases.ts from llvm-mc ${llvmVersion()}: do not edit.`,
    ' * VALU mnemonics of other generations that llvm-mc accepts on a target as one of its own',
    ' * instructions (base names: the assembler keeps any _e32/_e64/_dpp/_e64_dpp/_sdwa suffix).',
    ' */',
    '',
  ];
  for (const mcpu of MCPUS) {
    const known = knownBases(mcpu);
    const all = new Map<string, string>();
    for (const wave of mcpu === 'gfx900' ? [64 as const] : [32 as const, 64 as const]) {
      const t = waveTarget(targets[mcpu]!, wave)!;
      for (const [a, b] of probe(mcpu, wave, t, candidates(mcpu, wave, known))) {
        const prev = all.get(a);
        if (prev !== undefined && prev !== b) throw new Error(`gen-valu-aliases: ${mcpu} ${a} is ${prev} in one wave size and ${b} in the other`);
        all.set(a, b);
      }
    }
    lines.push(`export const ${mcpu.toUpperCase()}_VALU_ALIASES: Readonly<Record<string, string>> = {`);
    for (const [a, b] of [...all].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) lines.push(`  ${a}: '${b}',`);
    lines.push('};', '');
  }
  return { 'src/amd/isa/valu-aliases.gen.ts': lines.join('\n') };
}
