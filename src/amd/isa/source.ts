/**
 * A whole assembly file as llvm-mc reads a hand-written kernel: the code (labels, branches,
 * `.p2align`; see target.ts assembleCode), the target (`.amdgcn_target`), the code object version
 * (`.amdhsa_code_object_version`), sections (`.text`, `.rodata`, `.section`), `.amdhsa_kernel`
 * blocks (amdhsa.ts) and an optional `.amdgpu_metadata` YAML block. `codeObjectOf` turns the result
 * into a linked code object (formats/amdgpu/write.ts) as llvm-mc + ld.lld -shared would.
 */
import { AsmError } from './types.js';
import { assembleCode, sourceLines, splitAsmLine, type AsmInstruction, type IsaTarget } from './target.js';
import { targetFor, targets, waveTarget } from './targets.js';
import { amdhsaKernel, checkAmdhsaDirective, type AmdhsaDirective, type AmdhsaKernel, type AmdhsaKernelBlock } from './amdhsa.js';
import { kdGenerationFor } from '../../formats/amdgpu/kd.js';
import { parseYamlSubset, YamlError } from '../../formats/amdgpu/yaml.js';
import { writeCodeObject } from '../../formats/amdgpu/write.js';
import { loadCodeObject } from '../../formats/amdgpu/codeobject.js';
import { InputError } from '../../core/errors.js';
import type { MsgMap, MsgValue } from '../../formats/amdgpu/metadata.js';

export interface AsmSourceOptions {
  /** -mcpu; when the source has `.amdgcn_target` too, the two must agree. Default: the source's, else gfx1100. */
  readonly mcpu?: string;
  /** The wave size the text is written for; default: the kernels' `.amdhsa_wavefront_size32`, else the target's. */
  readonly wave?: 32 | 64;
}

export interface AsmProgram {
  /** The target the text was read with (its wave size included). */
  readonly target: IsaTarget;
  readonly mcpu: string;
  /** From `.amdgcn_target` (`amdgcn-amd-amdhsa--gfx1100[:xnack+]`), or undefined. */
  readonly targetId: string | undefined;
  readonly xnack: 'unsupported' | 'any' | 'off' | 'on';
  readonly codeObjectVersion: number;
  readonly words: readonly number[];
  readonly instructions: readonly AsmInstruction[];
  readonly labels: ReadonlyMap<string, { readonly offset: number; readonly line: number }>;
  readonly kernels: readonly (AmdhsaKernel & { readonly block: AmdhsaKernelBlock })[];
  /** The `.amdgpu_metadata` block, parsed, and its first line. */
  readonly metadata: { readonly value: MsgMap; readonly line: number } | undefined;
}

/** Processors with an XNACK mode (GFX9; gfx1030/gfx1100 have none). */
function hasXnack(mcpu: string): boolean {
  return /^gfx9/.test(mcpu);
}

function directiveArgs(rest: string): string {
  return rest.trim();
}

function parseInt32(text: string, line: number, what: string): number {
  const t = text.trim();
  const v = /^0x[0-9a-f]+$/i.test(t) ? Number(t) : /^[0-9]+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(v)) throw new AsmError(line, `${what}: expected a non-negative integer, got '${t}'`);
  return v;
}

/** Pre-scan: `.amdgcn_target` and the kernels' `.amdhsa_wavefront_size32`, which decide how the text is read. */
function prescan(lines: readonly string[]): { targetId?: { id: string; line: number }; wave32?: { value: number; line: number }[] } {
  const out: { targetId?: { id: string; line: number }; wave32?: { value: number; line: number }[] } = {};
  lines.forEach((raw, i) => {
    const t = raw.replace(/(\/\/|;).*$/, '').trim();
    let m = /^\.amdgcn_target\s+"([^"]*)"$/.exec(t);
    if (m) {
      if (out.targetId && out.targetId.id !== m[1]) throw new AsmError(i + 1, `.amdgcn_target "${m[1]}" differs from "${out.targetId.id}" on line ${out.targetId.line}`);
      out.targetId = { id: m[1]!, line: i + 1 };
    } else if (/^\.amdgcn_target\b/.test(t)) {
      throw new AsmError(i + 1, `.amdgcn_target takes a quoted target id ("amdgcn-amd-amdhsa--gfx1100")`);
    }
    m = /^\.amdhsa_wavefront_size32\s+(\S+)$/.exec(t);
    if (m) (out.wave32 ??= []).push({ value: Number(m[1]), line: i + 1 });
  });
  return out;
}

