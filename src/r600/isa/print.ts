/**
 * R600-family disassembler: prints a decoded program the way clang -S (LLVM 19's R600 asm printer)
 * prints the same code: the CF program, PAD slots, then every clause headed by
 * "Fetch clause starting at N:" / "ALU clause starting at N:".
 *
 * Fields LLVM never sets are printed only when they are not LLVM's default, as extra
 * tokens the assembler accepts (e.g. `WQM`, `VPM`, `COND:BOOL`, `CF_CONST:3`, `NO_BARRIER`,
 * `OMOD:*2`, `CLAMP`), so that any word round-trips through print and assemble.
 */
import { SRC, type AluGroup, type AluInst, type AluSrc, type CfInst, type FetchInst, type GdsInst, type R600Gen, type R600Program, type TexInst } from './decode.js';

const CHAN = 'XYZW';
const BANK_SWIZZLE = ['', 'BS:VEC_021/SCL_122', 'BS:VEC_120/SCL_212', 'BS:VEC_102/SCL_221', 'BS:VEC_201', 'BS:VEC_210'];
const PRED_SEL = ['', 'Pred_sel_1', 'Pred_sel_zero', 'Pred_sel_one'];
const COND_NAMES = ['ACTIVE', 'FALSE', 'BOOL', 'NOT_BOOL'];
const OMOD = ['', '*2', '*4', '/2'];

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** C printf("%e") of a float32 bit pattern, as LLVM prints literal operands. */
export function printfE(bitsValue: number): string {
  u32[0] = bitsValue >>> 0;
  const v = f32[0]!;
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v < 0 ? '-inf' : 'inf';
  if (v === 0) return Object.is(v, -0) ? '-0.000000e+00' : '0.000000e+00';
  const s = v.toExponential(6);
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s)!;
  return `${m[1]}e${m[2]}${m[3]!.padStart(2, '0')}`;
}

export function printLiteral(v: number): string {
  return `${v | 0}(${printfE(v)})`;
}

function kcacheText(k: { bank: number; mode: number; addr: number }): string {
  if (k.mode === 0) return '';
  const lo = k.addr * 16;
  return `CB${k.bank}:${lo}-${lo + (k.mode === 2 ? 32 : 16)}${k.mode === 3 ? ' LOOP' : ''}`;
}

/** The register or constant an ALU source names. */
export function srcName(s: AluSrc, literalReloc?: string): string {
  const c = CHAN[s.chan]!;
  let r: string;
  if (s.sel < 128) r = s.rel ? `T(${s.sel} + AR.x).${c}+` : `T${s.sel}.${c}`;
  else if (s.sel < 160) r = `KC0[${s.sel - 128}].${c}`;
  else if (s.sel < 192) r = `KC1[${s.sel - 160}].${c}`;
  else if (s.sel >= 256 && s.sel < 288) r = `KC2[${s.sel - 256}].${c}`;
  else if (s.sel >= 288 && s.sel < 320) r = `KC3[${s.sel - 288}].${c}`;
  else if (s.sel >= SRC.PARAM && s.sel < SRC.PARAM + 32) r = `Param${s.sel - SRC.PARAM}.${c}`;
  else {
    switch (s.sel) {
      case SRC.ZERO: r = '0.0'; break;
      case SRC.ONE: r = '1.0'; break;
      case SRC.ONE_INT: r = '1'; break;
      case SRC.M_ONE_INT: r = '-1'; break;
      case SRC.HALF: r = '0.5'; break;
      case SRC.LITERAL: r = literalReloc ?? `literal.${c.toLowerCase()}`; break;
      case SRC.PV: r = `PV.${c}`; break;
      case SRC.PS: r = 'PS'; break;
      case SRC.LDS_OQ_A_POP: r = 'OQAP'; break;
      case SRC.LDS_OQ_A: r = 'OQA'; break;
      case SRC.LDS_OQ_B: r = 'OQB'; break;
      case SRC.LDS_OQ_B_POP: r = 'OQBP'; break;
      default: r = `SRC${s.sel}.${c}`;
    }
    if (s.rel) r += '+';
  }
  if (s.abs) r = `|${r}|`;
  if (s.neg) r = `-${r}`;
  return r;
}

/** Extra (non-LLVM) tokens for fields LLVM leaves at zero. */
function aluExtras(inst: AluInst): string {
  const x: string[] = [];
  if (inst.indexMode) x.push(`IDX:${inst.indexMode}`);
  if (inst.fogMerge) x.push('FOG_MERGE');
  if (inst.enc === 'lds') {
    if (inst.ldsOffset) x.push(`OFS:${inst.ldsOffset}`);
    if (inst.bankSwizzle) x.push(`BSW:${inst.bankSwizzle}`);
    if (inst.dstChan) x.push(`CH:${inst.dstChan}`);
  }
  return x.length ? ' ' + x.join(' ') : '';
}

