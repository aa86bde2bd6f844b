/**
 * The CF program walker (seed 003_ea00a3a93da820dc.txt): one walker over a program's CF
 * instructions, dispatching each through a handler table keyed by its CF_INST number.
 *
 * - `bindProgram` turns a decoded program into CfOp records once per program: the decoded CF
 *   instruction, its handler (from the generation's table, indexed by the CF_INST field of
 *   CF_WORD1, CF_ALU_WORD1 or CF_ALLOC_EXPORT_WORD1), the diagnostics its fields alone decide,
 *   and its clause bound by the clause's executor (alu-clause.ts, fetch-clause.ts, gds-clause.ts,
 *   export.ts for CF_ALLOC_EXPORT).
 * - `stepCf` runs one CF instruction (the scheduler in dispatch.ts calls it): condition tests, the active-state updates, CF stack pushes and
 *   pops and jumps are the handlers here; clauses run in their own files.
 */
import { GEN_COLUMN, isCfExport, type CfInst, type R600Gen, type R600Program } from '../isa/decode.js';
import { CF_OPS } from '../isa/opcodes.gen.js';
import { printCf } from '../isa/print.js';
import { ALU_CF_HANDLERS, bindAluClause, type AluGroupOp } from './alu-clause.js';
import { EXPORT_HANDLERS, bindExport, type ExportOp } from './export.js';
import { bindFetchClause, fetchClause, type FetchOp } from './fetch-clause.js';
import { bindGdsClause, gdsClause, type GdsOp } from './gds-clause.js';
import { STATE, maskHex, type StepResult, type Wave } from './machine.js';

/** Runs one CF instruction on a wave; returns what the scheduler needs to know. */
export type CfHandler = (w: Wave, op: CfOp) => StepResult;

/** A diagnostic decided by an instruction's fields, reported each time the instruction runs. */
export interface CfFinding {
  readonly id: string;
  readonly message: string;
  readonly severity: 'error' | 'warning' | 'info';
}

/** One CF instruction, decoded and bound once per program. */
export interface CfOp {
  readonly c: CfInst;
  /** The CF_INST's ISA-document name ('' when unknown): messages only. */
  readonly name: string;
  /** The handler from the generation's table; `unknownCf` for a CF_INST the generation lacks. */
  readonly run: CfHandler;
  /** The CF_INST is one the generation has. */
  readonly known: boolean;
  /** Field findings reported before (JTS, CF_CONST) and after (POP_COUNT) the ALU_EXTENDED pairing check. */
  readonly pre: readonly CfFinding[] | undefined;
  readonly post: readonly CfFinding[] | undefined;
  /** The bound clause: ALU groups, fetch instructions, GDS instructions, or the export's record. */
  readonly alu: readonly AluGroupOp[] | undefined;
  readonly fetch: readonly FetchOp[] | undefined;
  readonly gds: readonly GdsOp[] | undefined;
  readonly exp: ExportOp | undefined;
}

/** Advance to the next CF instruction (END_OF_PROGRAM ends the wave). */
export function next(w: Wave, op: CfOp): StepResult {
  w.pc++;
  return w.finish(op.c);
}

// --- CF_WORD1 handlers (branches, loops, calls, clauses without CF_ALU / CF_ALLOC_EXPORT words) ---

function unknownCf(w: Wave, op: CfOp): StepResult {
  w.diag('r600.cf.unknown', `unknown CF instruction ${op.c.code} (${printCf(op.c, false, w.opts.program.gen)})`);
  return next(w, op);
}

function unsupportedCf(w: Wave, op: CfOp): StepResult {
  w.diag('r600.unsupported', `${op.name} is not modelled`, 'warning');
  return next(w, op);
}

function waitAck(w: Wave, op: CfOp): StepResult {
  w.pendingAcks = 0;
  return next(w, op);
}

function fetchCf(w: Wave, op: CfOp): StepResult {
  fetchClause(w, op);
  return next(w, op);
}

function gdsCf(w: Wave, op: CfOp): StepResult {
  if (op.c.cond !== 0) w.diag('r600.cf.gds-cond', 'GDS clauses must use COND=ACTIVE', 'error');
  gdsClause(w, op);
  return next(w, op);
}

function jump(w: Wave, op: CfOp): StepResult {
  const c = op.c;
  if (!w.anyPass(c)) {
    w.pop(c.popCount);
    w.pc = c.addr;
  } else w.pc++;
  return w.finish(c);
}

