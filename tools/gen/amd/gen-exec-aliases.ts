/**
 * Generator for src/amd/target/aliases.gen.ts: which GFX9 (gfx900) and GFX10.3 (gfx1030)
 * mnemonics are GFX11 instructions under another name (s_load_dword -> s_load_b32, ds_read_b32 ->
 * ds_load_b32, v_ffbh_u32 -> v_clz_i32_u32, v_add_u32 -> v_add_nc_u32 ...), read off LLVM: one
 * example line per mnemonic (from the older target's golden files and the kernel fixtures'
 * llvm-objdump listings) is assembled by llvm-mc-19 for gfx1100, which accepts the old spelling as
 * an alias of the same instruction and prints the GFX11 name. Mnemonics LLVM refuses on gfx1100
 * get no entry (their semantics are defined per generation in src/amd/exec/pre-gfx11.ts).
 *
 * Inputs are a fixed list (the golden files of the classes below and the fixture listings) so
 * that new golden files for other classes do not change this table until they are added here.
 *
 * An alias must stay in its encoding family (a MUBUF load is never an SMEM one, whatever text
 * LLVM prints for it): the old instruction's words (golden or listing) are decoded with gpusim's
 * decoder of its target, the GFX11 words llvm-mc encodes are decoded with the GFX11 decoder, and
 * a pair whose encoding families or destination register files differ stops the generator.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cached, LLVM_MC, llvmVersion } from '../llvm.js';
import { decodeAt, encodingFamily, sameFirstFile, type IsaTarget } from '../../../src/amd/isa/target.js';
import { gfx9 } from '../../../src/amd/isa/gfx9/index.js';
import { gfx10 } from '../../../src/amd/isa/gfx10/index.js';
import { gfx11 } from '../../../src/amd/isa/gfx11/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

const CLASSES = ['sop1', 'sop2', 'sopc', 'sopk', 'sopp', 'smem', 'vop1', 'vop2', 'vop3', 'vop3sd', 'vopc', 'ds', 'mubuf', 'mtbuf', 'flat', 'global', 'scratch'];
const CPUS: readonly { mcpu: string; wave: string; target: IsaTarget }[] = [
  { mcpu: 'gfx1030', wave: '+wavefrontsize32', target: gfx10 },
  // gfx900 is wave64 only: its lane masks (vcc) are 64-bit, so probe gfx1100 in wave64.
  { mcpu: 'gfx900', wave: '+wavefrontsize64', target: gfx9 },
];

/** One example of an old mnemonic: its text and its encoding family (decoded from its words). */
interface Example {
  readonly text: string;
  readonly family: string;
}

/** The mnemonic without LLVM's encoding suffix (as the executor's registry keys it). */
export function baseOf(m: string): string {
  return m.replace(/_(e32|e64|dpp|sdwa|e64_dpp)$/, '').replace(/_e64$/, '');
}

/** Examples kept per mnemonic: an operand one target names differently (null, m0) may fail alone. */
const PER_MNEMONIC = 6;

/** A few examples per base mnemonic, in a deterministic order. */
function examples(mcpu: string, target: IsaTarget): Map<string, Example[]> {
  const ex = new Map<string, Example[]>();
  const add = (text: string, words: number[]) => {
    const t = text.trim();
    if (t === '' || t.startsWith('<unknown>')) return;
    const base = baseOf(t.split(/\s+/)[0]!);
    const list = ex.get(base) ?? [];
    if (list.length >= PER_MNEMONIC || list.some((e) => e.text === t)) return;
    let family: string;
    try {
      family = encodingFamily(decodeAt(target, words, 0).encoding);
    } catch {
      return; // a word gpusim's decoder does not take yet: no family to check against
    }
    list.push({ text: t, family });
    ex.set(base, list);
  };
  const hex = (s: string) => s.trim().split(/\s+/).map((w) => parseInt(w, 16) >>> 0);
  for (const c of CLASSES) {
    const p = join(ROOT, 'test/golden/amd', mcpu, `${c}.tsv`);
    if (!existsSync(p)) continue;
    for (const line of readFileSync(p, 'utf8').split('\n')) {
      const cols = line.split('\t');
      if (cols.length >= 3 && cols[2] !== '') add(cols[1]!, hex(cols[0]!));
    }
  }
  const dir = join(ROOT, 'kernels/bin', mcpu);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.objdump.txt')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const m = /^\t(\S.*?)\s*\/\/ [0-9A-Fa-f]+: ([0-9A-Fa-f ]+)$/.exec(line);
      if (m) add(m[1]!, hex(m[2]!));
    }
  }
  return ex;
}