/** One ALU instruction, without the leading tab (LLVM prints "\t  "). */
export function printAlu(inst: AluInst): string {
  const op = inst.op;
  const name = op?.llvm ?? (inst.enc === 'op2' ? `ALU_OP2_${inst.code}` : inst.enc === 'op3' ? `ALU_OP3_${inst.code}` : `LDS_OP_${inst.code}`);
  const last = inst.last ? '*' : ' ';
  const pred = PRED_SEL[inst.predSel]!;
  const srcs = op ? op.srcs : inst.enc === 'op2' ? 2 : 3;
  if (inst.enc === 'lds') {
    const ret = op ? /_RET$/.test(op.name) : false;
    const s = inst.src.slice(0, srcs).map((x) => srcName(x));
    if (name === 'LDS_CMPST') return `${name}${last} ${s.join(', ')}, ${pred}${aluExtras(inst)}`;
    if (ret && srcs === 1) return `${name} ${last} OQAP, ${s[0]} ${pred}${aluExtras(inst)}`;
    if (ret) return `${name} ${last} OQAP, ${s.join(', ')}, ${pred}${aluExtras(inst)}`;
    return `${name} ${last} ${s.join(', ')}, ${pred}${aluExtras(inst)}`;
  }
  if (srcs === 0 && inst.enc === 'op2' && !inst.writeMask) {
    const t = [name];
    if (!inst.last) t.push('NOT_LAST');
    const rest = aluExtras(inst) + (inst.predSel ? ' ' + pred : '');
    return t.join(' ') + rest;
  }
  let dst: string;
  if (op?.name === 'MOVA_INT' || op?.name === 'MOVA' || op?.name === 'MOVA_FLOOR') dst = `AR.${'xyzw'[inst.dstChan]}`;
  else if (op && /^PRED_SET|^KILL/.test(op.name) && !inst.writeMask && inst.dstGpr === 0 && inst.dstChan === 0) dst = 'PredicateBit';
  else dst = inst.dstRel ? `T(${inst.dstGpr} + AR.x).${CHAN[inst.dstChan]}+` : `T${inst.dstGpr}.${CHAN[inst.dstChan]}`;
  if (inst.enc === 'op2') {
    if (inst.updatePred) dst = 'Pred,' + dst;
    if (inst.updateExecMask) dst = 'ExecMask,' + dst;
    if (!inst.writeMask) dst += ' (MASKED)';
  }
  if (inst.clamp) dst += ' (CLAMP)';
  if (inst.omod) dst += ` (OMOD:${OMOD[inst.omod]})`;
  const s = inst.src.slice(0, srcs).map((x) => srcName(x));
  const bs = BANK_SWIZZLE[inst.bankSwizzle] ?? `BS:${inst.bankSwizzle}`;
  const head = `${name} ${last} ${[dst, ...s].join(', ')}, `;
  if (inst.enc === 'op3') return head + pred + (pred && bs ? ' ' : '') + bs + aluExtras(inst);
  return head + pred + ' ' + bs + aluExtras(inst);
}

function dstSelText(sel: readonly number[]): string {
  return sel.map((v) => (v < 4 ? CHAN[v] : v === 4 ? '0' : v === 5 ? '1' : v === 7 ? '' : '_')).join('');
}

const SEL4 = 'XYZW01?_';
const sel4 = (sel: readonly number[]): string => sel.map((v) => SEL4[v]!).join('');

/**
 * A texture instruction as LLVM prints it (`TEX_SAMPLE T1.XYZW, T0.XY00 RID:0 SID:0 CT:NNNN`); fields
 * LLVM's text leaves out are appended only when they are not the values LLVM's emitter uses:
 * OX/OY/OZ (offsets, raw half-texel fields), LB (LOD_BIAS raw), MOD (INST_MOD), WQ (FETCH_WHOLE_QUAD),
 * SREL/DREL, ALT, RIM/SIM (resource/sampler index modes).
 */