function push(w: Wave, op: CfOp): StepResult {
  const c = op.c;
  if (!w.anyPass(c)) {
    w.pop(c.popCount);
    w.pc = c.addr;
    return w.finish(c);
  }
  const pass = w.pass;
  for (let l = 0; l < w.W; l++) pass[l] = w.condTest(l, c) ? 1 : 0;
  w.push('branch');
  for (let l = 0; l < w.W; l++) if (w.state[l] === STATE.ACTIVE && !pass[l]) w.state[l] = STATE.INACTIVE_BRANCH;
  return next(w, op);
}

function elseCf(w: Wave, op: CfOp): StepResult {
  const c = op.c;
  w.pop(c.popCount);
  w.elseOp();
  w.retest(c);
  if (!w.anyActive()) w.pc = c.addr;
  else w.pc++;
  return w.finish(c);
}

/**
 * Unconditional pop: pop, then evaluate the condition test on the new state and disable the items
 * that fail it (so POP with VALID_PIXEL_MODE drops killed pixels).
 */
function pop(w: Wave, op: CfOp): StepResult {
  const c = op.c;
  w.pop(c.popCount);
  w.retest(c);
  return next(w, op);
}

/** LOOP_START (aL from the loop constant), LOOP_START_NO_AL (aL inherited), LOOP_START_DX10 (no count). */
function loopStart(form: 'LOOP_START' | 'LOOP_START_NO_AL' | 'LOOP_START_DX10'): CfHandler {
  const dx10 = form === 'LOOP_START_DX10';
  const setsAL = form === 'LOOP_START';
  return (w, op) => {
    const c = op.c;
    const k = w.opts.resources.loopConsts[c.cfConst] ?? { count: 0, init: 0, inc: 0 };
    if (!w.anyPass(c) || (!dx10 && k.count === 0)) {
      w.pc = c.addr;
      return w.finish(c);
    }
    const prevAL = w.loopIndex();
    w.push('loop', w.pc, { counter: k.count, aL: setsAL ? k.init : prevAL, inc: setsAL ? k.inc : 0, dx10 });
    // Items failing the test do not take part in the loop.
    for (let l = 0; l < w.W; l++) if (w.state[l] === STATE.ACTIVE && !w.condTest(l, c)) w.state[l] = STATE.INACTIVE_BRANCH;
    return next(w, op);
  };
}

function loopEnd(w: Wave, op: CfOp): StepResult {
  const c = op.c;
  const li = w.innermostLoop();
  if (li < 0) {
    w.diag('r600.cf.loop-end-without-loop', 'LOOP_END with no loop on the CF stack');
    return next(w, op);
  }
  // Branch pushes a break/continue jumped over are discarded with the iteration.
  w.stack.length = li + 1;
  const e = w.stack[li]!;
  for (let l = 0; l < w.W; l++) if (w.state[l] === STATE.INACTIVE_CONTINUE) w.state[l] = STATE.ACTIVE;
  if (!e.dx10) e.counter--;
  if (w.anyPass(c) && (e.dx10 || e.counter > 0)) {
    e.aL += e.inc;
    w.pc = c.addr;
    return w.finish(c);
  }
  w.stack.length = li;
  // Leaving the loop: every item that entered it is active again (broken or finished).
  for (let l = 0; l < w.W; l++) w.state[l] = e.state[l]!;
  return next(w, op);
}

/** LOOP_BREAK / LOOP_CONTINUE: passing items go Inactive-Break / Inactive-Continue. */
function loopExit(to: typeof STATE.INACTIVE_BREAK | typeof STATE.INACTIVE_CONTINUE): CfHandler {
  return (w, op) => {
    const c = op.c;
    if (w.innermostLoop() < 0) w.diag('r600.cf.break-outside-loop', `${op.name} outside any loop`);
    for (let l = 0; l < w.W; l++) if (w.condTest(l, c)) w.state[l] = to;
    // Jump to ADDR (the LOOP_END) only when every item that entered the loop has broken out or
    // continued; items merely disabled by an inner branch must fall through to its POP.
    const entry = w.stack[w.innermostLoop()];
    let allGone = true;
    for (let l = 0; l < w.W; l++) {
      const inLoop = entry ? entry.state[l] === STATE.ACTIVE : w.valid[l] === 1;
      const s = w.state[l];
      if (inLoop && s !== STATE.INACTIVE_BREAK && s !== STATE.INACTIVE_CONTINUE) allGone = false;
    }
    if (allGone) {
      w.pop(c.popCount);
      w.pc = c.addr;
    } else w.pc++;
    return w.finish(c);
  };
}