/** Read a whole assembly source. Errors are AsmErrors naming the line. */
export function assembleSource(source: string, opts: AsmSourceOptions = {}): AsmProgram {
  const lines = sourceLines(source);
  const pre = prescan(lines);
  let mcpu = opts.mcpu;
  let xnack: AsmProgram['xnack'] = 'unsupported';
  if (pre.targetId) {
    const m = /^amdgcn-amd-amdhsa--([a-z0-9-]+)((?::[a-z0-9]+[+-])*)$/.exec(pre.targetId.id);
    if (!m) throw new AsmError(pre.targetId.line, `.amdgcn_target "${pre.targetId.id}" is not amdgcn-amd-amdhsa--<processor>[:feature±]`);
    if (mcpu !== undefined && mcpu !== m[1]) throw new AsmError(pre.targetId.line, `.amdgcn_target says ${m[1]} but --mcpu is ${mcpu}`);
    mcpu = m[1]!;
    for (const f of (m[2] ?? '').split(':').filter((x) => x)) {
      const name = f.slice(0, -1);
      if (name === 'xnack' && hasXnack(mcpu)) xnack = f.endsWith('+') ? 'on' : 'off';
      else throw new AsmError(pre.targetId.line, `.amdgcn_target feature '${f}' is not supported for ${mcpu}`);
    }
  }
  mcpu ??= 'gfx1100';
  if (xnack === 'unsupported' && hasXnack(mcpu)) xnack = 'any';
  const base = targetFor(mcpu);
  if (!base) throw new AsmError(pre.targetId?.line ?? 0, `unknown processor '${mcpu}' (gpusim assembles ${Object.keys(targets).join(', ')})`);
  const generation = kdGenerationFor(mcpu);
  let wave = opts.wave;
  const ws = pre.wave32 ?? [];
  if (ws.length > 0 && generation !== 'gfx9') {
    const want = ws[0]!.value === 1 ? 32 : 64;
    const other = ws.find((w) => (w.value === 1 ? 32 : 64) !== want);
    if (other) throw new AsmError(other.line, `.amdhsa_wavefront_size32 ${other.value} differs from line ${ws[0]!.line}: one file is read in one wave size`);
    if (wave !== undefined && wave !== want) throw new AsmError(ws[0]!.line, `.amdhsa_wavefront_size32 ${ws[0]!.value} contradicts --wave ${wave}`);
    wave = want;
  }
  const target = wave === undefined ? base : waveTarget(base, wave);
  if (!target) throw new AsmError(0, `${mcpu} has no wave${wave} mode`);

  // Sections and directive blocks, seen line by line before the code is assembled.
  let section: 'text' | 'other' = 'text';
  let block: { name: string; line: number; directives: Map<string, AmdhsaDirective> } | undefined;
  let meta: { start: number; lines: string[] } | undefined;
  let metadata: AsmProgram['metadata'];
  let cov: { value: number; line: number } | undefined;
  const blocks: AmdhsaKernelBlock[] = [];
  const onLine = (raw: string, line: number): boolean => {
    if (meta) {
      if (/^\s*\.end_amdgpu_metadata\s*(?:(?:\/\/|;).*)?$/.test(raw)) {
        try {
          const v = parseYamlSubset(meta.lines.join('\n'));
          if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) throw new YamlError(1, 'the metadata is not a mapping');
          metadata = { value: v as MsgMap, line: meta.start };
        } catch (e) {
          if (e instanceof YamlError) throw new AsmError(meta.start + e.line, `.amdgpu_metadata: ${e.message}`);
          throw e;
        }
        meta = undefined;
      } else meta.lines.push(raw);
      return true;
    }
    const l = splitAsmLine(raw.replace(/^\s*[A-Za-z_.$][\w.$]*\s*:(?!:)/, (s) => (section === 'text' ? s : '')), line);
    if (block) {
      if (!l) return true;
      if (l.mnemonic === '.end_amdhsa_kernel') {
        blocks.push({ name: block.name, line: block.line, endLine: line, directives: block.directives });
        block = undefined;
        return true;
      }
      if (!l.mnemonic.startsWith('.amdhsa_')) throw new AsmError(line, `'${l.mnemonic}' inside .amdhsa_kernel ${block.name} (only .amdhsa_* directives until .end_amdhsa_kernel)`);
      const name = l.mnemonic.slice('.amdhsa_'.length);
      const prev = block.directives.get(name);
      if (prev) throw new AsmError(line, `${l.mnemonic} already given on line ${prev.line}`);
      const v = parseInt32(directiveArgs(l.rest), line, l.mnemonic);
      checkAmdhsaDirective(generation, name, v, line, xnack === 'on' || xnack === 'any');
      block.directives.set(name, { value: v, line });
      return true;
    }
    if (!l) return section !== 'text';
    switch (l.mnemonic) {
      case '.text': section = 'text'; return true;
      case '.rodata': case '.data': case '.bss': section = 'other'; return true;
      case '.section': {
        const name = l.rest.split(/[\s,]/)[0] ?? '';
        section = name === '.text' || name.startsWith('.text.') ? 'text' : 'other';
        return true;
      }
      case '.amdhsa_kernel': {
        const name = l.rest.trim();
        if (!/^[A-Za-z_.$][\w.$]*$/.test(name)) throw new AsmError(line, `.amdhsa_kernel takes a kernel name, got '${l.rest}'`);
        const dup = blocks.find((b) => b.name === name);
        if (dup) throw new AsmError(line, `.amdhsa_kernel ${name} already defined on line ${dup.line}`);
        block = { name, line, directives: new Map() };
        return true;
      }
      case '.end_amdhsa_kernel': throw new AsmError(line, '.end_amdhsa_kernel without .amdhsa_kernel');
      case '.amdgpu_metadata': meta = { start: line, lines: [] }; return true;
      case '.end_amdgpu_metadata': throw new AsmError(line, '.end_amdgpu_metadata without .amdgpu_metadata');
      case '.amdhsa_code_object_version': {
        const v = parseInt32(l.rest, line, l.mnemonic);
        if (v < 4 || v > 6) throw new AsmError(line, `.amdhsa_code_object_version ${v}: gpusim writes versions 4, 5 and 6`);
        cov = { value: v, line };
        return true;
      }
      case '.amdgcn_target': return true;
    }
    if (l.mnemonic.startsWith('.amdhsa_')) throw new AsmError(line, `${l.mnemonic} outside an .amdhsa_kernel block`);
    if (section !== 'text' && !l.mnemonic.startsWith('.')) throw new AsmError(line, `instruction '${l.mnemonic}' outside .text`);
    return section !== 'text';
  };
  const code = assembleCode(target, source, { onLine });
  if (block) throw new AsmError(block.line, `.amdhsa_kernel ${block.name} has no .end_amdhsa_kernel`);
  if (meta) throw new AsmError(meta.start, '.amdgpu_metadata has no .end_amdgpu_metadata');

  const kernels = blocks.map((b) => {
    if (!code.labels.has(b.name)) throw new AsmError(b.line, `.amdhsa_kernel ${b.name}: no label '${b.name}:' in .text marks its first instruction`);
    return { ...amdhsaKernel(generation, b, (target.wave ?? (generation === 'gfx9' ? 64 : 32)) === 32, xnack === 'on' || xnack === 'any'), block: b };
  });
  return {
    target, mcpu, targetId: pre.targetId?.id, xnack, codeObjectVersion: cov?.value ?? 5,
    words: code.words, instructions: code.instructions, labels: code.labels, kernels, metadata,
  };
}

