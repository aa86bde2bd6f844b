/**
 * Execution coverage of the AMD targets, measured rather than listed by hand: every opcode of a
 * target's generated instruction tables, per encoding, and whether it executes — i.e. whether the
 * instruction, normalised the way the run path normalises it (normalize.ts for gfx900/gfx1030),
 * binds to a semantics handler (engine/registry.ts) instead of the `gpusim.unimplemented` stop.
 * The reference interpreter and the fast tier bind through the same table (bind.ts), so an opcode
 * that binds executes on both. `gpusim amd coverage` prints it; a test keeps the README's table
 * and docs/amd.md's list equal to it, and checks every opcode left out has a reason here.
 */
import type { Instruction, EncodingName } from '../isa/types.js';
import type { OperandSpace } from '../isa/operands.js';
import { GFX11_SPACE, GFX10_SPACE, GFX9_SPACE } from '../isa/operands.js';
import { lookup } from '../engine/registry.js';
import '../engine/bind.js';
import { normalize } from './normalize.js';
import * as g11s1 from '../isa/gfx11/sop1.gen.js';
import * as g11s2 from '../isa/gfx11/sop2.gen.js';
import * as g11sk from '../isa/gfx11/sopk.gen.js';
import * as g11sc from '../isa/gfx11/sopc.gen.js';
import * as g11sp from '../isa/gfx11/sopp.gen.js';
import * as g11sm from '../isa/gfx11/smem.gen.js';
import * as g11v1 from '../isa/gfx11/vop1.gen.js';
import * as g11v2 from '../isa/gfx11/vop2.gen.js';
import * as g11vc from '../isa/gfx11/vopc.gen.js';
import * as g11v3 from '../isa/gfx11/vop3.gen.js';
import * as g11vp from '../isa/gfx11/vop3p.gen.js';
import * as g11vd from '../isa/gfx11/vopd.gen.js';
import * as g11vi from '../isa/gfx11/vinterp.gen.js';
import * as g11ld from '../isa/gfx11/ldsdir.gen.js';
import * as g11ds from '../isa/gfx11/ds.gen.js';
import * as g11fl from '../isa/gfx11/flat.gen.js';
import * as g11mu from '../isa/gfx11/mubuf.gen.js';
import * as g11mt from '../isa/gfx11/mtbuf.gen.js';
import * as g11mi from '../isa/gfx11/mimg.gen.js';
import * as g10s1 from '../isa/gfx10/sop1.gen.js';
import * as g10s2 from '../isa/gfx10/sop2.gen.js';
import * as g10sk from '../isa/gfx10/sopk.gen.js';
import * as g10sc from '../isa/gfx10/sopc.gen.js';
import * as g10sp from '../isa/gfx10/sopp.gen.js';
import * as g10sm from '../isa/gfx10/smem.gen.js';
import * as g10v1 from '../isa/gfx10/vop1.gen.js';
import * as g10v2 from '../isa/gfx10/vop2.gen.js';
import * as g10vc from '../isa/gfx10/vopc.gen.js';
import * as g10v3 from '../isa/gfx10/vop3.gen.js';
import * as g10vp from '../isa/gfx10/vop3p.gen.js';
import * as g10vi from '../isa/gfx10/vintrp.gen.js';
import * as g10ds from '../isa/gfx10/ds.gen.js';
import * as g10fl from '../isa/gfx10/flat.gen.js';
import * as g10mu from '../isa/gfx10/mubuf.gen.js';
import * as g10mt from '../isa/gfx10/mtbuf.gen.js';
import * as g10mi from '../isa/gfx10/mimg.gen.js';
import * as g9s1 from '../isa/gfx9/sop1.gen.js';
import * as g9s2 from '../isa/gfx9/sop2.gen.js';
import * as g9sk from '../isa/gfx9/sopk.gen.js';
import * as g9sc from '../isa/gfx9/sopc.gen.js';
import * as g9sp from '../isa/gfx9/sopp.gen.js';
import * as g9sm from '../isa/gfx9/smem.gen.js';
import * as g9v1 from '../isa/gfx9/vop1.gen.js';
import * as g9v2 from '../isa/gfx9/vop2.gen.js';
import * as g9vc from '../isa/gfx9/vopc.gen.js';
import * as g9v3 from '../isa/gfx9/vop3.gen.js';
import * as g9vp from '../isa/gfx9/vop3p.gen.js';
import * as g9vi from '../isa/gfx9/vintrp.gen.js';
import * as g9ds from '../isa/gfx9/ds.gen.js';
import * as g9fl from '../isa/gfx9/flat.gen.js';
import * as g9mu from '../isa/gfx9/mubuf.gen.js';
import * as g9mt from '../isa/gfx9/mtbuf.gen.js';
import * as g9mi from '../isa/gfx9/mimg.gen.js';