/** CALL (to ADDR, when any item passes) and CALL_FS (to the fetch shader, unconditionally). */
function call(fs: boolean): CfHandler {
  return (w, op) => {
    const c = op.c;
    const target = fs ? w.opts.fetchShader : c.addr;
    if (target === undefined) {
      w.diag('r600.cf.call-fs-without-fetch-shader', 'CALL_FS with no fetch shader bound', 'error');
      return next(w, op);
    }
    if (!fs && !w.anyPass(c)) return next(w, op);
    w.pop(c.popCount);
    if (w.stack.filter((e) => e.kind === 'call').length >= 32) w.diag('r600.cf.call-depth', 'call nesting deeper than 32', 'error');
    w.push('call', w.pc + 1);
    w.pc = target;
    return w.finish(c);
  };
}

function ret(w: Wave, op: CfOp): StepResult {
  let i = w.stack.length - 1;
  while (i >= 0 && w.stack[i]!.kind !== 'call') i--;
  if (i < 0) {
    w.diag('r600.cf.return-without-call', 'RETURN with no CALL on the stack: ending the program');
    w.done = true;
    return 'end';
  }
  const e = w.stack[i]!;
  w.stack.length = i;
  w.pc = e.pc;
  return w.finish(op.c);
}

/** Evergreen: jump to ADDR + the index JUMPTABLE_SEL names (CF_IDX0 / CF_IDX1 from SET_CF_IDX*). */
function jumptable(w: Wave, op: CfOp): StepResult {
  const c = op.c;
  if (c.jumptableSel > 1) w.diag('r600.cf.jumptable-sel', `JUMPTABLE_SEL=${c.jumptableSel} selects no index gpusim models (0: CF_IDX0, 1: CF_IDX1)`, 'warning');
  w.pop(c.popCount);
  w.pc = c.addr + (w.cfIdx[c.jumptableSel & 1] ?? 0);
  return w.finish(c);
}

/** KILL: passing items lose their VALID bit for good. */
function kill(w: Wave, op: CfOp): StepResult {
  for (let l = 0; l < w.W; l++) if (w.condTest(l, op.c)) w.valid[l] = 0;
  return next(w, op);
}

function notInCompute(w: Wave, op: CfOp): StepResult {
  w.diag('r600.cf.not-in-compute', `${op.name} has no effect in a compute shader`, 'info');
  return next(w, op);
}

function cfEnd(w: Wave): StepResult {
  w.done = true;
  w.checkAcks();
  return 'end';
}

/** CF_WORD1 instructions by ISA-document name; the per-generation tables below index them by CF_INST. */
const CF_HANDLERS: Readonly<Record<string, CfHandler>> = {
  NOP: next, GLOBAL_WAVE_SYNC: next, WAIT_ACK: waitAck,
  TC: fetchCf, VC: fetchCf, VC_TC: fetchCf, GDS: gdsCf,
  JUMP: jump, PUSH: push, PUSH_WQM: push, ELSE: elseCf, ELSE_WQM: elseCf, POP: pop, POP_WQM: pop,
  LOOP_START: loopStart('LOOP_START'), LOOP_START_NO_AL: loopStart('LOOP_START_NO_AL'), LOOP_START_DX10: loopStart('LOOP_START_DX10'),
  LOOP_END: loopEnd, LOOP_BREAK: loopExit(STATE.INACTIVE_BREAK), LOOP_CONTINUE: loopExit(STATE.INACTIVE_CONTINUE),
  CALL: call(false), CALL_FS: call(true), RETURN: ret, JUMPTABLE: jumptable, KILL: kill,
  EMIT_VERTEX: notInCompute, EMIT_CUT_VERTEX: notInCompute, CUT_VERTEX: notInCompute, CF_END: cfEnd,
};

/** CF instructions that use POP_COUNT (others report it: `r600.cf.popcount-unused`). */
const USES_POP = new Set(['JUMP', 'ELSE', 'POP', 'CALL', 'CALL_FS', 'LOOP_BREAK', 'LOOP_CONTINUE', 'RETURN', 'JUMPTABLE', 'PUSH']);

/** A generation's handlers indexed by CF_INST: `cf` for CF_WORD1 / CF_ALLOC_EXPORT_WORD1 (8 bits), `alu` for CF_ALU_WORD1 (4 bits). */
interface CfTable {
  readonly cf: readonly (CfHandler | undefined)[];
  readonly alu: readonly (CfHandler | undefined)[];
}