export function printTex(t: TexInst): string {
  const name = t.op?.llvm ?? `TEX_INST_${t.code}`;
  const x: string[] = [];
  (['OX', 'OY', 'OZ'] as const).forEach((k, i) => { if (t.offset[i]) x.push(`${k}:${t.offset[i]}`); });
  if (t.lodBias) x.push(`LB:${t.lodBias}`);
  if (t.instMod) x.push(`MOD:${t.instMod}`);
  if (t.fetchWholeQuad) x.push('WQ');
  if (t.srcRel) x.push('SREL');
  if (t.dstRel) x.push('DREL');
  if (t.altConst) x.push('ALT');
  if (t.resourceIndexMode) x.push(`RIM:${t.resourceIndexMode}`);
  if (t.samplerIndexMode) x.push(`SIM:${t.samplerIndexMode}`);
  const ct = t.coordNormalized.map((n) => (n ? 'N' : 'U')).join('');
  return `${name} T${t.dstGpr}.${sel4(t.dstSel)}, T${t.srcGpr}.${sel4(t.srcSel)} RID:${t.resourceId} SID:${t.samplerId} CT:${ct}${x.length ? ' ' + x.join(' ') : ''}`;
}

export function printFetch(f: FetchInst, vtxName: (format: number) => string | undefined): string {
  if (f.tex) return printTex(f.tex);
  const name = vtxName(f.dataFormat) ?? `VTX_FMT_${f.dataFormat}`;
  return `${name} T${f.dstGpr}.${dstSelText(f.dstSel)}, T${f.srcGpr}.${CHAN[f.srcSelX]}, ${f.offsetBytes}, #${f.bufferId}`;
}

const GDS_SEL = 'XYZW0164_';
export const EXPORT_TYPES = ['PIXEL', 'POS', 'PARAM', 'TYPE3'] as const;
export const MEM_TYPES = ['WRITE', 'WRITE_IND', 'WRITE_ACK', 'WRITE_IND_ACK'] as const;
export const SCRATCH_TYPES = ['WRITE', 'WRITE_IND', 'READ', 'READ_IND'] as const;
const gdsSel = (sel: readonly number[]): string => sel.map((v) => (v === 6 ? '6' : v === 7 ? '_' : GDS_SEL[v]!)).join('');

/**
 * One MEM_GDS instruction. LLVM never emits GDS, so this is gpusim's own syntax:
 * `GDS_ADD_RET T3.X___, T2.XY_` (destination with DST_SEL_X..W, source GPR with SRC_SEL_X/Y/Z for
 * address, data0, data1; `_` masked, `0`/`1` constants) and KEY:value tokens for the other fields.
 */
export function printGds(g: GdsInst): string {
  const name = g.op?.name ?? `GDS_OP_${g.gdsOp}`;
  const x: string[] = [];
  if (g.memInst !== 2) x.push(`MEM_INST:${g.memInst}`);
  if (g.memOp !== 4) x.push(`MEM_OP:${g.memOp}`);
  if (g.srcRel) x.push(`SRC_REL:${g.srcRel}`);
  if (g.dstRel) x.push(`DST_REL:${g.dstRel}`);
  if (g.srcGpr2) x.push(`SRC2:${g.srcGpr2}`);
  if (g.uavIndexMode) x.push(`UAV_IDX:${g.uavIndexMode}`);
  if (g.uavId) x.push(`UAV:${g.uavId}`);
  if (g.allocConsume) x.push('ALLOC_CONSUME');
  if (g.bcastFirstReq) x.push('BCAST_FIRST');
  const w1 = g.words[1] & ((1 << 15) | (1 << 23));
  if (w1) x.push(`W1:${w1}`);
  const w2 = g.words[2] >>> 12;
  if (w2) x.push(`W2:${w2}`);
  if (g.words[3]) x.push(`W3:${g.words[3] >>> 0}`);
  if ((g.words[0] >>> 29) || ((g.words[0] >>> 5) & 7)) x.push(`W0:${(g.words[0] & 0xe00000e0) >>> 0}`);
  return `${name} T${g.dstGpr}.${gdsSel(g.dstSel)}, T${g.srcGpr}.${gdsSel(g.srcSel)}${x.length ? ' ' + x.join(' ') : ''}`;
}

function cfExtras(c: CfInst): string {
  const x: string[] = [];
  if (c.kind === 'cf') {
    if (c.cond) x.push(`COND:${COND_NAMES[c.cond]}`);
    if (c.cfConst) x.push(`CF_CONST:${c.cfConst}`);
    if (c.jumptableSel) x.push(`JTS:${c.jumptableSel}`);
  }
  if (c.kind === 'alu' && c.altConst) x.push('ALT_CONST');
  if (c.validPixelMode) x.push('VPM');
  if (c.wholeQuadMode) x.push('WQM');
  if (c.mark) x.push('MARK');
  if (!c.barrier) x.push('NO_BARRIER');
  return x.length ? ' ' + x.join(' ') : '';
}