/** One opcode of a table: its encoding, LLVM mnemonic and table entry (for normalisation). */
interface Op {
  readonly encoding: EncodingName;
  readonly opcode: number;
  readonly mnemonic: string;
  readonly info?: unknown;
}

type Table = Readonly<Record<number, unknown>>;

function rows(encoding: EncodingName, table: Table, name: (e: never) => string): Op[] {
  return Object.entries(table).map(([k, e]) => ({ encoding, opcode: Number(k), mnemonic: name(e as never), info: e }));
}
const scalar = (e: { mnemonic: string }): string => e.mnemonic;
const valu = (e: { m: string }): string => e.m;
const mem = (e: { mn: string }): string => e.mn;

/** VOP3 entries of VOP1/VOP2/VOPC opcodes are the same opcodes promoted: counted under VOP3 all the same. */
function vop3(table: Table): Op[] {
  return Object.entries(table).map(([k, e]) => ({ encoding: (e as { sd?: boolean }).sd ? 'VOP3SD' : 'VOP3', opcode: Number(k), mnemonic: (e as { m: string }).m, info: e }));
}

function flat(t: Readonly<Record<'flat' | 'scratch' | 'global', Table>>): Op[] {
  return [...rows('FLAT', t.flat, mem), ...rows('GLOBAL', t.global, mem), ...rows('SCRATCH', t.scratch, mem)];
}

interface TargetTables {
  readonly mcpu: string;
  readonly space: OperandSpace;
  readonly ops: readonly Op[];
}

function gfx11Ops(): Op[] {
  const vopd = new Map<string, Op>();
  for (const [k, e] of [...Object.entries(g11vd.VOPD_X), ...Object.entries(g11vd.VOPD_Y)]) vopd.set(e.mnemonic, { encoding: 'VOPD', opcode: Number(k), mnemonic: e.mnemonic, info: e });
  return [
    ...rows('SOP1', g11s1.SOP1, scalar), ...rows('SOP2', g11s2.SOP2, scalar), ...rows('SOPK', g11sk.SOPK, scalar),
    ...rows('SOPC', g11sc.SOPC, scalar), ...rows('SOPP', g11sp.SOPP, scalar), ...rows('SMEM', g11sm.SMEM, scalar),
    ...rows('VOP1', g11v1.VOP1_OPS, valu), ...rows('VOP2', g11v2.VOP2_OPS, valu), ...rows('VOPC', g11vc.VOPC_OPS, valu),
    ...vop3(g11v3.VOP3_OPS), ...rows('VOP3P', g11vp.VOP3P_OPS, scalar), ...vopd.values(),
    ...rows('VINTERP', g11vi.VINTERP_OPS, scalar), ...rows('LDSDIR', g11ld.LDSDIR_OPS, scalar),
    ...rows('DS', g11ds.DS_OPS, mem), ...flat(g11fl.FLAT_OPS), ...rows('MUBUF', g11mu.MUBUF_OPS, mem),
    ...rows('MTBUF', g11mt.MTBUF_OPS, mem), ...rows('MIMG', g11mi.MIMG_OPS, mem),
    { encoding: 'EXP', opcode: 0, mnemonic: 'exp' },
  ];
}

/** GFX9 and GFX10.3 share their table shapes; VINTRP counts the VOP3-encoded v_interp_* ops too. */
function olderOps(t: {
  s1: Table; s2: Table; sk: Table; sc: Table; sp: Table; sm: Table; v1: Table; v2: Table; vc: Table; v3: Table; vp: Table;
  vi: Table; vi3: Table; ds: Table; fl: Readonly<Record<'flat' | 'scratch' | 'global', Table>>; mu: Table; mt: Table; mi: Table;
}): Op[] {
  return [
    ...rows('SOP1', t.s1, scalar), ...rows('SOP2', t.s2, scalar), ...rows('SOPK', t.sk, scalar),
    ...rows('SOPC', t.sc, scalar), ...rows('SOPP', t.sp, scalar), ...rows('SMEM', t.sm, scalar),
    ...rows('VOP1', t.v1, valu), ...rows('VOP2', t.v2, valu), ...rows('VOPC', t.vc, valu),
    ...vop3(t.v3), ...rows('VOP3P', t.vp, scalar), ...rows('VINTRP', t.vi, mem), ...rows('VINTRP', t.vi3, mem),
    ...rows('DS', t.ds, mem), ...flat(t.fl), ...rows('MUBUF', t.mu, mem), ...rows('MTBUF', t.mt, mem),
    ...rows('MIMG', t.mi, mem), { encoding: 'EXP', opcode: 0, mnemonic: 'exp' },
  ];
}

let cache: TargetTables[] | undefined;