function buildTable(gen: R600Gen): CfTable {
  const cf: (CfHandler | undefined)[] = new Array(256).fill(undefined);
  const alu: (CfHandler | undefined)[] = new Array(16).fill(undefined);
  for (const op of CF_OPS) {
    const code = op.codes[GEN_COLUMN[gen]];
    if (code < 0) continue;
    if (op.alu) alu[code] = ALU_CF_HANDLERS[op.name];
    else cf[code] = isCfExport(gen, code) ? EXPORT_HANDLERS(op.name) : Object.hasOwn(CF_HANDLERS, op.name) ? CF_HANDLERS[op.name] : unsupportedCf;
  }
  return { cf, alu };
}

const TABLES: Readonly<Record<R600Gen, CfTable>> = {
  r600: buildTable('r600'), r700: buildTable('r700'), evergreen: buildTable('evergreen'), cayman: buildTable('cayman'),
};

/** The fields' findings of one CF instruction (the checks the walker made on every run). */
function findings(c: CfInst, name: string): [CfFinding[] | undefined, CfFinding[] | undefined] {
  const pre: CfFinding[] = [];
  const post: CfFinding[] = [];
  if (c.jumptableSel && name !== 'JUMPTABLE') pre.push({ id: 'r600.cf.jts-unused', message: `JUMPTABLE_SEL=${c.jumptableSel} on ${name}: only CF_INST_JUMPTABLE uses it`, severity: 'warning' });
  if (c.kind === 'cf' && c.cfConst && c.cond < 2 && name !== 'LOOP_START' && name !== 'LOOP_START_NO_AL')
    pre.push({ id: 'r600.cf.cfconst-unused', message: `CF_CONST=${c.cfConst} on ${name} with COND=${['ACTIVE', 'FALSE'][c.cond]}: only BOOL/NOT_BOOL tests and LOOP_START read it`, severity: 'warning' });
  if (c.kind === 'cf' && c.popCount && !USES_POP.has(name)) post.push({ id: 'r600.cf.popcount-unused', message: `POP_COUNT=${c.popCount} on ${name}, which does not pop`, severity: 'warning' });
  return [pre.length ? pre : undefined, post.length ? post : undefined];
}

const bound = new WeakMap<R600Program, readonly CfOp[]>();

/** Bind every CF instruction of a program (and its clause) to its handler, once per program. */
export function bindProgram(p: R600Program): readonly CfOp[] {
  const have = bound.get(p);
  if (have) return have;
  const t = TABLES[p.gen];
  const ops = p.cf.map((c): CfOp => {
    const name = c.op?.name ?? '';
    const run = c.op ? (c.kind === 'alu' ? t.alu[c.code] : t.cf[c.code]) : undefined;
    const [pre, post] = c.op ? findings(c, name) : [undefined, undefined];
    return {
      c, name, run: run ?? (c.op ? unsupportedCf : unknownCf), known: c.op !== undefined, pre, post,
      alu: c.aluClause ? bindAluClause(c.aluClause, Math.max(2, p.gprCount)) : undefined,
      fetch: c.fetchClause ? bindFetchClause(c.fetchClause) : undefined,
      gds: c.gdsClause ? bindGdsClause(c.gdsClause) : undefined,
      exp: c.kind === 'export' && c.op ? bindExport(c, name) : undefined,
    };
  });
  bound.set(p, ops);
  return ops;
}

/** The walker: execute the CF instruction at the wave's PC (or resume a clause stopped at a barrier). */
export function stepCf(w: Wave): StepResult {
  const p = w.opts.program;
  if (w.pc < 0 || w.pc >= p.cfEnd) {
    w.diag('r600.cf.pc-out-of-program', `CF program counter ${w.pc} is outside the program (0..${p.cfEnd - 1})`);
    w.done = true;
    return 'end';
  }
  const op = (w.cfOps ??= bindProgram(p))[w.pc]!;
  w.stats.cfInstructions++;
  if (w.opts.trace && w.resumeGroup < 0) {
    w.opts.trace(`wave ${w.id} cf ${w.pc} ${printCf(op.c, w.pc === p.cfEnd - 1, p.gen)} | active=${maskHex(w.state, (v) => v === STATE.ACTIVE)} valid=${maskHex(w.valid, (v) => v === 1)} stack=${w.stack.length}`);
  }
  if (!op.known) return op.run(w, op);
  if (op.pre) for (const f of op.pre) w.diag(f.id, f.message, f.severity);
  if (w.extPending && op.c.kind !== 'alu') {
    w.diag('r600.cf.alu-extended-unpaired', `ALU_EXTENDED is followed by ${op.name}, not an ALU clause`, 'error');
    w.extPending = undefined;
  }
  if (op.post) for (const f of op.post) w.diag(f.id, f.message, f.severity);
  return op.run(w, op);
}
