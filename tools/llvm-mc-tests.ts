/**
 * Run LLVM's own MC tests for AMDGPU (llvm/test/MC/AMDGPU and llvm/test/MC/Disassembler/AMDGPU,
 * from the llvm-toolchain-19 source package) against gpusim's assembler and disassembler.
 *
 *     node dist/tools/llvm-mc-tests.js <llvm/test/MC> [--json] [--failures N] [--file SUBSTR] [--files]
 *
 * Each file's RUN lines are read; a run counts when it is `llvm-mc -triple=amdgcn... -mcpu=` one of
 * the targets gpusim models (gfx900, gfx1030, gfx1100; wave32/wave64 through -mattr) and pipes
 * into FileCheck. Its check prefixes select the CHECK lines that apply, and each of them becomes
 * one expectation:
 *  - assembly: a check holding `encoding: [...]` after a source line: our encoding of that line
 *    must equal it;
 *  - rejects: a check holding `error:` for a source line: we must reject that line;
 *  - disassembly (-disassemble runs): a check next to a line of bytes: our text and encoding of
 *    those bytes must match it (FileCheck's syntax: substring, `{{regex}}`, whitespace runs equal),
 *    or for `invalid instruction encoding` we must fail to decode them.
 * Runs under other -mattr values than the wave size (and -real-true16, LLVM 19's default) are
 * left out, as are llvm-objdump runs. The figures are per file, per target and in total.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { targets, waveTarget } from '../src/amd/isa/targets.js';
import { assembleLine, decodeAt, printInst, type IsaTarget } from '../src/amd/isa/target.js';

export interface Tally { matched: number; total: number }
export interface Counts { asm: Tally; disasm: Tally; reject: Tally }
export interface Failure {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly kind: 'asm' | 'disasm' | 'reject';
  readonly input: string;
  readonly expected: string;
  readonly got: string;
}
export interface McReport {
  readonly files: { file: string; counts: Counts }[];
  readonly targets: Record<string, Counts>;
  readonly total: Counts;
  readonly failures: Failure[];
}

const zero = (): Counts => ({ asm: { matched: 0, total: 0 }, disasm: { matched: 0, total: 0 }, reject: { matched: 0, total: 0 } });
function add(into: Counts, c: Counts): void {
  for (const k of ['asm', 'disasm', 'reject'] as const) {
    into[k].matched += c[k].matched;
    into[k].total += c[k].total;
  }
}

/** One llvm-mc run of a test file that gpusim can stand in for. */
interface Run {
  readonly mcpu: string;
  readonly wave: 32 | 64;
  readonly disassemble: boolean;
  readonly prefixes: ReadonlySet<string>;
  /** -mattr=+real-true16: checks naming 16-bit register halves (`v1.l`, `v1.h`) are left out. */
  readonly true16: boolean;
}

const MODELLED = new Set(['gfx900', 'gfx1030', 'gfx1100']);
/** -mattr values that leave the instruction set as gpusim models it. */
const NEUTRAL_ATTRS = new Set(['+wavefrontsize32', '-wavefrontsize32', '+wavefrontsize64', '-wavefrontsize64', '-real-true16', '+real-true16']);
/** A 16-bit register half, which only the real-true16 syntax has. */
const HALF_REG = /\bv\d+\.[lh]\b|\bv\[\d+\]\.[lh]\b/;

/** The RUN lines of a file, continuation lines (`\` at the end) joined. */
export function runLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (const l of lines) {
    const m = /^\s*(?:\/\/|#|;)\s*RUN:\s?(.*)$/.exec(l);
    if (!m) {
      if (cur !== null) { out.push(cur); cur = null; }
      continue;
    }
    let body = m[1]!.trimEnd();
    const cont = body.endsWith('\\');
    if (cont) body = body.slice(0, -1);
    cur = cur === null ? body : `${cur} ${body}`;
    if (!cont) { out.push(cur); cur = null; }
  }
  if (cur !== null) out.push(cur);
  return out;
}

