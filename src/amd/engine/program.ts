/**
 * Decode once per PC (DESIGN.md habit 3): a Program is a code region (a code object's .text at
 * its load address) with a lazily filled table of bound ops, indexed by (pc - base) / 4. An op is
 * the decoded Instruction plus the handler its semantics bound for it.
 */
import type { Instruction } from '../isa/types.js';
import { DecodeError } from '../isa/types.js';
import { decodeAt, printInst, type IsaTarget } from '../isa/target.js';
import type { Wave } from '../wave/wave.js';
import { WAVE_STATE_SEED, INST_CLASSES, type Bound, type ExecEnv, type Finding, type Inline, type InstClass, type Op, type Run } from './types.js';
import { bindInstruction, bindReference } from './bind.js';
import { bindFast, handlerMaker, isFast, markFast } from './fast-registry.js';
import { bindPreGfx11 } from '../target/normalize.js';
import type { Block } from './block-types.js';
export type { InstClass, Run, Op } from './types.js';
export { INST_CLASSES } from './types.js';
import { engineTime } from './timing.js';
export { engineTime } from './timing.js';

export class Program {
  readonly base: number;
  readonly words: Uint32Array;
  private readonly ops: (Op | undefined)[];
  /** Bind-time findings of decoded ops (kept: a Program kept across dispatches reports them in each). */
  private readonly findings: (readonly Finding[] | undefined)[];
  /** Indices of the ops with findings. */
  private readonly withFindings: number[] = [];
  /** Findings not yet reported in this dispatch (reported when a wave first reaches the op). */
  private readonly pending: (readonly Finding[] | undefined)[];
  /** Basic blocks by start index, built and compiled by block.ts. */
  readonly blocks: (Block | undefined)[];
  /**
   * By start index: visits still to be stepped op by op before the block built there runs
   * (tier.ts); kept with the Program across dispatches.
   */
  readonly heat: Int32Array;
  /** By PC index: 1 inside a built block (not its start), 2 at a branch target (tier.ts). */
  readonly interior: Uint8Array;
  /**
   * By PC index inside a built block (interior 1): the start index + 1 of the block a wave
   * resuming there enters mid-way, and the op index it enters at (`entry`); 0: none (tier.ts).
   */
  readonly owner: Int32Array;
  readonly entry: Uint8Array;
  readonly target: IsaTarget;
  readonly env: ExecEnv;
  /**
   * In this dispatch (dispatch.ts sets it; 0: none): an op bound for a fast env runs its reference
   * handler for its first `firstCalls` calls, and no block starts at a PC visited fewer times
   * (tier.ts). A dispatch of fewer waves than runKernel's tiering.firstCalls has it.
   */
  firstCalls = 0;
  /**
   * By PC index: the reference binding of an op not given its fast handler yet (it was bound with
   * firstCalls on: `hot` gives it); undefined: none.
   */
  private readonly cold: (Bound | undefined)[];
  /** By PC index: visits of a PC where no block is built yet (tier.ts builds one after firstCalls; at most 255). */
  readonly seen: Uint8Array;

  constructor(target: IsaTarget, base: number, words: Uint32Array, env: ExecEnv) {
    this.target = target;
    this.base = base;
    this.words = words;
    this.ops = new Array(words.length);
    this.findings = new Array(words.length);
    this.pending = new Array(words.length);
    this.blocks = new Array(words.length);
    this.heat = new Int32Array(words.length);
    this.interior = new Uint8Array(words.length);
    this.owner = new Int32Array(words.length);
    this.entry = new Uint8Array(words.length);
    this.cold = new Array(words.length);
    this.seen = new Uint8Array(words.length);
    this.env = env;
  }

  /**
   * The bound op at `pc`; throws DecodeError for an invalid encoding or a PC outside the code.
   * Findings the binder made are reported once, for the first wave that reaches the PC.
   */
  opAt(pc: number, w: Wave): Op {
    const i = (pc - this.base) / 4;
    const cached = this.ops[i];
    if (cached !== undefined && this.pending[i] === undefined) return cached;
    const op = this.peek(pc);
    const findings = this.pending[i];
    if (findings !== undefined) {
      this.pending[i] = undefined;
      for (const f of findings) {
        this.env.diag.report({ id: f.id, severity: f.severity ?? 'warning', where: { pc, wave: w.id }, message: f.message, seed: WAVE_STATE_SEED });
      }
    }
    return op;
  }