/** amdhsa.version of a code object version (LLVM 19: v4 1.1, v5 and v6 1.2). */
function metadataVersion(cov: number): [number, number] {
  return cov === 4 ? [1, 1] : [1, 2];
}

/**
 * The metadata entry derived from a kernel block when the source gives none: its sizes and
 * registers, and the kernarg segment as opaque by-value arguments of 8 bytes each (the last may be
 * shorter), so a manifest passes one buffer address or scalar per 8 bytes.
 */
function derivedKernelMetadata(k: AmdhsaKernel): MsgMap {
  const args: MsgValue[] = [];
  for (let o = 0; o < k.kernargSize; o += 8) {
    args.push({ '.name': `kernarg_${o}`, '.offset': o, '.size': Math.min(8, k.kernargSize - o), '.value_kind': 'by_value' });
  }
  return {
    '.args': args,
    '.group_segment_fixed_size': k.groupSegmentFixedSize,
    '.kernarg_segment_align': 8,
    '.kernarg_segment_size': k.kernargSize,
    '.max_flat_workgroup_size': 1024,
    '.name': k.name,
    '.private_segment_fixed_size': k.privateSegmentFixedSize,
    '.sgpr_count': k.sgprCount,
    '.symbol': `${k.name}.kd`,
    '.vgpr_count': k.vgprCount,
    '.wavefront_size': k.waveSize,
  };
}