/** The run a RUN line describes, or null when it is not an llvm-mc run on a modelled target. */
export function parseRun(cmd: string): Run | null {
  const stages = cmd.split('|').map((s) => s.trim());
  const mc = stages[0]!.replace(/^not\s+/, '');
  if (!/^llvm-mc\b/.test(mc)) return null;
  const fc = stages.find((s) => /^FileCheck\b/.test(s));
  if (!fc) return null;
  const triple = /(?:-triple[= ]|-arch[= ])(\S+)/.exec(mc)?.[1];
  if (!triple || !/^amdgcn/.test(triple)) return null;
  const mcpu = /-mcpu[= ](\S+)/.exec(mc)?.[1];
  if (!mcpu || !MODELLED.has(mcpu)) return null;
  const attrs = [...mc.matchAll(/-mattr[= ](\S+)/g)].flatMap((m) => m[1]!.toLowerCase().split(','));
  if (attrs.some((a) => !NEUTRAL_ATTRS.has(a))) return null;
  if (/-filetype[= ]obj/.test(mc)) return null;
  const disassemble = /(?:^|\s)--?disassemble\b/.test(mc);
  if (!disassemble && !/-show-encoding/.test(mc) && !/2>&1/.test(cmd)) return null;
  let wave: 32 | 64 = mcpu === 'gfx900' ? 64 : 32;
  if (attrs.includes('+wavefrontsize64')) wave = 64;
  if (attrs.includes('+wavefrontsize32')) wave = 32;
  if (mcpu === 'gfx900' && wave === 32) return null;
  const prefixes = new Set<string>();
  for (const m of fc.matchAll(/--?check-prefix(?:es)?(?:=|\s+)(\S+)/g)) for (const p of m[1]!.split(',')) prefixes.add(p);
  if (prefixes.size === 0) prefixes.add('CHECK');
  return { mcpu, wave, disassemble, prefixes, true16: attrs.includes('+real-true16') };
}

interface Check {
  readonly line: number; // 0-based line index in the file
  readonly prefix: string;
  readonly suffix: string;
  readonly text: string;
}

const CHECK_RE = /^\s*(?:\/\/|#|;)+\s*([A-Za-z0-9_-]+?)(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:(.*)$/;

function checksOf(lines: readonly string[], prefixes: ReadonlySet<string>): Check[] {
  const out: Check[] = [];
  lines.forEach((l, i) => {
    const m = CHECK_RE.exec(l);
    if (!m || !prefixes.has(m[1]!)) return;
    out.push({ line: i, prefix: m[1]!, suffix: m[2] ?? '', text: m[3]!.trim() });
  });
  return out;
}

/** FileCheck pattern -> RegExp (whitespace runs match any whitespace run; unanchored). */
export function patternRegex(pat: string): RegExp {
  let re = '';
  let i = 0;
  while (i < pat.length) {
    if (pat.startsWith('{{', i)) {
      const j = pat.indexOf('}}', i + 2);
      if (j < 0) { re += esc(pat.slice(i)); break; }
      re += `(?:${pat.slice(i + 2, j)})`;
      i = j + 2;
    } else if (pat.startsWith('[[', i)) {
      const j = pat.indexOf(']]', i + 2);
      if (j < 0) { re += esc(pat.slice(i)); break; }
      const inner = pat.slice(i + 2, j);
      const c = inner.indexOf(':');
      re += inner.startsWith('@LINE') ? '\\d+' : c >= 0 ? `(?:${inner.slice(c + 1)})` : '.*?';
      i = j + 2;
    } else if (/\s/.test(pat[i]!)) {
      while (i < pat.length && /\s/.test(pat[i]!)) i++;
      re += '\\s+';
    } else {
      re += esc(pat[i]!);
      i++;
    }
  }
  try {
    return new RegExp(re);
  } catch {
    return new RegExp(esc(pat));
  }
}
function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The bytes of an `encoding: [..]` check as a regex over `[0x..,0x..]` (fixup bytes match any byte). */
/** `encoding: [..]`, or a check that is nothing but the bracketed bytes (older files). */
const ENC_RE = /(?:encoding:\s*|^)\[((?:0x[0-9a-fA-F]{1,2}|[A-Z]|\{\{[^}]*\}\})(?:\s*,\s*(?:0x[0-9a-fA-F]{1,2}|[A-Z]|\{\{[^}]*\}\}))*)\]/;
function encodingRegex(text: string): RegExp | null {
  const m = ENC_RE.exec(text);
  if (!m) return null;
  const src = m[1]!.split(',').map((t) => t.trim()).map((t) =>
    /^0x[0-9a-f]{1,2}$/i.test(t) ? `0x${t.slice(2).toLowerCase().padStart(2, '0')}` : /^[A-Z]$/.test(t) ? '0x[0-9a-f]{2}' : patternRegex(t).source).join(',');
  return new RegExp(`^\\[${src}\\]$`);
}
/** The literal bytes of an `encoding: [..]` check, or null when it holds fixups or patterns. */
function encodingBytes(text: string): number[] | null {
  const m = ENC_RE.exec(text);
  if (!m) return null;
  const out: number[] = [];
  for (const t of m[1]!.split(',')) {
    const s = t.trim();
    if (!/^0x[0-9a-f]{1,2}$/i.test(s)) return null;
    out.push(Number(s));
  }
  return out;
}