/** The three executable targets with every opcode of their generated tables. */
export function targetTables(): readonly TargetTables[] {
  cache ??= [
    { mcpu: 'gfx1100', space: GFX11_SPACE, ops: gfx11Ops() },
    {
      mcpu: 'gfx1030', space: GFX10_SPACE, ops: olderOps({
        s1: g10s1.SOP1, s2: g10s2.SOP2, sk: g10sk.SOPK, sc: g10sc.SOPC, sp: g10sp.SOPP, sm: g10sm.SMEM, v1: g10v1.VOP1_OPS,
        v2: g10v2.VOP2_OPS, vc: g10vc.VOPC_OPS, v3: g10v3.VOP3_OPS, vp: g10vp.VOP3P_OPS, vi: g10vi.VINTRP_OPS,
        vi3: g10vi.VOP3_INTERP_OPS, ds: g10ds.DS_OPS, fl: g10fl.FLAT_OPS, mu: g10mu.MUBUF_OPS, mt: g10mt.MTBUF_OPS, mi: g10mi.MIMG_OPS,
      }),
    },
    {
      mcpu: 'gfx900', space: GFX9_SPACE, ops: olderOps({
        s1: g9s1.SOP1, s2: g9s2.SOP2, sk: g9sk.SOPK, sc: g9sc.SOPC, sp: g9sp.SOPP, sm: g9sm.SMEM, v1: g9v1.VOP1_OPS,
        v2: g9v2.VOP2_OPS, vc: g9vc.VOPC_OPS, v3: g9v3.VOP3_OPS, vp: g9vp.VOP3P_OPS, vi: g9vi.VINTRP_OPS,
        vi3: g9vi.VOP3_INTERP_OPS, ds: g9ds.DS_OPS, fl: g9fl.FLAT_OPS, mu: g9mu.MUBUF_OPS, mt: g9mt.MTBUF_OPS, mi: g9mi.MIMG_OPS,
      }),
    },
  ];
  return cache;
}

/** Whether an opcode binds to semantics on its target, after the run path's normalisation. */
export function executes(op: Op, space: OperandSpace): boolean {
  if (space.gfx === 11) return lookup(op.mnemonic) !== undefined;
  const inst: Instruction = {
    encoding: op.encoding, opcode: op.opcode, mnemonic: op.mnemonic, size: 8, words: [0, 0], fields: {},
    literal: undefined, variant: op.encoding === 'VINTRP' ? 'e64' : '', info: op.info,
  } as Instruction;
  return lookup(normalize(inst, space).mnemonic) !== undefined;
}

/**
 * Opcodes that do not execute, and why (running one reports `gpusim.unimplemented` and stops the
 * wave). Matched against the mnemonic without its _e32/_e64 suffix; `targets` limits a rule.
 */
export const LEFT_OUT: readonly { readonly re: RegExp; readonly why: string; readonly targets?: readonly string[] }[] = [
  { re: /^s_subvector_loop_(begin|end)$/, why: 'wave64 sub-vector loop: the EXEC/SDST updates are not in the sources this model is built from; LLVM never emits it' },
  { re: /^ds_condxchg32_rtn_b64$/, why: 'condition encoding not in our sources; LLVM has no intrinsic that emits it' },
  { re: /^ds_bvh_stack_rtn_b32$/, why: 'ray tracing: BVH traversal-stack layout not in our sources' },
  { re: /^ds_.*_src2_/, why: 'GFX9 DS ops reading their second operand from LDS at an address built from the offset fields; LLVM never emits them (gone from GFX10.3 on)' },
  { re: /^s_cbranch_(join|g_fork|i_fork)$/, why: 'GFX9 fork/join control-stack branches (gone from GFX10 on); LLVM never emits them' },
  { re: /^s_set_gpr_idx_(on|off|mode|idx)$/, why: 'GFX9 VGPR index mode (M0 offsets VALU VGPR operands while on): LLVM uses v_movrel* unless -amdgpu-vgpr-index-mode; needs the VALU operand path (engine refactor in progress)' },
  { re: /^s_rfe_restore_b64$/, why: 'trap-handler return restoring saved state: trap-handler only' },
  { re: /^s_setvskip$/, why: 'VSKIP (skip vector instructions) debug mode; LLVM never emits it' },
  { re: /^v_(exp|log)_legacy_f32$/, why: 'pre-GCN legacy special-case results not specified in our sources; LLVM never selects them on gfx900' },
  { re: /^v_screen_partition_4se_b32$/, why: 'graphics binning helper (screen-partition table for 4 shader engines) not in our sources; not a compute or pixel-shader operation' },
  { re: /^s_scratch_(load|store)_dword/, why: 'GFX9 scalar scratch access: how the wave\'s scratch offset and swizzle apply to a scalar address is not in our sources; LLVM does not emit it' },
  { re: /^s_dcache_discard(_x2)?$/, why: 'drops dirty scalar-cache lines unwritten: with coherent memory (scalar stores land at once) the lost data cannot be modelled' },
  { re: /^image_msaa_load$/, targets: ['gfx1030'], why: 'GFX10.3 image_msaa_load: llvm-mc-19 encodes it as a plain load (data width popcount(DMASK)), unlike GFX11\'s four samples of one channel, and LLVM has no gfx10 intrinsic for it; which one the hardware does is not settled by our sources' },
  { re: /^image_gather4h$/, why: 'gather4h (one channel of 4 texels of one row): which 4 texels the coordinate selects (where the footprint starts, how filtering and wrap apply) is not in our sources, and LLVM has no intrinsic that emits it' },
];