  /**
   * The bound op at `pc` without reporting its findings (block.ts looks ahead with it); throws
   * DecodeError as opAt does.
   */
  peek(pc: number): Op {
    const i = (pc - this.base) / 4;
    const cached = this.ops[i];
    if (cached !== undefined) return cached;
    if (!Number.isInteger(i) || i < 0 || i >= this.words.length) {
      throw new DecodeError(pc, [], `PC outside the program [0x${this.base.toString(16)}, 0x${(this.base + this.words.length * 4).toString(16)})`);
    }
    const t0 = performance.now();
    const raw = decodeAt(this.target, this.words, i, pc);
    const target = this.target;
    // A GFX11 op of a fast dispatch starts on its reference handler (see `cold`); GFX9/GFX10.3
    // instructions execute as their GFX11 equivalents (target/normalize.ts), bound at once; traces
    // print the original.
    const later = target.space.gfx === 11 && this.env.engine !== 'interp' && this.firstCalls > 0;
    const { inst, bound: b } = later ? { inst: raw, bound: bindReference(raw, this.env) } : target.space.gfx === 11 ? { inst: raw, bound: bindInstruction(raw, this.env) } : bindPreGfx11(raw, this.env, bindInstruction);
    if (b.findings !== undefined && b.findings.length > 0) {
      this.findings[i] = b.findings;
      this.pending[i] = b.findings;
      this.withFindings.push(i);
    }
    const op: Op = { inst, run: b.run, cls: b.cls, ci: INST_CLASSES.indexOf(b.cls), size: inst.size, endpgm: inst.mnemonic === 's_endpgm', waitInfo: null, text: () => printInst(target, raw), inline: undefined };
    if (later) {
      this.cold[i] = b;
      const ref = b.run;
      let calls = 0;
      (op as { run: Run }).run = (w: Wave) => {
        if (++calls >= this.firstCalls) this.hot(i);
        ref(w);
      };
    } else this.give(op, b);
    this.ops[i] = op;
    engineTime.bindMs += performance.now() - t0;
    engineTime.binds++;
    return op;
  }

  /** `op` takes bound handler `b`: its run and its source for blocks to inline. */
  private give(op: Op, b: Bound): void {
    (op as { inline: Inline | undefined }).inline = b.inline !== undefined && b.inline.run === b.run ? b.inline : undefined;
    (op as { run: Run }).run = b.run;
    // A generated handler is made when it first runs (fast-registry.ts `generated`): then it takes
    // the place of the stand-in in the op, so later calls go straight to it.
    const make = handlerMaker(b.run);
    if (make !== undefined) {
      const first: Run = (w) => {
        const f = make();
        (op as { run: Run }).run = f;
        f(w);
      };
      (op as { run: Run }).run = isFast(b.run) ? markFast(first) : first;
    }
  }

  /** The op at index `i` gets its fast handler now, if it still runs its reference one (see `cold`). */
  private hot(i: number): void {
    const ref = this.cold[i];
    if (ref === undefined) return;
    this.cold[i] = undefined;
    const op = this.ops[i]!;
    const t0 = performance.now();
    this.give(op, bindFast(op.inst, this.env, ref) ?? ref);
    engineTime.bindMs += performance.now() - t0;
  }

  /** The bound op at `pc` with its fast handler (a block inlines its source): peek, made hot. */
  peekHot(pc: number): Op {
    const op = this.peek(pc);
    this.hot((pc - this.base) / 4);
    return op;
  }

  /**
   * True when the op at `pc` has bind-time findings: it never runs inside a block (block.ts), so
   * each dispatch of a kept Program reaches it through opAt and reports them.
   */
  hasFindings(pc: number): boolean {
    return this.findings[(pc - this.base) / 4] !== undefined;
  }

  /** A new dispatch: every op's findings are to be reported again (dispatch.ts keeps Programs). */
  rearm(): void {
    const f = this.findings;
    for (const i of this.withFindings) this.pending[i] = f[i];
  }
}