const encText = (bytes: readonly number[]): string => `[${bytes.map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(',')}]`;
function wordBytes(words: readonly number[]): number[] {
  const out: number[] = [];
  for (const w of words) out.push(w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, (w >>> 24) & 0xff);
  return out;
}

/** Strip a source line's comment; null when nothing assemblable is left (blank, directive, label). */
function sourceInstruction(l: string): string | null {
  let s = l;
  for (const c of ['//', ';']) {
    const k = s.indexOf(c);
    if (k >= 0) s = s.slice(0, k);
  }
  s = s.trim();
  if (s === '' || s.startsWith('.') || s.startsWith('#')) return null;
  if (/^[A-Za-z_.$][\w.$]*\s*:(?!:)\s*$/.test(s) || /^[A-Za-z_.$][\w.$]*\s*=/.test(s)) return null;
  return s;
}

/**
 * The source lines next to a check within its paragraph (no blank line between): the nearest above
 * and the nearest below, or null.
 */
function neighbours(c: Check, lines: readonly string[], isSource: (i: number) => boolean): { p: number | null; n: number | null } {
  let p: number | null = null;
  let n: number | null = null;
  for (let i = c.line - 1; i >= 0 && lines[i]!.trim() !== ''; i--) if (isSource(i)) { p = i; break; }
  for (let i = c.line + 1; i < lines.length && lines[i]!.trim() !== ''; i++) if (isSource(i)) { n = i; break; }
  return { p, n };
}

/**
 * The source line a check is about: `[[@LINE+-N]]` when it says; else the source line in its
 * paragraph, above it (most files) or below it (files that put the checks first, as `before` says).
 */
function subjectLine(c: Check, lines: readonly string[], isSource: (i: number) => boolean, before: boolean): number | null {
  const at = /\[\[@LINE([+-]\d+)?\]\]/.exec(c.text);
  if (at) return c.line + Number(at[1] ?? 0);
  const { p, n } = neighbours(c, lines, isSource);
  if (p !== null && n !== null) return before ? n : p;
  if (p !== null || n !== null) return p ?? n;
  for (let i = c.line - 1; i >= 0; i--) if (isSource(i)) return i;
  return null;
}

interface Ctx { file: string; failures: Failure[]; maxFailures: number }
function fail(ctx: Ctx, f: Failure): void {
  if (ctx.failures.length < ctx.maxFailures) ctx.failures.push(f);
}

function targetOf(run: Run): IsaTarget {
  const base = targets[run.mcpu]!;
  return waveTarget(base, run.wave)!;
}
const targetName = (run: Run): string => `${run.mcpu}/w${run.wave}`;