/** One CF instruction (no leading tab). */
export function printCf(c: CfInst, isEnd: boolean, gen?: R600Gen): string {
  const name = c.op?.llvm ?? `CF_INST_${c.code}`;
  if (c.kind === 'alu') {
    // ALU_EXTENDED's kcache fields are the next clause's KC2/KC3.
    const [k0, k1] = c.op?.name === 'ALU_EXTENDED' ? ['KC2', 'KC3'] : ['KC0', 'KC1'];
    return `${name} ${c.count}, @${c.addr}, ${k0}[${kcacheText(c.kcache[0])}], ${k1}[${kcacheText(c.kcache[1])}]${cfExtras(c)}`;
  }
  if (c.kind === 'export') {
    const rat = c.rat?.llvm ?? `RAT_INST_${c.ratInst}`;
    const mask = [0, 1, 2, 3].filter((i) => (c.compMask >> i) & 1).map((i) => CHAN[i]).join('');
    let t: string;
    const extra: string[] = [];
    if (/^MEM_RAT/.test(c.op?.name ?? '')) {
      // LLVM prints STORE_TYPED as `RAT(id) Tdata, Tindex, eop`: all four channels, the index GPR's x/y/z.
      // (Cayman, which has no END_OF_PROGRAM bit, without the eop.)
      if (rat === 'STORE_TYPED') t = `${name} ${rat} RAT(${c.ratId}) T${c.rwGpr}, T${c.indexGpr}${gen === 'cayman' ? '' : `, ${c.endOfProgram ? 1 : 0}`}`;
      else if (rat === 'STORE_RAW') t = `${name} ${rat} T${c.rwGpr}.${mask}, T${c.indexGpr}.X, ${c.endOfProgram ? 1 : 0}`;
      else if (rat === 'STORE_DWORD') t = `${name} ${rat} T${c.rwGpr}${c.compMask === 1 ? '.X' : ''}, T${c.indexGpr}.X`;
      else if (rat === 'MSKOR') t = `${name} ${rat} T${c.rwGpr}.XW, T${c.indexGpr}.X`;
      else t = `${name} ${rat} T${c.rwGpr}, T${c.indexGpr}.X`;
      const defaultMask = rat === 'STORE_RAW' ? c.compMask : rat === 'STORE_DWORD' && (c.compMask === 1 || c.compMask === 3) ? c.compMask : 15;
      if (c.compMask !== defaultMask) extra.push(`MASK:${c.compMask}`);
      if (c.endOfProgram && !(rat === 'STORE_RAW' || rat === 'STORE_TYPED')) extra.push('EOP');
    } else if (/^EXPORT/.test(c.op?.name ?? '')) {
      // EXPORT / EXPORT_DONE (LLVM's compute code never exports): TYPE:ARRAY_BASE and the SWIZ selects.
      t = `${name} ${EXPORT_TYPES[c.exportType]}:${c.arrayBase} T${c.rwGpr}.${gdsSel(c.swizzle)}`;
      if (c.indexGpr) extra.push(`INDEX:${c.indexGpr}`);
      if (c.compMask) extra.push(`CMASK:${c.compMask}`);
      if (c.endOfProgram) extra.push('EOP');
      if (c.rwRel) extra.push('RW_REL');
      if (c.elemSize) extra.push(`ELEM:${c.elemSize}`);
      if (c.burstCount) extra.push(`BURST:${c.burstCount}`);
      return t + (extra.length ? ' ' + extra.join(' ') : '') + cfExtras(c);
    } else {
      // MEM_SCRATCH / MEM_RING* / MEM_STREAM* / MEM_EXPORT*: the BUF form.
      const types = c.op?.name === 'MEM_WRITE_SCRATCH' ? SCRATCH_TYPES : MEM_TYPES;
      t = `${name} ${types[c.exportType]} T${c.rwGpr}.${mask || '_'}, T${c.indexGpr}.X BASE:${c.arrayBase} SIZE:${c.arraySize}`;
      if (c.endOfProgram) extra.push('EOP');
      if (c.rwRel) extra.push('RW_REL');
      if (c.elemSize) extra.push(`ELEM:${c.elemSize}`);
      if (c.burstCount) extra.push(`BURST:${c.burstCount}`);
      return t + (extra.length ? ' ' + extra.join(' ') : '') + cfExtras(c);
    }
    const def = 1;
    if (c.exportType !== def) extra.push(`TYPE:${c.exportType}`);
    if (c.ratId && c.rat?.name !== 'STORE_TYPED') extra.push(`RAT_ID:${c.ratId}`);
    if (c.ratIndexMode) extra.push(`IDXMODE:${c.ratIndexMode}`);
    if (c.rwRel) extra.push('RW_REL');
    if (c.elemSize) extra.push(`ELEM:${c.elemSize}`);
    if (c.arraySize) extra.push(`ARRAY:${c.arraySize}`);
    if (c.burstCount) extra.push(`BURST:${c.burstCount}`);
    return t + (extra.length ? ' ' + extra.join(' ') : '') + cfExtras(c);
  }
  const opName = c.op?.name ?? '';
  if (isEnd && c.endOfProgram && opName === 'NOP') {
    return 'CF_END' + cfExtras(c);
  }
  const eop = c.endOfProgram ? ' EOP' : '';
  if (opName === 'TC' || opName === 'VC' || opName === 'VC_TC' || opName === 'GDS') return `${name} ${c.count} @${c.addr}${eop}${cfExtras(c)}`;
  if (opName === 'CF_END') return `CF_END${cfExtras(c)}`;
  if (opName === 'NOP' && !c.addr && !c.popCount && !c.count) return `NOP${eop}${cfExtras(c)}`;
  const cnt = c.count ? ` COUNT:${c.count}` : '';
  if (opName === 'JUMP' || opName === 'POP' || opName === 'ELSE' || c.popCount)
    return `${name} @${c.addr} POP:${c.popCount}${cnt}${eop}${cfExtras(c)}`;
  return `${name} @${c.addr}${cnt}${eop}${cfExtras(c)}`;
}