/** What llvm-mc made of an example for gfx1100: the GFX11 base mnemonic, its family and text. */
interface Probe {
  readonly base: string;
  readonly family: string;
  readonly text: string;
  readonly from: Example;
}

/**
 * Assemble each example for gfx1100 (`-show-encoding`); returns, by old base mnemonic, the first
 * example LLVM accepted: the GFX11 instruction it encoded (decoded by gpusim's GFX11 decoder).
 */
function probeGfx11(ex: Map<string, Example[]>, wave: string): Map<string, Probe> {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-alias-'));
  try {
    const keys: { base: string; ex: Example }[] = [];
    for (const [k, list] of ex) for (const e of list) keys.push({ base: k, ex: e });
    const src = keys.map((k, i) => `L${i}:\n${k.ex.text}\n`).join('');
    const s = join(dir, 'a.s');
    writeFileSync(s, src);
    // Remembered in the LLVM answer cache (llvm.ts) by the arguments and the source.
    const out = cached(['exec-aliases', '-mcpu=gfx1100', `-mattr=${wave}`, src], () => {
      try {
        return execFileSync(LLVM_MC, ['-arch=amdgcn', '-mcpu=gfx1100', `-mattr=${wave}`, '-show-encoding', s], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
      } catch (e) {
        // llvm-mc exits 1 when any line is refused; what it accepted is still on stdout.
        const err = e as { stdout?: string; code?: string };
        if (err.code === 'ENOENT' || err.stdout === undefined) throw e;
        return err.stdout;
      }
    });
    const res = new Map<string, Probe>();
    let cur = -1;
    for (const line of out.split('\n')) {
      const l = /^L(\d+):$/.exec(line.trim());
      if (l) {
        cur = Number(l[1]);
        continue;
      }
      const t = line.trim();
      if (cur < 0 || t === '' || t.startsWith('.')) continue;
      const k = keys[cur]!;
      cur = -1;
      if (res.has(k.base)) continue;
      const m = /^(.*?)\s*; encoding: \[([^\]]*)\]/.exec(t);
      if (!m) throw new Error(`gen-exec-aliases: llvm-mc printed no encoding for '${k.ex.text}': ${t}`);
      const bytes = m[2]!.split(',').map((b) => Number(b.trim()));
      const words: number[] = [];
      for (let i = 0; i + 3 < bytes.length; i += 4) words.push((bytes[i]! | bytes[i + 1]! << 8 | bytes[i + 2]! << 16 | bytes[i + 3]! << 24) >>> 0);
      const inst = decodeAt(gfx11, words, 0);
      res.set(k.base, { base: baseOf(inst.mnemonic), family: encodingFamily(inst.encoding), text: m[1]!, from: k.ex });
    }
    return res;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function generate(): Record<string, string> {
  const lines: string[] = [
    '/**',
    ` * GENERATED by tools/gen/amd/gen-exec-aliases.ts from llvm-mc ${llvmVersion()}: do not edit.`,
    ' * GFX9/GFX10.3 base mnemonics that llvm-mc accepts for gfx1100 as another GFX11 instruction:',
    ' * the executor binds them to that instruction\'s semantics.',
    ' */',
    '',
  ];
  for (const { mcpu, wave, target } of CPUS) {
    const ex = examples(mcpu, target);
    const got = probeGfx11(ex, wave);
    for (const [a, p] of got) {
      // An alias binds the old instruction's decoded fields to the GFX11 semantics: same family,
      // and the first operand (destination or data) in the same register file.
      if (p.family !== p.from.family || !sameFirstFile(p.from.text, p.text)) {
        throw new Error(`gen-exec-aliases: ${mcpu} ${a} (${p.from.family}, '${p.from.text}') would become ${p.base} (${p.family}, '${p.text}'): another encoding family or operand kind`);
      }
    }
    const pairs = [...got].map(([a, p]) => [a, p.base] as const).filter(([a, b]) => a !== b).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    lines.push(`export const ${mcpu.toUpperCase()}_ALIASES: Readonly<Record<string, string>> = {`);
    for (const [a, b] of pairs) lines.push(`  ${a}: '${b}',`);
    lines.push('};', '');
  }
  return { 'src/amd/target/aliases.gen.ts': lines.join('\n') };
}