export interface EncodingCoverage {
  readonly encoding: string;
  readonly all: number;
  readonly executed: number;
  /** Mnemonics (without _e32/_e64) that do not execute. */
  readonly missing: readonly string[];
}

const ENC_ORDER = ['SOP1', 'SOP2', 'SOPK', 'SOPC', 'SOPP', 'SMEM', 'VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'VOPD', 'VINTRP', 'VINTERP', 'LDSDIR', 'DS', 'FLAT', 'GLOBAL', 'SCRATCH', 'MUBUF', 'MTBUF', 'MIMG', 'EXP'];

/** Per encoding: opcodes in the tables, how many execute, the names that do not. */
export function coverage(mcpu: string): EncodingCoverage[] {
  const t = targetTables().find((x) => x.mcpu === mcpu);
  if (!t) throw new Error(`no executable target ${mcpu}`);
  const by = new Map<string, { all: number; executed: number; missing: Set<string> }>();
  for (const op of t.ops) {
    const enc = op.encoding === 'VOP3SD' ? 'VOP3' : op.encoding;
    const e = by.get(enc) ?? { all: 0, executed: 0, missing: new Set<string>() };
    by.set(enc, e);
    e.all++;
    if (executes(op, t.space)) e.executed++;
    else e.missing.add(op.mnemonic.replace(/_e(32|64)$/, ''));
  }
  return ENC_ORDER.filter((e) => by.has(e)).map((encoding) => {
    const e = by.get(encoding)!;
    return { encoding, all: e.all, executed: e.executed, missing: [...e.missing].sort() };
  });
}

export const COVERAGE_TARGETS = ['gfx900', 'gfx1030', 'gfx1100'] as const;

/** The reason an opcode is left out on a target, or undefined when none is recorded. */
export function reasonFor(mcpu: string, mnemonic: string): string | undefined {
  return LEFT_OUT.find((r) => r.re.test(mnemonic) && (!r.targets || r.targets.includes(mcpu)))?.why;
}
/**
 * The compact table (README): one row per encoding, one column per target, each cell "executed /
 * opcodes" with the count left out linked to docs/amd.md (`leftOutLines`, the reasons); `-` where
 * the target has no such encoding.
 */
export function coverageLines(): string[] {
  const cov = COVERAGE_TARGETS.map((t) => new Map(coverage(t).map((e) => [e.encoding, e])));
  const cell = (e: EncodingCoverage | undefined): string => {
    if (!e) return '-';
    const not = e.all - e.executed;
    return `${e.executed} / ${e.all}${not ? ` ([${not} not](docs/amd.md#opcodes-left-out))` : ''}`;
  };
  const out = [`| encoding | ${COVERAGE_TARGETS.join(' | ')} |`, `|---|${COVERAGE_TARGETS.map(() => '---:').join('|')}|`];
  for (const enc of ENC_ORDER) if (cov.some((m) => m.has(enc))) out.push(`| ${enc} | ${cov.map((m) => cell(m.get(enc))).join(' | ')} |`);
  const sum = (m: Map<string, EncodingCoverage>) => [...m.values()].reduce((a, e) => ({ encoding: 'all', all: a.all + e.all, executed: a.executed + e.executed, missing: [] }), { encoding: 'all', all: 0, executed: 0, missing: [] } as EncodingCoverage);
  out.push(`| **all** | ${cov.map((m) => `**${cell(sum(m))}**`).join(' | ')} |`);
  return out;
}

/** The detail (docs/amd.md): the opcodes that do not execute, per target and encoding, grouped by reason. */
export function leftOutLines(): string[] {
  const out = ['| target | encoding | opcodes | reason |', '|---|---|---|---|'];
  for (const t of COVERAGE_TARGETS) {
    for (const e of coverage(t)) {
      const by = new Map<string, string[]>();
      for (const m of e.missing) {
        const why = reasonFor(t, m) ?? '(no reason recorded)';
        by.set(why, [...(by.get(why) ?? []), m]);
      }
      for (const [why, ms] of by) out.push(`| ${t} | ${e.encoding} | ${ms.join(', ')} | ${why} |`);
    }
  }
  return out;
}
