/**
 * Thin wrappers over the LLVM tools that are gpusim's oracles (llvm-mc-19, llvm-objdump-19).
 * Only generators and golden-file builders use this; tests never need LLVM.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const LLVM_MC = process.env.LLVM_MC ?? 'llvm-mc-19';
export const LLVM_OBJDUMP = process.env.LLVM_OBJDUMP ?? 'llvm-objdump-19';

/**
 * What the LLVM tools printed, remembered by a hash of everything that decides it: the tools'
 * own `--version` text, the arguments and the input bytes. The generators send the same probes
 * on every run (`npm test` regenerates every table to compare), so a second run reads the
 * answers instead of running llvm-mc/llvm-objdump again (the valu generator: about 60 s of tool
 * time). Gzipped files in the user's cache directory ($XDG_CACHE_HOME/gpusim/llvm or
 * ~/.cache/gpusim/llvm, beside the CLI's code cache) so that a fresh clone on the same machine
 * reuses them, as ccache does; GPUSIM_LLVM_CACHE=DIR moves it, =0 turns it off. A different LLVM build prints a different --version, so its answers are its own.
 * Another tool's answers (the r600 generator's clang-19 compiles) go in with that tool's
 * `--version` text and every input file's bytes among `parts`.
 */
const CACHE_DIR = process.env.GPUSIM_LLVM_CACHE === '0' ? null
  : process.env.GPUSIM_LLVM_CACHE ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'gpusim', 'llvm');
let toolIdentity: string | undefined;

export function cached(parts: readonly (string | Uint8Array)[], run: () => string): string {
  if (CACHE_DIR === null) return run();
  toolIdentity ??= [LLVM_MC, LLVM_OBJDUMP].map((t) => {
    const r = spawnSync(t, ['--version'], { encoding: 'utf8' });
    return `${t}\n${r.stdout ?? ''}`;
  }).join('\n');
  const h = createHash('sha256').update(toolIdentity);
  for (const p of parts) h.update(`\0${p.length}\0`).update(p);
  const file = join(CACHE_DIR, h.digest('hex'));
  try {
    return gunzipSync(readFileSync(file)).toString('utf8');
  } catch {
    // not remembered yet
  }
  const out = run();
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, gzipSync(out, { level: 1 }));
    renameSync(tmp, file);
  } catch {
    // a read-only tree: the answer is simply not remembered
  }
  return out;
}