function isMap(v: MsgValue | undefined): v is MsgMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/**
 * The NT_AMDGPU_METADATA map: the source's `.amdgpu_metadata` with what it leaves out filled in from
 * the `.amdhsa_kernel` blocks (each kernel's sizes, registers and .args), amdhsa.version and
 * amdhsa.target; without the block, everything derived.
 */
export function metadataOf(p: AsmProgram): MsgMap {
  const given = p.metadata?.value ?? {};
  const out: MsgMap = { ...given };
  const kernelsV = given['amdhsa.kernels'];
  if (kernelsV !== undefined && !Array.isArray(kernelsV)) throw new AsmError(p.metadata!.line, '.amdgpu_metadata: amdhsa.kernels must be a sequence');
  const list: MsgMap[] = (kernelsV ?? []).map((k, i) => {
    if (!isMap(k)) throw new AsmError(p.metadata!.line, `.amdgpu_metadata: amdhsa.kernels[${i}] must be a mapping`);
    return { ...k };
  });
  for (const k of p.kernels) {
    const derived = derivedKernelMetadata(k);
    const at = list.findIndex((m) => m['.symbol'] === `${k.name}.kd` || m['.name'] === k.name);
    if (at < 0) list.push(derived);
    else list[at] = { ...derived, ...list[at]! };
  }
  out['amdhsa.kernels'] = list;
  out['amdhsa.version'] ??= metadataVersion(p.codeObjectVersion);
  out['amdhsa.target'] ??= p.targetId ?? `amdgcn-amd-amdhsa--${p.mcpu}`;
  return out;
}

/** The linked code object of an assembled source (needs at least one `.amdhsa_kernel`). */
export function codeObjectOf(p: AsmProgram): Uint8Array {
  if (p.kernels.length === 0) throw new AsmError(0, 'no .amdhsa_kernel block: nothing to put in a code object (write raw bytes instead)');
  const text = new Uint8Array(p.words.length * 4);
  const dv = new DataView(text.buffer);
  p.words.forEach((w, i) => dv.setUint32(i * 4, w >>> 0, true));
  const starts = p.kernels.map((k) => p.labels.get(k.name)!.offset).sort((a, b) => a - b);
  const bytes = writeCodeObject({
    mcpu: p.mcpu,
    version: p.codeObjectVersion,
    xnack: p.xnack,
    sramecc: 'unsupported',
    text,
    kernels: p.kernels.map((k) => {
      const start = p.labels.get(k.name)!.offset;
      const next = starts.find((s) => s > start) ?? text.length;
      return { name: k.name, textOffset: start, codeSize: next - start, descriptor: k.descriptor };
    }),
    metadata: metadataOf(p),
  });
  // Never write what the reader refuses (e.g. a metadata block naming another target).
  try {
    loadCodeObject(bytes);
  } catch (e) {
    if (e instanceof InputError) throw new AsmError(p.metadata?.line ?? 0, e.message.replace(/^<memory>: /, ''));
    throw e;
  }
  return bytes;
}