/** One assembler test file under one run. */
function asmRun(lines: readonly string[], run: Run, counts: Counts, ctx: Ctx): void {
  const t = targetOf(run);
  const src = lines.map((l) => (CHECK_RE.test(l) || /^\s*(\/\/|#|;)/.test(l) ? null : sourceInstruction(l)));
  const memo = new Map<number, number[] | Error>();
  const ours = (i: number): number[] | Error => {
    let r = memo.get(i);
    if (r === undefined) {
      try {
        r = assembleLine(t, src[i]!, i + 1);
      } catch (e) {
        r = e instanceof Error ? e : new Error(String(e));
      }
      memo.set(i, r);
    }
    return r;
  };
  let lastError = false;
  const isSource = (k: number): boolean => src[k] !== null;
  const checks = checksOf(lines, run.prefixes);
  // Whether this file writes its checks before the line they are about.
  let above = 0;
  let below = 0;
  for (const c of checks) {
    if (/\[\[@LINE/.test(c.text)) continue;
    const { p, n } = neighbours(c, lines, isSource);
    if (p !== null && n === null) above++;
    if (n !== null && p === null) below++;
  }
  const before = below > above;
  for (const c of checks) {
    if (c.suffix === '-NOT') continue;
    if (c.suffix === '-NEXT' && lastError) continue;
    lastError = false;
    const isErr = /(^|\s|:)error:/.test(c.text);
    const enc = isErr ? null : encodingRegex(c.text);
    if (!isErr && !enc) continue;
    lastError = isErr;
    const i = subjectLine(c, lines, isSource, before);
    if (i === null || i < 0 || i >= lines.length || src[i] === null) continue;
    if (run.true16 && HALF_REG.test(src[i]!)) continue;
    const r = ours(i);
    if (isErr) {
      counts.reject.total++;
      if (r instanceof Error) counts.reject.matched++;
      else fail(ctx, { file: ctx.file, line: i + 1, target: targetName(run), kind: 'reject', input: src[i]!, expected: c.text, got: encText(wordBytes(r)) });
    } else {
      counts.asm.total++;
      const got = r instanceof Error ? `error: ${r.message}` : encText(wordBytes(r));
      if (!(r instanceof Error) && enc!.test(got)) counts.asm.matched++;
      else fail(ctx, { file: ctx.file, line: i + 1, target: targetName(run), kind: 'asm', input: src[i]!, expected: `[${ENC_RE.exec(c.text)![1]!}]`, got });
    }
  }
}

/** Our reading of one line of bytes: instructions as `text ; encoding: [..]`, or null where decoding failed. */
interface Decoded { readonly start: number; readonly bytes: number[]; readonly out: string | null }
function decodeLine(t: IsaTarget, bytes: readonly number[]): Decoded[] {
  const words: number[] = [];
  for (let k = 0; k + 3 < bytes.length; k += 4) words.push((bytes[k]! | (bytes[k + 1]! << 8) | (bytes[k + 2]! << 16) | (bytes[k + 3]! << 24)) >>> 0);
  const out: Decoded[] = [];
  let i = 0;
  while (i < words.length) {
    try {
      const inst = decodeAt(t, words, i);
      const n = inst.size / 4;
      if (i + n > words.length) throw new Error('past end');
      const b = bytes.slice(i * 4, (i + n) * 4);
      out.push({ start: i * 4, bytes: b, out: `${printInst(t, inst)} ; encoding: ${encText(b)}` });
      i += n;
    } catch {
      out.push({ start: i * 4, bytes: bytes.slice(i * 4, i * 4 + 4), out: null });
      i += 1;
    }
  }
  if (bytes.length % 4 !== 0) out.push({ start: words.length * 4, bytes: bytes.slice(words.length * 4), out: null });
  return out;
}

function parseBytes(l: string): number[] | null {
  let s = l;
  for (const c of ['#', '//', ';']) {
    const k = s.indexOf(c);
    if (k >= 0) s = s.slice(0, k);
  }
  s = s.trim().replace(/^\[|\]$/g, '');
  if (s === '') return null;
  const toks = s.split(/[\s,]+/).filter((x) => x !== '');
  const out: number[] = [];
  for (const tok of toks) {
    if (!/^(0x[0-9a-f]+|[0-9]+)$/i.test(tok)) return null;
    out.push(Number(tok) & 0xff);
  }
  return out;
}

function indexOfSeq(hay: readonly number[], needle: readonly number[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/** One disassembler test file under one run. */
function disasmRun(lines: readonly string[], run: Run, counts: Counts, ctx: Ctx): void {
  const t = targetOf(run);
  const bytesAt = lines.map((l) => parseBytes(l));
  const byteLines = bytesAt.flatMap((b, i) => (b ? [i] : []));
  if (byteLines.length === 0) return;
  const decoded = new Map<number, Decoded[]>();
  const dec = (i: number): Decoded[] => {
    let d = decoded.get(i);
    if (!d) decoded.set(i, (d = decodeLine(t, bytesAt[i]!)));
    return d;
  };
  const checks = checksOf(lines, run.prefixes).filter((c) => c.suffix !== '-NOT' && c.suffix !== '-EMPTY' && c.text !== '');
  const prevBytes = (i: number): number | null => { for (let k = i - 1; k >= 0; k--) if (bytesAt[k]) return k; return null; };
  const nextBytes = (i: number): number | null => { for (let k = i + 1; k < lines.length; k++) if (bytesAt[k]) return k; return null; };
  // Which side of its bytes a check sits on in this file, from the checks whose encoding says.
  let before = 0;
  let after = 0;
  for (const c of checks) {
    const e = encodingBytes(c.text);
    if (!e) continue;
    const n = nextBytes(c.line);
    const p = prevBytes(c.line);
    if (n !== null && indexOfSeq(bytesAt[n]!, e) >= 0) before++;
    else if (p !== null && indexOfSeq(bytesAt[p]!, e) >= 0) after++;
  }
  const checkFirst = before > after;
  /** Checks without an encoding on a line, consumed in order. */
  const used = new Map<number, number>();
  for (const c of checks) {
    const invalid = /invalid instruction encoding/.test(c.text);
    if (!invalid && /(^|\s)(warning|error|note):/.test(c.text)) continue;
    if (run.true16 && HALF_REG.test(c.text)) continue;
    const e = encodingBytes(c.text);
    const p = prevBytes(c.line);
    const n = nextBytes(c.line);
    let line: number | null = null;
    let item: Decoded | undefined;
    if (e) {
      const cands = checkFirst ? [n, p] : [p, n];
      for (const k of cands) {
        if (k === null) continue;
        const at = indexOfSeq(bytesAt[k]!, e);
        if (at < 0) continue;
        line = k;
        item = dec(k).find((d) => d.start === at);
        break;
      }
    }
    if (line === null) {
      // The bytes in the check's paragraph; when both sides have some, the file's habit.
      const para = (k: number | null, dir: -1 | 1): boolean => {
        if (k === null) return false;
        for (let i = c.line + dir; i !== k; i += dir) if (lines[i]!.trim() === '') return false;
        return true;
      };
      const pIn = para(p, -1);
      const nIn = para(n, 1);
      line = pIn && !nIn ? p : nIn && !pIn ? n : checkFirst ? n : p;
      if (line === null) continue;
      const k = used.get(line) ?? 0;
      used.set(line, k + 1);
      item = dec(line)[k];
    }
    counts.disasm.total++;
    const input = encText(bytesAt[line]!);
    if (invalid) {
      const d = item ?? dec(line)[0];
      if (!d || d.out === null) counts.disasm.matched++;
      else fail(ctx, { file: ctx.file, line: line + 1, target: targetName(run), kind: 'disasm', input, expected: c.text, got: d.out });
      continue;
    }
    // The text only: llvm-mc -disassemble -show-encoding prints the encoding of the instruction
    // re-encoded (default fields set), which is the assembler's business, not the decoder's.
    const ours = item?.out == null ? null : item.out.replace(/ ; encoding: .*$/, '');
    const want = c.text.replace(/\s*;\s*encoding:.*$/, '').trim();
    if (ours !== null && new RegExp(`^(?:${patternRegex(want).source})$`).test(ours.replace(/\s+/g, ' ').trim())) counts.disasm.matched++;
    else fail(ctx, { file: ctx.file, line: line + 1, target: targetName(run), kind: 'disasm', input, expected: c.text, got: ours ?? '<invalid>' });
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(s|txt)$/.test(e)) out.push(p);
  }
  return out;
}

/** Run every AMDGPU MC test under `mcDir` (llvm/test/MC). */
export function runMcTests(mcDir: string, opts: { maxFailures?: number; filter?: string } = {}): McReport {
  const ctx: Ctx = { file: '', failures: [], maxFailures: opts.maxFailures ?? 0 };
  const files: { file: string; counts: Counts }[] = [];
  const byTarget: Record<string, Counts> = {};
  const total = zero();
  const dirs = [join(mcDir, 'AMDGPU'), join(mcDir, 'Disassembler', 'AMDGPU')];
  for (const d of dirs) {
    let list: string[];
    try {
      list = walk(d);
    } catch {
      continue;
    }
    for (const f of list) {
      const rel = relative(mcDir, f);
      if (opts.filter && !rel.includes(opts.filter)) continue;
      ctx.file = rel;
      const lines = readFileSync(f, 'utf8').split('\n');
      const counts = zero();
      for (const cmd of runLines(lines)) {
        const run = parseRun(cmd);
        if (!run) continue;
        const c = zero();
        if (run.disassemble) disasmRun(lines, run, c, ctx);
        else asmRun(lines, run, c, ctx);
        add(counts, c);
        add((byTarget[targetName(run)] ??= zero()), c);
      }
      if (counts.asm.total + counts.disasm.total + counts.reject.total === 0) continue;
      files.push({ file: rel, counts });
      add(total, counts);
    }
  }
  return { files, targets: byTarget, total, failures: ctx.failures };
}

const fmt = (t: Tally): string => `${t.matched}/${t.total}`;

function main(argv: string[]): number {
  const args = argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? process.env.GPUSIM_LLVM_MC_TESTS;
  if (!dir) {
    process.stderr.write('usage: llvm-mc-tests <llvm/test/MC> [--json] [--files] [--failures N] [--file SUBSTR]\n');
    return 2;
  }
  const nf = args.indexOf('--failures');
  const maxFailures = nf >= 0 ? Number(args[nf + 1]) : 0;
  const ff = args.indexOf('--file');
  const filter = ff >= 0 ? args[ff + 1] : undefined;
  const r = runMcTests(dir, { maxFailures, ...(filter ? { filter } : {}) });
  if (args.includes('--json')) {
    process.stdout.write(JSON.stringify(r, null, 1) + '\n');
    return 0;
  }
  if (args.includes('--files')) {
    for (const f of r.files) {
      const c = f.counts;
      process.stdout.write(`${f.file}\tasm ${fmt(c.asm)}\tdisasm ${fmt(c.disasm)}\treject ${fmt(c.reject)}\n`);
    }
  }
  for (const fl of r.failures) process.stdout.write(`${fl.kind}\t${fl.target}\t${fl.file}:${fl.line}\t${fl.input}\n\texpected ${fl.expected}\n\tgot      ${fl.got}\n`);
  for (const [t, c] of Object.entries(r.targets).sort()) process.stdout.write(`${t}\tasm ${fmt(c.asm)}\tdisasm ${fmt(c.disasm)}\treject ${fmt(c.reject)}\n`);
  const c = r.total;
  process.stdout.write(`total\tasm ${fmt(c.asm)}\tdisasm ${fmt(c.disasm)}\treject ${fmt(c.reject)}\t(${r.files.length} files)\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv);