/** True when the LLVM tools are installed (tests that regenerate tables skip otherwise). */
export function haveLlvm(): boolean {
  const r = spawnSync(LLVM_MC, ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

export function llvmVersion(): string {
  const r = spawnSync(LLVM_MC, ['--version'], { encoding: 'utf8' });
  const m = /LLVM version ([0-9.]+)/.exec(r.stdout ?? '');
  return m ? m[1]! : 'unknown';
}

/** Result of disassembling one probe: LLVM's text (null for `<unknown>`) and the bytes it consumed. */
export interface ProbeResult {
  readonly text: string | null;
  readonly size: number;
  /** LLVM printed a `; warning` or an inline `/*Invalid...*\/` remark: decodable, but not legal. */
  readonly invalid: boolean;
}

const SLOT_BYTES = 32; // longest GFX instruction is well under 16 bytes; the rest is s_nop padding
const PAD = 0xbf800000; // s_nop 0 on GFX10/GFX11 (SOPP op 0)

/**
 * Disassemble many independent probes in one llvm-objdump run. Each probe is a list of dwords
 * placed at the start of its own 32-byte slot, padded with s_nop so decoding realigns at the next
 * slot whatever the probe's length turns out to be. Returns LLVM's text for the instruction that
 * starts each slot, whitespace-normalised, or null when LLVM prints `<unknown>`.
 */
export function disassembleProbes(mcpu: string, probes: readonly (readonly number[])[], padWord = PAD, mattr = ''): ProbeResult[] {
  const out: ProbeResult[] = [];
  const CHUNK = 20000;
  for (let i = 0; i < probes.length; i += CHUNK) out.push(...disassembleChunk(mcpu, probes.slice(i, i + CHUNK), padWord, mattr));
  return out;
}

/** The `-mattr` argument for a feature string (e.g. `+wavefrontsize64`), or none. */
function mattrArgs(mattr: string): string[] {
  return mattr ? [`-mattr=${mattr}`] : [];
}

function disassembleChunk(mcpu: string, probes: readonly (readonly number[])[], padWord: number, mattr: string): ProbeResult[] {
  const buf = Buffer.alloc(probes.length * SLOT_BYTES);
  probes.forEach((p, i) => {
    if (p.length * 4 > 24) throw new Error('probe longer than 24 bytes');
    for (let k = 0; k < SLOT_BYTES / 4; k++) buf.writeUInt32LE((k < p.length ? p[k]! : padWord) >>> 0, i * SLOT_BYTES + k * 4);
  });
  // The answer as parsed (a JSON line per probe), remembered beside LLVM's text and keyed by the
  // parser's own source as well: a chunk's text is ~8 lines a probe (the s_nop padding), and
  // reading them took most of the valu and memory generators' time once LLVM's answers were cached.
  const parsed = cached(['disassembleProbes parsed', PARSER_SOURCE, mcpu, mattr, buf], () => JSON.stringify(parseChunk(objdumpChunk(mcpu, buf, mattr), probes.length)));
  return JSON.parse(parsed) as ProbeResult[];
}

/** llvm-objdump's text for the probe slots in `buf` (cached: see `cached`). */
function objdumpChunk(mcpu: string, buf: Buffer, mattr: string): string {
  return cached(['disassembleProbes', mcpu, mattr, buf], () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-probe-'));
    try {
      const bin = join(dir, 'p.bin');
      writeFileSync(bin, buf);
      const obj = join(dir, 'p.o');
      const s = join(dir, 'p.s');
      writeFileSync(s, `.text\n.incbin "${bin}"\n`);
      execFileSync(LLVM_MC, ['-arch=amdgcn', `-mcpu=${mcpu}`, '-filetype=obj', '-o', obj, s]);
      return execFileSync(LLVM_OBJDUMP, ['-d', `--mcpu=${mcpu}`, ...mattrArgs(mattr).map((a) => '-' + a), '--no-show-raw-insn', obj], {
        encoding: 'utf8', maxBuffer: 1 << 30,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** What LLVM printed for each of `n` probe slots (disassembleProbes). */
function parseChunk(text: string, n: number): ProbeResult[] {
  // Only a slot's first instruction and the address after it matter: the s_nop padding (most of
  // the lines) is read for its address alone, without the full pattern or normalizeText (which
  // took most of the valu and memory generators' time on 20,000-probe chunks).
  const byAddr = new Map<number, string>();
  const warned = new Set<number>();
  // The address after each slot start's first line (its size), and the slot start waiting for it.
  const nextOf = new Map<number, number>();
  let waiting = -1;
  const reached = (addr: number) => {
    if (waiting >= 0) nextOf.set(waiting, addr);
    waiting = -1;
  };
  for (const line of text.split('\n')) {
    // llvm-objdump-19 (AMDGPU, --no-show-raw-insn) prints `\t<text>  // <ADDR>: <RAW> [<label>] [; warnings]`.
    const k = line.indexOf('// ');
    if (k >= 0 && /^[0-9A-Fa-f]{6,}:/.test(line.slice(k + 3, k + 20))) {
      const a = parseInt(line.slice(k + 3, line.indexOf(':', k + 3)), 16);
      if (a % SLOT_BYTES !== 0) {
        reached(a);
        continue;
      }
    }
    const m = /^\s*([0-9a-f]+):\s*(.*)$/.exec(line);
    const c = m ? null : /^\s+(.*?)\s*\/\/ ([0-9A-Fa-f]{6,}):(?: [0-9A-Fa-f]{8})+(\s.*)?$/.exec(line);
    if (!m && !c) continue;
    const addr = parseInt(m ? m[1]! : c![2]!, 16);
    reached(addr);
    const t = m ? m[2]! : c![1]!;
    byAddr.set(addr, normalizeText(t));
    if (t.includes('/*') || /;/.test(c?.[3] ?? '')) warned.add(addr);
    if (!nextOf.has(addr) && waiting !== addr) waiting = addr;
  }
  const res: ProbeResult[] = [];
  for (let i = 0; i < n; i++) {
    const a = i * SLOT_BYTES;
    const t = byAddr.get(a);
    const next = nextOf.get(a) ?? a + 4;
    if (t === undefined) throw new Error(`objdump produced nothing at slot ${i}`);
    const unknown = t.startsWith('<unknown>') || t.startsWith('.long ');
    res.push({ text: unknown ? null : t, size: next - a, invalid: !unknown && warned.has(a) });
  }
  return res;
}

/** Strip the trailing `// addr: ...` comment objdump adds and collapse whitespace. */
export function normalizeText(t: string): string {
  let s = t;
  const c = s.indexOf(' //');
  if (c >= 0) s = s.slice(0, c);
  const sc = s.indexOf(' ;');
  if (sc >= 0) s = s.slice(0, sc);
  return s.replace(/\s+/g, ' ').trim();
}

/** The probe parser's own code: part of the key of its cached answers, so a changed parser parses again. */
const PARSER_SOURCE = `${parseChunk.toString()}\n${normalizeText.toString()}\n${SLOT_BYTES}`;

/** Result of assembling one line with llvm-mc: its bytes as dwords, or the error LLVM gave. */
export interface AsmResult {
  readonly words: number[] | null;
  readonly error?: string;
}

/** Assemble each line independently (one llvm-mc run); `mattr` e.g. `+wavefrontsize64`. */
export function assembleLines(mcpu: string, lines: readonly string[], mattr = ''): AsmResult[] {
  const input = lines.join('\n') + '\n';
  const r = JSON.parse(cached(['assembleLines', mcpu, mattr, input], () => {
    const x = spawnSync(LLVM_MC, ['-arch=amdgcn', `-mcpu=${mcpu}`, ...mattrArgs(mattr), '-show-encoding'], {
      input, encoding: 'utf8', maxBuffer: 1 << 30,
    });
    if (x.error) throw x.error;
    return JSON.stringify({ stdout: x.stdout ?? '', stderr: x.stderr ?? '' });
  })) as { stdout: string; stderr: string };
  const errs = new Map<number, string>();
  for (const m of (r.stderr ?? '').matchAll(/<stdin>:(\d+):\d+: error: ([^\n]*)/g)) {
    const ln = Number(m[1]) - 1;
    if (!errs.has(ln)) errs.set(ln, m[2]!);
  }
  const encs: number[][] = [];
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /encoding: \[([^\]]*)\]/.exec(line);
    if (!m) continue;
    const bytes = m[1]!.split(',').map((x) => parseInt(x, 16));
    const words: number[] = [];
    for (let i = 0; i + 3 < bytes.length; i += 4) words.push((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0);
    encs.push(words);
  }
  const out: AsmResult[] = [];
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    if (errs.has(i)) out.push({ words: null, error: errs.get(i)! });
    else if (lines[i]!.trim() === '') out.push({ words: null, error: 'empty' });
    else out.push({ words: encs[k++] ?? null });
  }
  if (k !== encs.length) throw new Error(`llvm-mc output misaligned: ${k} used of ${encs.length}`);
  return out;
}