export interface PrintOptions {
  /** Relocation symbol names by byte offset of the literal dword they patch. */
  readonly relocs?: ReadonlyMap<number, string>;
  readonly vtxName: (format: number) => string | undefined;
}

/** The program as clang -S prints its body: one string per line, each starting with a tab. */
export function printProgram(p: R600Program, opts: PrintOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.cfEnd; i++) out.push('\t' + printCf(p.cf[i]!, i === p.cfEnd - 1, p.gen));
  // Clauses, in address order.
  const clauses: { addr: number; cf: CfInst }[] = [];
  for (let i = 0; i < p.cfEnd; i++) {
    const c = p.cf[i]!;
    if (c.aluClause || c.fetchClause || c.gdsClause) clauses.push({ addr: c.addr, cf: c });
  }
  clauses.sort((a, b) => a.addr - b.addr);
  const seen = new Set<number>();
  let pos = p.cfEnd; // in 64-bit slots
  for (const { addr, cf } of clauses) {
    if (seen.has(addr)) continue;
    seen.add(addr);
    while (pos < addr) {
      out.push('\tPAD');
      pos++;
    }
    if (cf.gdsClause) {
      out.push(`\tGDS clause starting at ${addr}:`);
      for (const g of cf.gdsClause) out.push('\t  ' + printGds(g));
      pos = addr + cf.gdsClause.length * 2;
    } else if (cf.fetchClause) {
      out.push(`\tFetch clause starting at ${addr}:`);
      for (const f of cf.fetchClause) out.push('\t  ' + printFetch(f, opts.vtxName));
      pos = addr + cf.fetchClause.length * 2;
    } else if (cf.aluClause) {
      out.push(`\tALU clause starting at ${addr}:`);
      for (const g of cf.aluClause) out.push(...printGroup(g, opts.relocs));
      pos = addr + cf.count + 1;
    }
  }
  return out;
}

export function printGroup(g: AluGroup, relocs?: ReadonlyMap<number, string>): string[] {
  const out: string[] = [];
  const litBase = g.insts[g.insts.length - 1]!.offset + 8;
  for (const inst of g.insts) {
    const reloc = relocs ? inst.src.map((s) => (s.sel === SRC.LITERAL ? relocs.get(litBase + 4 * s.chan) : undefined)) : [];
    let line = printAlu(inst);
    if (reloc.some(Boolean)) {
      inst.src.forEach((s, k) => {
        if (reloc[k]) line = line.replace(`literal.${'xyzw'[s.chan]}`, `literal.${'xyzw'[s.chan]}`);
      });
    }
    out.push('\t  ' + line);
  }
  for (let k = 0; k < g.literals.length; k += 2) {
    const a = relocs?.get(litBase + 4 * k);
    const b = relocs?.get(litBase + 4 * k + 4);
    out.push(`\t${a ? '@' + a : printLiteral(g.literals[k]!)}, ${b ? '@' + b : printLiteral(g.literals[k + 1]!)}`);
  }
  return out;
}
